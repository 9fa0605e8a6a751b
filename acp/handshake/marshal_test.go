package handshake

import (
	"bytes"
	"encoding/json"
	"testing"
)

// plainResponse is InitializeResponse without its MarshalJSON:
// encoding/json's own encoding, the reference.
type plainResponse InitializeResponse

func sameEncoding(t *testing.T, name string, r InitializeResponse) {
	t.Helper()
	want, err := json.Marshal(plainResponse(r))
	if err != nil {
		t.Fatal(err)
	}
	direct, err := r.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	through, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(direct, want) || !bytes.Equal(through, want) {
		t.Errorf("%s:\nMarshalJSON   %s\njson.Marshal  %s\nencoding/json %s", name, direct, through, want)
	}
}

func TestInitializeResponseEncodesAsEncodingJSON(t *testing.T) {
	odd := "<&>\u2028\u2029\"\\\x00\xff é"
	for _, caps := range []ClientCapabilities{
		{},
		{Auth: AuthCapabilities{Terminal: true}},
		{Meta: Meta{"terminal-auth": true}},
		{Auth: AuthCapabilities{Terminal: true}, Meta: Meta{"terminal-auth": true}},
	} {
		for _, a := range []Agent{{}, {Version: "v0.4.0", Command: "/usr/local/bin/goose-acp"}, {Version: odd, Command: odd}} {
			for _, v := range []int{-1, 0, 1, 2} {
				sameEncoding(t, "Answer", Answer(InitializeRequest{ProtocolVersion: v, ClientCapabilities: caps}, a))
			}
		}
	}
	full := Answer(InitializeRequest{ProtocolVersion: 1}, Agent{Version: "1"})
	sameEncoding(t, "no auth methods", InitializeResponse{})
	sameEncoding(t, "empty auth methods", InitializeResponse{AuthMethods: []AuthMethod{}, Meta: Meta{}})
	sameEncoding(t, "every auth method field", InitializeResponse{AuthMethods: []AuthMethod{
		{Type: "env_var", ID: "x", Name: odd, Description: odd, Args: []string{"a", odd}, Env: map[string]string{"B": "1", "A": odd}, Meta: Meta{"k": []any{1.5, nil, "s"}}},
		{ID: "", Name: "", Args: []string{}, Env: map[string]string{}},
	}})
	partial := full
	partial.AgentCapabilities.SessionCapabilities = SessionCapabilities{Fork: &struct{}{}, Archive: &struct{}{}}
	partial.AgentCapabilities.Meta = nil
	partial.AgentInfo = &Implementation{Name: odd, Version: odd}
	sameEncoding(t, "some session capabilities", partial)
	partial.AgentCapabilities = AgentCapabilities{LoadSession: true, PromptCapabilities: PromptCapabilities{Audio: true}, MCPCapabilities: MCPCapabilities{SSE: true}}
	partial.AgentInfo = nil
	sameEncoding(t, "no session capabilities", partial)
}

// The answer Zed gets, byte for byte (what firstframe and the server write).
func TestZedAnswer(t *testing.T) {
	var req InitializeRequest
	if err := json.Unmarshal(requestCorpus(t)[0], &req); err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(Answer(req, Agent{Version: "v1.2.3", Command: "/opt/goose-acp"}))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"promptCapabilities":{"image":true,"audio":false,"embeddedContext":true},` +
		`"mcpCapabilities":{"http":true,"sse":true},"sessionCapabilities":{"list":{},"resume":{},"close":{},"delete":{},"fork":{},"additionalDirectories":{},"title":{},"archive":{}},` +
		`"_meta":{"goose":{"emptyExtensionSelection":{},"recipeParameterScopes":{}}}},` +
		`"authMethods":[{"id":"goose-provider","name":"Configure Provider","description":"Run ` + "`goose-acp configure`" + ` in a terminal to choose a provider, API key and model, or start goose-acp with OPENAI_API_KEY, ANTHROPIC_API_KEY or GOOGLE_API_KEY set; then authenticate re-checks."},` +
		`{"type":"terminal","id":"goose-acp-configure","name":"Configure in terminal","description":"Runs ` + "`goose-acp configure`" + `: pick a provider, enter its API key and choose a model.","args":["configure"],` +
		`"_meta":{"terminal-auth":{"args":["configure"],"command":"/opt/goose-acp","label":"goose-acp configure"}}}],` +
		`"agentInfo":{"name":"goose-acp","title":"goose","version":"v1.2.3"},"_meta":{"steering":{"supported":true}}}`
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
