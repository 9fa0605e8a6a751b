package agent

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/permission"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/memory"
)

// newOpsHarness runs on the real in-memory store (fork, truncate and every
// Update field), not the loop tests' minimal one.
func newOpsHarness(t *testing.T, steps ...step) *harness {
	t.Helper()
	return newHarnessWith(t, nil, func(o *Options) {
		o.Store = memory.New(func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) })
	}, steps...)
}

// Every session operation works on a loaded and on an unloaded session.
func TestSessionOpsLoadedAndUnloaded(t *testing.T) {
	ctx := context.Background()
	for _, loaded := range []bool{true, false} {
		name := map[bool]string{true: "loaded", false: "unloaded"}[loaded]
		t.Run(name, func(t *testing.T) {
			h := newOpsHarness(t, say("hi"))
			h.start(StartOptions{})
			h.reply(ctx, "hello", nil)
			if !loaded {
				if err := h.a.CloseSession(h.id); err != nil {
					t.Fatal(err)
				}
			}
			if err := h.a.Sessions().SetMode(ctx, h.id, "chat"); err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if err := h.a.Sessions().UpdateWorkingDir(ctx, h.id, dir); err != nil {
				t.Fatal(err)
			}
			if err := h.a.Sessions().Rename(ctx, h.id, "Mine"); err != nil {
				t.Fatal(err)
			}
			got, err := h.a.Sessions().Get(ctx, h.id, false)
			if err != nil {
				t.Fatal(err)
			}
			if got.GooseMode != "chat" || got.WorkingDir != dir || got.Name != "Mine" || !got.UserSetName {
				t.Fatalf("stored %+v", got)
			}
			if loaded {
				if m, _ := h.a.Sessions().Mode(h.id); m != permission.Mode("chat") {
					t.Fatalf("live mode %q", m)
				}
			}
			if h.a.Sessions().IsLoaded(h.id) != loaded {
				t.Fatalf("IsLoaded = %v", !loaded)
			}
			if err := h.a.Sessions().Delete(ctx, h.id); err != nil {
				t.Fatal(err)
			}
			if h.a.Sessions().IsLoaded(h.id) {
				t.Fatal("a deleted session stays loaded")
			}
			if _, err := h.a.Sessions().Get(ctx, h.id, false); !errors.Is(err, session.ErrNotFound) {
				t.Fatalf("after delete: %v", err)
			}
		})
	}
}

func TestSessionOpsUnknownSession(t *testing.T) {
	ctx := context.Background()
	h := newOpsHarness(t)
	for name, err := range map[string]error{
		"mode":   h.a.Sessions().SetMode(ctx, "nope", "auto"),
		"dir":    h.a.Sessions().UpdateWorkingDir(ctx, "nope", t.TempDir()),
		"delete": h.a.Sessions().Delete(ctx, "nope"),
	} {
		if !errors.Is(err, session.ErrNotFound) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := h.a.Sessions().Fork(ctx, "nope", ForkOptions{Copy: true}); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("fork: %v", err)
	}
	if err := h.a.Sessions().SetMode(ctx, "nope", "sideways"); err == nil || errors.Is(err, session.ErrNotFound) {
		t.Errorf("a bad mode is reported before the session: %v", err)
	}
	missing := filepath.Join(t.TempDir(), "gone")
	if err := h.a.Sessions().UpdateWorkingDir(ctx, "nope", missing); !errors.Is(err, ErrNotADirectory) {
		t.Errorf("a missing directory is reported before the session: %v", err)
	}
}

func TestRenameLimits(t *testing.T) {
	ctx := context.Background()
	h := newOpsHarness(t)
	h.start(StartOptions{})
	for _, tc := range []struct{ name, want string }{
		{"", "Session name cannot be empty"},
		{strings.Repeat("é", MaxSessionNameLength+1), "Session name too long (max 200 characters)"},
	} {
		err := h.a.Sessions().Rename(ctx, h.id, tc.name)
		if !errors.Is(err, ErrInvalidSessionName) || errkind.Of(err) != errkind.Invalid || errkind.Detail(err) != tc.want {
			t.Errorf("%q: %v (kind %v, detail %q)", tc.name, err, errkind.Of(err), errkind.Detail(err))
		}
	}
	if err := h.a.Sessions().Rename(ctx, h.id, strings.Repeat("é", MaxSessionNameLength)); err != nil {
		t.Fatal(err)
	}
}

// A rename is announced to the session's holders as late titles are,
// once it is stored; a refused or failed one is not.
func TestRenameAnnouncesTheTitle(t *testing.T) {
	ctx := context.Background()
	h := newOpsHarness(t)
	h.start(StartOptions{})
	var got []string
	holder := &titleHolder{got: &got}
	if err := h.a.Sessions().Hold(ctx, h.id, holder); err != nil {
		t.Fatal(err)
	}
	if err := h.a.Sessions().Rename(ctx, h.id, "Mine"); err != nil {
		t.Fatal(err)
	}
	_ = h.a.Sessions().Rename(ctx, h.id, "")
	_ = h.a.Sessions().Rename(ctx, "nope", "Theirs")
	if strings.Join(got, ",") != h.id+"=Mine" {
		t.Errorf("announced %v", got)
	}
	if s, err := h.a.Sessions().Get(ctx, h.id, false); err != nil || s.Name != "Mine" || !s.UserSetName {
		t.Errorf("stored %+v %v", s, err)
	}
}

func TestForkCopyAndTruncate(t *testing.T) {
	ctx := context.Background()
	h := newOpsHarness(t, say("one"), say("two"))
	h.start(StartOptions{})
	h.reply(ctx, "first", nil)
	cut := int64(1) // the user message's second; the scripted reply says 0

	forked, err := h.a.Sessions().Fork(ctx, h.id, ForkOptions{Copy: true, TruncateAt: &cut})
	if err != nil {
		t.Fatal(err)
	}
	if forked.ID == h.id {
		t.Fatal("copy kept the id")
	}
	conv := func(id string) []conversation.Message {
		s, err := h.a.Sessions().Get(ctx, id, true)
		if err != nil {
			t.Fatal(err)
		}
		return withoutTurnContext(s.Conversation)
	}
	if c := conv(forked.ID); len(c) != 1 || c[0].Role != conversation.RoleAssistant {
		t.Fatalf("forked conversation: %+v", c)
	}
	if n := len(conv(h.id)); n != 2 {
		t.Fatalf("the original lost messages: %d", n)
	}
	same, err := h.a.Sessions().Fork(ctx, h.id, ForkOptions{TruncateAt: &cut})
	if err != nil || same.ID != h.id || len(conv(h.id)) != 1 {
		t.Fatalf("truncate in place: %v %s %d", err, same.ID, len(conv(h.id)))
	}
}

func TestStartRecordsRecipeAndSchedule(t *testing.T) {
	ctx := context.Background()
	h := newOpsHarness(t)
	rec, err := recipe.FromContent("title: T\ndescription: D\nprompt: P\nparameters:\n  - key: who\n    input_type: string\n    requirement: required\n    description: w\ninstructions: hi {{ who }}\n")
	if err != nil {
		t.Fatal(err)
	}
	opts := StartOptions{Name: "N", ScheduleID: "job"}
	opts.UseRecipe(rec, []recipe.Param{{Key: "who", Value: "bob"}})
	h.start(opts)
	got, err := h.a.Sessions().Get(ctx, h.id, false)
	if err != nil {
		t.Fatal(err)
	}
	if got.ScheduleID == nil || *got.ScheduleID != "job" || !got.UserSetName || got.UserRecipeValues["who"] != "bob" {
		t.Fatalf("stored %+v", got)
	}
	if !strings.Contains(string(got.Recipe), `"title":"T"`) {
		t.Fatalf("recipe %s", got.Recipe)
	}
	// Values change the rendering.
	out, err := h.a.Recipes().SetValues(ctx, h.id, map[string]string{"who": "ann"})
	if err != nil || out.Instructions == nil || *out.Instructions != "hi ann" {
		t.Fatalf("rendered %v %v", out, err)
	}
}

func TestSetRecipeValuesWithoutRecipe(t *testing.T) {
	h := newOpsHarness(t)
	h.start(StartOptions{})
	_, err := h.a.Recipes().SetValues(context.Background(), h.id, map[string]string{})
	if !errors.Is(err, ErrNoRecipe) || errkind.Of(err) != errkind.NotFound || errkind.Detail(err) != "Session "+h.id+" has no recipe" {
		t.Fatalf("%v (kind %v, detail %q)", err, errkind.Of(err), errkind.Detail(err))
	}
}

type titleHolder struct{ got *[]string }

func (h *titleHolder) SessionEvent(id string, ev Event) {
	if t, ok := ev.(TitleEvent); ok {
		*h.got = append(*h.got, id+"="+t.Title)
	}
}
