package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/internal/npmtest"
)

// everythingServers is the harness's MCP_SERVERS: the real
// @modelcontextprotocol/server-everything over stdio.
func everythingServers(t *testing.T) string {
	t.Helper()
	b, _ := json.Marshal([]map[string]any{{"name": "everything", "command": "node", "args": []string{everythingEntry(t)}, "env": []any{}}})
	return "MCP_SERVERS=" + string(b)
}

// offeredTools lists the tool names of the i-th model request.
func offeredTools(t *testing.T, env *agentEnv, i int) string {
	t.Helper()
	var body struct {
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(env.LLM.Requests()[i].Body, &body); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range body.Tools {
		names = append(names, tl.Function.Name)
	}
	return strings.Join(names, " ")
}

// Elicitation as it stands, pinned with the SDK client: a client taking
// forms gets the real MCP server's form-mode question as elicitation/create
// (this exact request) and its answer reaches the server and the model;
// the server never hears that we take URL mode, so it offers no URL flow.
func TestElicitationFormModePinned(t *testing.T) {
	env := newAgentEnv(t, toolCallTurn("call_form", "everything__trigger-elicitation-request", map[string]any{}), textTurn("thanks"))
	r := runACP24With(t, env, t.TempDir(), `{"elicitation":{"form":{}}}`, []string{everythingServers(t)}, "elicit")
	var sid string
	r.field(t, "elicitSession", &sid)
	if len(r.Elicitations) != 1 {
		t.Fatalf("elicitation/create requests: %s", r.Elicitations)
	}
	var got map[string]any
	_ = json.Unmarshal(r.Elicitations[0], &got)
	schema, _ := json.Marshal(got["requestedSchema"])
	if got["sessionId"] != sid || got["mode"] != "form" || got["message"] != "Please provide inputs for the following fields:" || len(got) != 4 ||
		!strings.Contains(string(schema), `"email"`) {
		t.Errorf("elicitation/create %s", r.Elicitations[0])
	}
	if !llmSaw(env, "Ada Lovelace") {
		t.Error("the form's answer did not reach the server and the model")
	}
	if tools := offeredTools(t, env, 0); !strings.Contains(tools, "everything__trigger-elicitation-request") || strings.Contains(tools, "url-elicitation") {
		t.Errorf("tools offered to a form-only client's session: %s", tools)
	}
}

// A client that advertises only URL-mode elicitation is never sent a form:
// the form-mode question is declined at once (the tool goes on), and the
// server's URL-mode question reaches it as a URL-mode elicitation/create
// (the server offers its URL tool because we said we take URL mode).
func TestElicitationURLOnlyClientGetsURLModeOrADecline(t *testing.T) {
	env := newAgentEnv(t,
		toolCallTurn("call_form", "everything__trigger-elicitation-request", map[string]any{}), textTurn("no form"),
		toolCallTurn("call_url", "everything__trigger-url-elicitation", map[string]any{
			"url": "https://example.com/connect", "message": "Connect your account", "elicitationId": "el-42"}),
		textTurn("connected"))
	r := runACP24With(t, env, t.TempDir(), `{"elicitation":{"url":{}}}`, []string{everythingServers(t), "SECOND_PROMPT=connect"}, "elicit")
	var sid string
	r.field(t, "elicitSession", &sid)
	if len(r.Elicitations) != 1 {
		t.Fatalf("elicitation/create requests (want only the URL one): %s", r.Elicitations)
	}
	want := `{"sessionId":"` + sid + `","mode":"url","message":"Connect your account","url":"https://example.com/connect","elicitationId":"el-42"}`
	if !jsonSame(string(r.Elicitations[0]), want) {
		t.Errorf("elicitation/create\n got %s\nwant %s", r.Elicitations[0], want)
	}
	if !llmSaw(env, "User declined") && !llmSaw(env, "declined") {
		t.Error("the form question was not declined")
	}
	if !llmSaw(env, "User completed the URL elicitation flow") {
		t.Error("the URL answer did not reach the server and the model")
	}
	if tools := offeredTools(t, env, 0); !strings.Contains(tools, "everything__trigger-url-elicitation") {
		t.Errorf("the server offered no URL flow: %s", tools)
	}
}

// jsonSame compares two JSON texts as values.
func jsonSame(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}

// urlFlowServers is MCP_SERVERS with e2e/mcpeverything/url_flow_server.mjs.
func urlFlowServers(t *testing.T) string {
	t.Helper()
	dir := npmtest.Install(t, "mcpeverything")
	b, _ := json.Marshal([]map[string]any{{"name": "urlflow", "command": "node", "args": []string{filepath.Join(dir, "url_flow_server.mjs")}, "env": []any{}}})
	return "MCP_SERVERS=" + string(b)
}

// A URL-mode flow's end: the server's notifications/elicitation/complete
// reaches a URL-taking client as elicitation/complete with the flow's id.
// A client that takes only forms never sees the URL question: it is
// declined in core, since we never told the server we take URL mode.
func TestElicitationURLFlowCompletes(t *testing.T) {
	t.Run("url client", func(t *testing.T) {
		env := newAgentEnv(t, toolCallTurn("call_c", "urlflow__connect", map[string]any{}), textTurn("done"))
		r := runACP24With(t, env, t.TempDir(), `{"elicitation":{"url":{}}}`, []string{urlFlowServers(t)}, "elicit")
		var sid string
		r.field(t, "elicitSession", &sid)
		want := `{"sessionId":"` + sid + `","mode":"url","message":"Sign in to Example","url":"https://example.com/oauth","elicitationId":"flow-7"}`
		if len(r.Elicitations) != 1 || !jsonSame(string(r.Elicitations[0]), want) {
			t.Errorf("elicitation/create %s\nwant %s", r.Elicitations, want)
		}
		if got := string(r.Report["completed"]); got != `[{"elicitationId":"flow-7"}]` {
			t.Errorf("elicitation/complete %s", got)
		}
		if !llmSaw(env, "connect: accept") {
			t.Error("the flow's answer did not reach the model")
		}
	})
	t.Run("form client", func(t *testing.T) {
		env := newAgentEnv(t, toolCallTurn("call_c", "urlflow__connect", map[string]any{}), textTurn("done"))
		r := runACP24With(t, env, t.TempDir(), `{"elicitation":{"form":{}}}`, []string{urlFlowServers(t)}, "elicit")
		if len(r.Elicitations) != 0 || string(r.Report["completed"]) != `[]` {
			t.Errorf("a form-only client was asked %s / told %s", r.Elicitations, r.Report["completed"])
		}
		if llmSaw(env, "connect: accept") {
			t.Error("accepted without asking")
		}
	})
}
