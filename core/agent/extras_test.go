package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
)

func TestLargeToolOutputGoesToFile(t *testing.T) {
	h := newHarness(t, nil, calls(call("b", "tt__big", nil)), say("ok"))
	h.start(StartOptions{})
	h.reply(context.Background(), "go", nil)
	text := h.store.conversationOf(h.id)[2].ToolResponses()[0].ToolResult.Value.Content[0].Text
	prefix := "The response returned from the tool call was larger (200001 characters) and is stored in the file which you can use other tools to examine or search in: "
	if !strings.HasPrefix(text, prefix) {
		t.Fatalf("text = %.200q", text)
	}
	path := strings.TrimPrefix(text, prefix)
	if filepath.Base(path) != "mcp_response_20260102_030405.000000.txt" || filepath.Base(filepath.Dir(path)) != "goose_mcp_responses" {
		t.Fatalf("path = %s", path)
	}
	if st, err := os.Stat(path); err != nil || st.Size() != LargeResponseLimit+1 {
		t.Fatalf("file: %v %v", st, err)
	}
}

func TestSessionTitle(t *testing.T) {
	cfg := mapConfig{"GOOSE_DISABLE_SESSION_NAMING": "false"}
	h := newHarness(t, cfg, say("hi"))
	h.prov.complete = func(req provider.Request) (conversation.Message, error) {
		if !strings.Contains(req.Messages[0].AsText(), "plan a trip") {
			t.Errorf("naming request = %q", req.Messages[0].AsText())
		}
		return conversation.AssistantText(0, "\"Trip planning\"\n"), nil
	}
	holder := &recordingHolder{}
	h.start(StartOptions{Holder: holder})
	_, evs := h.reply(context.Background(), "plan a trip", nil)
	h.a.Wait()
	got := ""
	for _, e := range evs {
		if te, ok := e.(TitleEvent); ok {
			got = te.Title
		}
	}
	// The generated title reaches the face either as the turn's last
	// TitleEvent or, when naming ends after the turn (the provisional
	// first-message title was then the turn's last), as an event to the
	// session's holders.
	for _, ev := range holder.got() {
		if ev == h.id+":"+"Trip planning" {
			got = "Trip planning"
		}
	}
	if got != "Trip planning" {
		t.Fatalf("title = %q (events %v, holder %v)", got, evs, holder.got())
	}
	s, _ := h.store.Get(context.Background(), h.id, false)
	if s.Name != "Trip planning" {
		t.Fatalf("stored name = %q", s.Name)
	}
}

func TestUserNamedSessionIsNotRenamed(t *testing.T) {
	h := newHarness(t, mapConfig{"GOOSE_DISABLE_SESSION_NAMING": "false"}, say("hi"))
	h.start(StartOptions{Name: "Mine"})
	h.reply(context.Background(), "hello", nil)
	h.a.Wait()
	if s, _ := h.store.Get(context.Background(), h.id, false); s.Name != "Mine" {
		t.Fatalf("name = %q", s.Name)
	}
	for _, r := range h.prov.completes {
		if strings.Contains(r.System, SessionNamePrompt) {
			t.Fatal("asked the provider for a name")
		}
	}
}

func TestResumeRestoresExtensionsAndMode(t *testing.T) {
	h := newHarness(t, mapConfig{"GOOSE_MODE": "approve"}, say("a"))
	h.start(StartOptions{})
	if err := h.a.Sessions().SetMode(context.Background(), h.id, "chat"); err != nil {
		t.Fatal(err)
	}
	if err := h.a.CloseSession(h.id); err != nil {
		t.Fatal(err)
	}
	_, res, err := h.a.ResumeSession(context.Background(), h.id, StartOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Name != "tt" || !res[0].Success {
		t.Fatalf("results = %+v", res)
	}
	if m, _ := h.a.Sessions().Mode(h.id); m != "chat" {
		t.Fatalf("mode = %s", m)
	}
	tools, _ := h.a.Extensions().Tools(context.Background(), h.id, "tt")
	if len(tools) == 0 {
		t.Fatal("extension not reconnected")
	}
}

func TestExtensionLoadFailureIsReported(t *testing.T) {
	h := newHarness(t, nil)
	sess, res, err := h.a.StartSession(context.Background(), StartOptions{WorkingDir: t.TempDir(), Extensions: []config.ExtensionConfig{
		{Type: config.ExtensionStdio, Name: "broken", Cmd: "/nonexistent/binary"},
		{Type: config.ExtensionBuiltin, Name: "tt"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Success || res[0].Error == "" || !res[1].Success {
		t.Fatalf("results = %+v", res)
	}
	if tools, _ := h.a.Extensions().Tools(context.Background(), sess.ID, ""); len(tools) == 0 {
		t.Fatal("working extension lost")
	}
}

func TestTodoPlatformFeedsMOIM(t *testing.T) {
	h := newHarness(t, nil, calls(call("t", "todo__todo_write", map[string]any{"content": "- [ ] ship"})), say("ok"))
	h.start(StartOptions{Extensions: []config.ExtensionConfig{{Type: config.ExtensionPlatform, Name: "todo"}}})
	h.reply(context.Background(), "go", nil)
	if got := h.store.conversationOf(h.id)[2].ToolResponses()[0].ToolResult.Value.Content[0].Text; got != "Updated (10 chars)" {
		t.Fatalf("todo_write = %q", got)
	}
	first := h.prov.request(0).Messages[0].AsText()
	if !strings.Contains(first, "Current tasks and notes:\nOnce given a task, immediately update your todo with all explicit and implicit requirements\n") {
		t.Fatalf("first MOIM = %q", first)
	}
	if todo, err := h.a.Extensions().Todo(context.Background(), h.id); err != nil || todo != "- [ ] ship" {
		t.Fatalf("Todo = %q %v", todo, err)
	}
	second := h.prov.request(1)
	found := false
	for _, m := range second.Messages {
		found = found || strings.Contains(m.AsText(), "Current tasks and notes:\n- [ ] ship\n")
	}
	if !found {
		t.Fatal("second request lacks the todo in its MOIM")
	}
}

func TestExtensionManagerPlatform(t *testing.T) {
	cfg := mapConfig{"extensions": map[string]any{
		"tt":               map[string]any{"enabled": false, "type": "builtin", "name": "tt", "description": "test tools"},
		"todo":             map[string]any{"enabled": false, "type": "platform", "name": "todo"},
		"extensionmanager": map[string]any{"enabled": true, "type": "platform", "name": "extensionmanager"},
	}}
	h := newHarness(t, cfg,
		calls(call("s", "extensionmanager__search_available_extensions", nil)),
		calls(call("m", "extensionmanager__manage_extensions", map[string]any{"action": "enable", "extension_name": "tt"})),
		calls(call("e", "tt__echo", nil)),
		say("done"))
	sess, res, err := h.a.StartSession(context.Background(), StartOptions{WorkingDir: t.TempDir(), UseConfiguredExtensions: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Name != "extensionmanager" || !res[0].Success {
		t.Fatalf("results = %+v", res)
	}
	h.id = sess.ID
	h.reply(context.Background(), "find tools", nil)
	conv := h.store.conversationOf(h.id)
	search := conv[2].ToolResponses()[0].ToolResult.Value.Content[0].Text
	if !strings.Contains(search, "- tt - test tools") {
		t.Fatalf("search = %q", search)
	}
	if got := conv[4].ToolResponses()[0].ToolResult.Value.Content[0].Text; got != "The extension 'tt' has been installed successfully" {
		t.Fatalf("manage = %q", got)
	}
	if got := conv[6].ToolResponses()[0].ToolResult.Value.Content[0].Text; !strings.HasPrefix(got, "echo:") {
		t.Fatalf("enabled tool = %q", got)
	}
	// The third request offered the new tool, and the state was saved.
	found := false
	for _, tool := range h.prov.request(2).Tools {
		found = found || tool.Name == "tt__echo"
	}
	if !found {
		t.Fatal("tools not rebuilt after enabling")
	}
	s, _ := h.store.Get(context.Background(), h.id, false)
	if !strings.Contains(string(s.ExtensionData[EnabledExtensionsKey]), `"name":"tt"`) {
		t.Fatalf("saved extensions = %s", s.ExtensionData[EnabledExtensionsKey])
	}
}

func TestManageExtensionsAlwaysAsksInApprove(t *testing.T) {
	h := newHarness(t, mapConfig{"GOOSE_MODE": "smart_approve"},
		calls(call("m", "extensionmanager__manage_extensions", map[string]any{"action": "disable", "extension_name": "tt"})), say("ok"))
	h.start(StartOptions{Extensions: []config.ExtensionConfig{{Type: config.ExtensionPlatform, Name: "extensionmanager"}}})
	var prompt *string
	h.reply(context.Background(), "go", func(e Event) {
		if m, ok := e.(MessageEvent); ok {
			if d := confirmation(m.Message); d != nil {
				prompt = d.Prompt
				_ = h.a.Confirm(h.id, d.ID, "allow_once")
			}
		}
	})
	if prompt == nil || *prompt != "Extension management requires approval for security" {
		t.Fatalf("prompt = %v", prompt)
	}
	if h.a.sessions[h.id].mgr.Has("tt") {
		t.Fatal("extension not disabled")
	}
}

var _ = time.Second
