package acp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/session"
)

const unstable = "_goose/unstable/"

func TestUnstableSessionInfoRenameArchiveProjectOnDisk(t *testing.T) {
	r := newDesktopRig(t, nil)
	s := r.seed(t, "first", r.dir, 1000, 1001)

	info := r.call(t, unstable+"session/info", map[string]any{"sessionId": s.ID})
	var got struct {
		Session struct {
			SessionID string         `json:"sessionId"`
			CWD       string         `json:"cwd"`
			Title     string         `json:"title"`
			Meta      map[string]any `json:"_meta"`
		} `json:"session"`
	}
	mustUnmarshal(t, info, &got)
	if got.Session.SessionID != s.ID || got.Session.CWD != r.dir || got.Session.Title != "first" {
		t.Fatalf("session/info: %s", info)
	}
	m := got.Session.Meta
	if m["messageCount"] != float64(2) || m["archivedAt"] != nil || m["projectId"] != nil || m["hasRecipe"] != false ||
		m["userSetName"] != false || m["createdAt"] == nil {
		t.Fatalf("session/info _meta: %v", m)
	}

	r.call(t, unstable+"session/rename", map[string]any{"sessionId": s.ID, "title": "  Renamed  "})
	r.call(t, unstable+"session/project/update", map[string]any{"sessionId": s.ID, "projectId": "proj-1"})
	r.call(t, unstable+"session/archive", map[string]any{"sessionId": s.ID})
	disk := r.onDisk(t, s.ID)
	if disk.Name != "Renamed" || !disk.UserSetName || disk.ProjectID == nil || *disk.ProjectID != "proj-1" ||
		disk.ArchivedAt == nil || disk.ArchivedAt.IsZero() {
		t.Fatalf("on disk after rename/project/archive: name %q set %v project %v archived %v",
			disk.Name, disk.UserSetName, disk.ProjectID, disk.ArchivedAt)
	}
	// Archived sessions are listed only when asked for (Desktop 1.5x's
	// archive view sends _meta.goose.archiveState).
	if list := r.callRaw(t, 899, "session/list", map[string]any{}); strings.Contains(string(list.Result), s.ID) {
		t.Fatalf("an archived session in the default list: %s", list.Result)
	}
	list := r.callRaw(t, 900, "session/list", map[string]any{"_meta": map[string]any{"goose": map[string]any{"archiveState": "all"}}})
	if !strings.Contains(string(list.Result), `"archivedAt":"`) || !strings.Contains(string(list.Result), `"projectId":"proj-1"`) {
		t.Fatalf("session/list _meta lacks archive/project: %s", list.Result)
	}

	r.call(t, unstable+"session/unarchive", map[string]any{"sessionId": s.ID})
	r.call(t, unstable+"session/project/update", map[string]any{"sessionId": s.ID, "projectId": nil})
	disk = r.onDisk(t, s.ID)
	if disk.ArchivedAt != nil || disk.ProjectID != nil {
		t.Fatalf("after unarchive and clearing the project: archived %v project %v", disk.ArchivedAt, disk.ProjectID)
	}
}

func TestUnstableSessionErrors(t *testing.T) {
	r := newDesktopRig(t, nil)
	s := r.seed(t, "x", r.dir, 1000)
	for _, tc := range []struct {
		method string
		params map[string]any
		code   int64
		data   string
	}{
		{"session/info", map[string]any{"sessionId": "nope"}, CodeResourceNotFound, `"Session not found: nope"`},
		{"session/info", map[string]any{"sessionId": "  "}, -32602, `"sessionId cannot be empty"`},
		{"session/rename", map[string]any{"sessionId": s.ID, "title": " "}, -32602, `"Session name cannot be empty"`},
		{"session/archive", map[string]any{"sessionId": "nope"}, CodeResourceNotFound, `"Session not found: nope"`},
		{"session/working-dir/update", map[string]any{"sessionId": s.ID, "workingDir": "relative"}, -32602, `"cwd must be an absolute path: \"relative\""`},
		{"session/working-dir/update", map[string]any{"sessionId": s.ID, "workingDir": r.dir + "/missing"}, -32602, `"invalid directory path"`},
		{"session/export", map[string]any{"sessionId": s.ID, "format": "pdf"}, -32602, `"unknown export format \"pdf\" (json or markdown)"`},
	} {
		code, _, data := r.callErr(t, unstable+tc.method, tc.params)
		if code != tc.code || data != tc.data {
			t.Errorf("%s %v: %d %s, want %d %s", tc.method, tc.params, code, data, tc.code, tc.data)
		}
	}
	if got := r.onDisk(t, s.ID); got.Name != "x" || got.WorkingDir != r.dir {
		t.Fatalf("a refused request changed the session: %q %q", got.Name, got.WorkingDir)
	}
}

func TestUnstableTruncateExportImportOnDisk(t *testing.T) {
	r := newDesktopRig(t, nil)
	s := r.seed(t, "talk", r.dir, 1000, 1001, 1002, 1003)
	r.call(t, unstable+"session/conversation/truncate", map[string]any{"sessionId": s.ID, "truncateFrom": 1002})
	if n := len(r.onDisk(t, s.ID).Conversation); n != 2 {
		t.Fatalf("after truncate from 1002: %d messages on disk, want 2", n)
	}

	var exp struct {
		Data string `json:"data"`
	}
	mustUnmarshal(t, r.call(t, unstable+"session/export", map[string]any{"sessionId": s.ID}), &exp)
	var exported session.Session
	if err := json.Unmarshal([]byte(exp.Data), &exported); err != nil || exported.ID != s.ID || len(exported.Conversation) != 2 {
		t.Fatalf("json export: %v %s", err, exp.Data)
	}
	mustUnmarshal(t, r.call(t, unstable+"session/export", map[string]any{"sessionId": s.ID, "format": "markdown"}), &exp)
	if !strings.HasPrefix(exp.Data, "# talk\n") || !strings.Contains(exp.Data, "## User\n\nquestion talk") ||
		!strings.Contains(exp.Data, "## Assistant\n\nanswer talk") {
		t.Fatalf("markdown export:\n%s", exp.Data)
	}

	var imp struct {
		SessionID    string `json:"sessionId"`
		Title        string `json:"title"`
		MessageCount int    `json:"messageCount"`
	}
	raw, _ := json.Marshal(exported)
	mustUnmarshal(t, r.call(t, unstable+"session/import", map[string]any{"input": string(raw), "source": "auto"}), &imp)
	if imp.SessionID == s.ID || imp.Title != "talk" || imp.MessageCount != 2 {
		t.Fatalf("import: %+v", imp)
	}
	if got := r.onDisk(t, imp.SessionID); len(got.Conversation) != 2 || got.Name != "talk" {
		t.Fatalf("imported session on disk: %d messages, name %q", len(got.Conversation), got.Name)
	}
	code, msg, _ := r.callErr(t, unstable+"session/import", map[string]any{"input": "goose://sessions/nostr?x", "source": "auto"})
	if code != CodeUnavailable || !strings.HasPrefix(msg, "Nostr session sharing is not available in goose-acp") {
		t.Fatalf("nostr import: %d %s", code, msg)
	}
	code, _, _ = r.callErr(t, unstable+"session/import", map[string]any{"input": "{not json", "source": "json"})
	if code != -32602 {
		t.Fatalf("bad import: code %d", code)
	}
}

// An import that fails in storage is an internal error, not the client's
// bad params: only input that is not an exported session is -32602.
func TestImportStorageFailureIsInternal(t *testing.T) {
	r := newDesktopRig(t, nil)
	s := r.seed(t, "talk", r.dir, 1000, 1001)
	var exp struct {
		Data string `json:"data"`
	}
	mustUnmarshal(t, r.call(t, unstable+"session/export", map[string]any{"sessionId": s.ID}), &exp)
	if err := r.store.Close(); err != nil {
		t.Fatal(err)
	}
	code, msg, data := r.callErr(t, unstable+"session/import", map[string]any{"input": exp.Data, "source": "json"})
	if code != -32603 || msg != "Internal error" || !strings.HasPrefix(data, `"could not import session: `) {
		t.Errorf("_goose/unstable/session/import into a closed store: %d %s %s", code, msg, data)
	}
	r.nextID++
	rep := r.callRaw(t, r.nextID, "_goose/session/import", map[string]any{"data": exp.Data})
	if rep.Error == nil || rep.Error.Code != -32603 {
		t.Errorf("_goose/session/import into a closed store: %+v", rep.Error)
	}
	r.nextID++
	if rep := r.callRaw(t, r.nextID, "_goose/session/import", map[string]any{"data": "{not json"}); rep.Error == nil || rep.Error.Code != -32602 {
		t.Errorf("_goose/session/import of bad input: %+v", rep.Error)
	}
}

func TestUnstableWorkingDirAndCostAggregate(t *testing.T) {
	r := newDesktopRig(t, nil)
	other := t.TempDir()
	a := r.seed(t, "a", r.dir, 1000)
	r.seed(t, "b", r.dir, 1000)
	c := r.seed(t, "c", other, 1000)
	cost := 0.25
	if err := r.store.Update(t.Context(), a.ID, session.Update{AccumulatedCost: &cost}); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Projects []struct {
			WorkingDir       string   `json:"workingDir"`
			TotalCost        *float64 `json:"totalCost"`
			SessionCount     int      `json:"sessionCount"`
			SessionsWithCost int      `json:"sessionsWithCost"`
		} `json:"projects"`
	}
	mustUnmarshal(t, r.call(t, unstable+"session/cost/aggregate", map[string]any{}), &out)
	byDir := map[string]int{}
	for i, p := range out.Projects {
		byDir[p.WorkingDir] = i
	}
	mine, theirs := out.Projects[byDir[r.dir]], out.Projects[byDir[other]]
	if len(out.Projects) != 2 || mine.SessionCount != 2 || mine.SessionsWithCost != 1 || mine.TotalCost == nil ||
		*mine.TotalCost != 0.25 || theirs.SessionCount != 1 || theirs.TotalCost != nil {
		t.Fatalf("cost aggregate: %+v", out.Projects)
	}

	r.call(t, unstable+"session/working-dir/update", map[string]any{"sessionId": c.ID, "workingDir": r.dir})
	if got := r.onDisk(t, c.ID); got.WorkingDir != r.dir {
		t.Fatalf("working dir on disk: %q", got.WorkingDir)
	}
}

func mustUnmarshal(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
}
