package e2e

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/acp"
)

// Zed's non-file mentions (crates/acp_thread/src/mention.rs): a terminal
// selection is zed:///agent/terminal-selection?lines=N named "Terminal (N
// lines)"; a fetch mention is the http(s) URL itself.
var (
	zedTerminal = acp.ContentBlock{Type: "resource_link", Name: "Terminal (3 lines)", URI: "zed:///agent/terminal-selection?lines=3"}
	webLink     = acp.ContentBlock{Type: "resource_link", Name: "docs", URI: "https://docs.example.invalid/guide"}
	customLink  = acp.ContentBlock{Type: "resource_link", Name: "ticket", URI: "jira:PROJ-7"}

	zedNote    = "[Terminal (3 lines)](zed:///agent/terminal-selection?lines=3) was not attached: goose-acp cannot open zed:// links, so its content is not available"
	webNote    = "[docs](https://docs.example.invalid/guide) was not attached: http(s) links are not fetched (set GOOSE_ACP_FETCH_LINKS=true to allow it)"
	customNote = "[ticket](jira:PROJ-7) was not attached: goose-acp cannot open jira: links, so its content is not available"
)

// sentUserText is the text of the last user message the model got: goose
// appends its <turn-context> after it and joins the message's text items
// with "\n".
func sentUserText(t *testing.T, env *agentEnv) string {
	t.Helper()
	reqs := env.LLM.Requests()
	var body struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(reqs[len(reqs)-1].Body, &body); err != nil {
		t.Fatal(err)
	}
	last := body.Messages[len(body.Messages)-1]
	text, _, _ := strings.Cut(last.Content, "\n<turn-context>\n")
	return text
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestNonFileLinksAreNotedForModelAndUser: links goose-acp
// cannot open reach the model as a note saying what was attached and why
// its content is missing, and the user is told the same in an
// agent_message_chunk before the reply — as for a file link the path
// policy refused.
func TestNonFileLinksAreNotedForModelAndUser(t *testing.T) {
	env := newAgentEnv(t, textTurn("ok"))
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	work := t.TempDir()
	secret := filepath.Join(work, ".env")
	os.WriteFile(secret, []byte("KEY=sk-should-not-leak"), 0o600)
	envNote := "[.env](file://" + secret + ") was not attached: Access to '" + secret + "' is restricted by .gooseignore"
	sess := c.newSession(work)
	n := len(c.updatesOf(sess.SessionID))
	c.promptBlocks(sess.SessionID, acp.ContentBlock{Type: "text", Text: "look"}, zedTerminal, webLink, customLink,
		acp.ContentBlock{Type: "resource_link", Name: ".env", URI: "file://" + secret})
	if got, want := sentUserText(t, env), "look\n"+zedNote+"\n"+webNote+"\n"+customNote+"\n"+envNote; got != want {
		t.Errorf("the model got %s\nwant %s", got, want)
	}
	var chunks []string
	for _, u := range c.updatesOf(sess.SessionID)[n:] {
		if u.SessionUpdate == acp.UpdateAgentMessageChunk {
			chunks = append(chunks, jsonOf(u.Content))
		}
	}
	want := []string{
		jsonOf(acp.ContentBlock{Type: "text", Text: zedNote + "\n\n"}),
		jsonOf(acp.ContentBlock{Type: "text", Text: webNote + "\n\n"}),
		jsonOf(acp.ContentBlock{Type: "text", Text: customNote + "\n\n"}),
		jsonOf(acp.ContentBlock{Type: "text", Text: envNote + "\n\n"}),
		`{"type":"text","text":"ok"}`,
	}
	if jsonOf(chunks) != jsonOf(want) {
		t.Errorf("agent_message_chunk contents:\n%s\nwant\n%s", chunks, want)
	}
}

// TestLinkNotesAreNoticesWhenAdvertised: a client advertising
// session.notices gets each note as a warning notice instead.
func TestLinkNotesAreNoticesWhenAdvertised(t *testing.T) {
	env := newAgentEnv(t, textTurn("ok"))
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{Session: &acp.ClientSessionCapabilities{Notices: rawJSON(`{}`)}})
	sess := c.newSession(t.TempDir())
	c.promptBlocks(sess.SessionID, acp.ContentBlock{Type: "text", Text: "look"}, zedTerminal)
	var notices []string
	for _, u := range c.updatesOf(sess.SessionID) {
		if u.SessionUpdate == acp.UpdateNotice {
			notices = append(notices, jsonOf(u))
		}
	}
	want := `{"sessionUpdate":"notice","title":"` + acp.LinkNoticeTitle + `","severity":"warning","description":` + jsonOf(zedNote) + `}`
	if len(notices) != 1 || notices[0] != want {
		t.Errorf("notices = %s\nwant %s", notices, want)
	}
	if got := c.agentText(sess.SessionID); got != "ok" {
		t.Errorf("agent text = %q (the note went to the notice)", got)
	}
}

// TestFetchedLinkWhenAllowed: with GOOSE_ACP_FETCH_LINKS=true an http(s)
// link's text is fetched and attached like a file; the user gets no note.
func TestFetchedLinkWhenAllowed(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/markdown")
		w.Write([]byte("# Guide\nstep one"))
	}))
	defer site.Close()
	env := newAgentEnv(t, textTurn("ok"))
	env.Vars["GOOSE_ACP_FETCH_LINKS"] = "true"
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(t.TempDir())
	c.promptBlocks(sess.SessionID, acp.ContentBlock{Type: "text", Text: "read"},
		acp.ContentBlock{Type: "resource_link", Name: "guide", URI: site.URL + "/guide"})
	if got, want := sentUserText(t, env), "read\n\n\n# "+site.URL+"/guide\n```\n# Guide\nstep one\n```"; got != want {
		t.Errorf("the model got %s\nwant %s", got, want)
	}
	if got := c.agentText(sess.SessionID); got != "ok" {
		t.Errorf("agent text = %q", got)
	}
}
