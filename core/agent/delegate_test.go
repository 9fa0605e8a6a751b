package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/extension/platform"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/openai"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/session"
)

// delegateEnv runs the agent against OpenAI-format mock servers, one per
// provider name ("openai" is the parent's), and records each provider
// the agent builds as "name/model".
type delegateEnv struct {
	*harness
	servers map[string]*providertest.Server
	mu      sync.Mutex
	built   []string
	// gate, when set, wraps every provider built for a subagent.
	gate func(provider.Provider) provider.Provider
}

func newDelegateEnv(t *testing.T, cfg mapConfig, env map[string]string, scripts map[string][]providertest.Turn) *delegateEnv {
	t.Helper()
	d := &delegateEnv{servers: map[string]*providertest.Server{}}
	for name, turns := range scripts {
		srv := providertest.Start(providertest.OpenAI, providertest.NewScript(turns...))
		t.Cleanup(srv.Close)
		d.servers[name] = srv
	}
	if cfg == nil {
		cfg = mapConfig{}
	}
	cfg["GOOSE_MODE"] = "auto"
	d.harness = newHarnessWith(t, cfg, func(o *Options) {
		o.Getenv = func(k string) string { return env[k] }
		o.Providers = func(_ context.Context, name string, mc model.Config) (provider.Provider, error) {
			if name == "" {
				name = "openai"
			}
			srv, ok := d.servers[name]
			if !ok {
				return nil, fmt.Errorf("Unknown provider: %s", name)
			}
			if mc.ModelName == "" {
				mc.ModelName = name + "-default"
			}
			d.mu.Lock()
			d.built = append(d.built, name+"/"+mc.ModelName)
			first := len(d.built) == 1
			d.mu.Unlock()
			p, err := openai.New(openai.Options{Metadata: provider.Metadata{Name: name}, Host: srv.URL, APIKey: "k",
				Model: mc, HTTPClient: srv.Client(), Now: func() time.Time { return time.Unix(1, 0) }})
			if err == nil && !first && d.gate != nil {
				return d.gate(p), nil
			}
			return p, err
		}
	})
	return d
}

func (d *delegateEnv) startWithSummon(wd string) {
	d.start(StartOptions{WorkingDir: wd, Extensions: []config.ExtensionConfig{{Type: config.ExtensionPlatform, Name: platform.Summon}}})
}

func delegateCall(id string, args string) providertest.Turn {
	return providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: id, Name: "delegate", Arguments: args}}}
}

func finalOutput(id, summary string) providertest.Turn {
	out, _ := json.Marshal(map[string]string{"summary": summary})
	args, _ := json.Marshal(map[string]string{"final_output": string(out)})
	return providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: id, Name: FinalOutputToolName, Arguments: string(args)}}}
}

// toolResultText is the text of the parent's tool response to callID.
func (d *delegateEnv) toolResult(callID string) conversation.CallToolResult {
	d.t.Helper()
	for _, m := range d.store.conversationOf(d.id) {
		for _, r := range m.ToolResponses() {
			if r.ID == callID && r.ToolResult.IsOK() {
				return *r.ToolResult.Value
			}
		}
	}
	d.t.Fatalf("no tool response for %s", callID)
	return conversation.CallToolResult{}
}

func (d *delegateEnv) children() []session.Session {
	var out []session.Session
	d.store.mu.Lock()
	defer d.store.mu.Unlock()
	for _, s := range d.store.sessions {
		if s.SessionType == session.TypeSubAgent {
			out = append(out, *s)
		}
	}
	return out
}

func TestDelegateAdHocRunsASubagentAndTheParentReadsItsSummary(t *testing.T) {
	d := newDelegateEnv(t, nil, nil, map[string][]providertest.Turn{"openai": {
		delegateCall("call_d", `{"instructions":"Count the Go files"}`),
		{ToolCalls: []providertest.ToolCall{{ID: "c_load", Name: "load", Arguments: `{}`}}},
		finalOutput("c_final", "3 Go files"),
		{Text: []string{"There are 3."}},
	}})
	d.startWithSummon(t.TempDir())
	var progress []string
	out, _ := d.reply(context.Background(), "how many go files?", func(e Event) {
		if n, ok := e.(NotificationEvent); ok && n.Extension == platform.Summon && n.RequestID == "call_d" {
			var p struct{ Message string }
			_ = json.Unmarshal(n.Params, &p)
			progress = append(progress, p.Message)
		}
	})
	if out.StopReason != EndTurn {
		t.Fatalf("stop = %v %v", out.StopReason, out.Err)
	}
	kids := d.children()
	if len(kids) != 1 {
		t.Fatalf("%d subagent sessions", len(kids))
	}
	child := kids[0]
	if ParentSessionID(child) != d.id || child.Name != DelegateSessionName || child.GooseMode != "auto" {
		t.Fatalf("child = parent %q name %q mode %q", ParentSessionID(child), child.Name, child.GooseMode)
	}
	if child.ParentSessionID == nil || *child.ParentSessionID != d.id || child.ExtensionData[SubagentParentKey] != nil {
		t.Fatalf("parent not in parent_session_id: %v, extension data %v", child.ParentSessionID, child.ExtensionData)
	}
	if _, err := d.a.session(child.ID); err == nil {
		t.Fatal("the subagent session is still loaded after it finished")
	}
	res := d.toolResult("call_d")
	want := fmt.Sprintf(`Subagent %s completed: {"summary":"3 Go files"}`, child.ID)
	if res.IsError || res.Content[0].Text != want || res.Meta["subagent_session_id"] != child.ID {
		t.Fatalf("delegate result = %+v", res)
	}
	reqs := d.servers["openai"].Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests", len(reqs))
	}
	childReq := string(reqs[1].Body)
	if !strings.Contains(childReq, `Subagent ID: `+child.ID+`\n\nCount the Go files`) || !strings.Contains(childReq, `"name":"final_output"`) ||
		!strings.Contains(childReq, `"required": [\n    \"summary\"\n  ]`) && !strings.Contains(childReq, `summary`) {
		t.Fatalf("child request: %.600s", childReq)
	}
	if !strings.Contains(childReq, `"load"`) || strings.Contains(childReq, `"delegate"`) {
		t.Fatal("a subagent must have load but not delegate (no nested delegation)")
	}
	// The parent's next LLM request carries the summary.
	if !strings.Contains(string(reqs[3].Body), `completed: {\"summary\":\"3 Go files\"}`) {
		t.Fatalf("parent's follow-up request lacks the summary: %.800s", reqs[3].Body)
	}
	if len(progress) < 2 || !strings.HasPrefix(progress[0], "Running subagent "+child.ID+" (Count the Go files)") ||
		!strings.Contains(progress[len(progress)-1], "\n• Load\n") {
		t.Fatalf("progress = %q", progress)
	}
}

func TestDelegateFromRecipeAndAgentSources(t *testing.T) {
	wd := t.TempDir()
	writeTestFile(t, filepath.Join(wd, ".goose/recipes/review.yaml"), `version: 1.0.0
title: Review
description: Review a topic
instructions: You review {{ topic }} code.
prompt: Review the {{ topic }} package.
parameters:
  - key: topic
    input_type: string
    requirement: required
    description: what
`)
	writeTestFile(t, filepath.Join(wd, ".claude/agents/critic.md"), "---\nname: critic\ndescription: A harsh critic\n---\nYou are a harsh critic.")
	d := newDelegateEnv(t, nil, nil, map[string][]providertest.Turn{"openai": {
		delegateCall("call_r", `{"source":"review","parameters":{"topic":"http"},"instructions":"Focus on errors."}`),
		finalOutput("f1", "reviewed"),
		delegateCall("call_a", `{"source":"critic"}`),
		finalOutput("f2", "criticised"),
		{Text: []string{"done"}},
	}})
	d.startWithSummon(wd)
	if out, _ := d.reply(context.Background(), "review", nil); out.StopReason != EndTurn {
		t.Fatalf("stop = %v %v", out.StopReason, out.Err)
	}
	reqs := d.servers["openai"].Requests()
	recipeReq, agentReq := string(reqs[1].Body), string(reqs[3].Body)
	if !strings.Contains(recipeReq, "You review http code.") || !strings.Contains(recipeReq, `Review the http package.\n\nFocus on errors.`) {
		t.Fatalf("recipe subagent request: %.800s", recipeReq)
	}
	if !strings.Contains(agentReq, "You are a harsh critic.") || !strings.Contains(agentReq, agentDefaultPrompt) {
		t.Fatalf("agent subagent request: %.800s", agentReq)
	}
	if r := d.toolResult("call_a"); !strings.HasSuffix(r.Content[0].Text, `completed: {"summary":"criticised"}`) {
		t.Fatalf("agent result = %+v", r)
	}
}

// gatedProvider holds every stream until n subagents are streaming at
// once, so only parallel delegates get through.
type gatedProvider struct {
	provider.Provider
	gate *countGate
}

type countGate struct {
	mu      sync.Mutex
	arrived int
	need    int
	open    chan struct{}
}

func (g *gatedProvider) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Chunk, error] {
	g.gate.mu.Lock()
	g.gate.arrived++
	if g.gate.arrived == g.gate.need {
		close(g.gate.open)
	}
	g.gate.mu.Unlock()
	select {
	case <-g.gate.open:
	case <-time.After(5 * time.Second):
		return func(yield func(provider.Chunk, error) bool) {
			yield(provider.Chunk{}, fmt.Errorf("delegates did not run in parallel"))
		}
	}
	return g.Provider.Stream(ctx, req)
}

func TestTwoDelegatesInOneMessageRunInParallel(t *testing.T) {
	d := newDelegateEnv(t, nil, nil, map[string][]providertest.Turn{
		"openai": {{ToolCalls: []providertest.ToolCall{
			{ID: "d1", Name: "delegate", Arguments: `{"instructions":"one","provider":"alpha"}`},
			{ID: "d2", Name: "delegate", Arguments: `{"instructions":"two","provider":"beta"}`},
		}}, {Text: []string{"both"}}},
		"alpha": {finalOutput("fa", "from alpha")},
		"beta":  {finalOutput("fb", "from beta")},
	})
	g := &countGate{need: 2, open: make(chan struct{})}
	d.gate = func(p provider.Provider) provider.Provider { return &gatedProvider{Provider: p, gate: g} }
	d.startWithSummon(t.TempDir())
	if out, _ := d.reply(context.Background(), "go", nil); out.StopReason != EndTurn {
		t.Fatalf("stop = %v %v", out.StopReason, out.Err)
	}
	for id, want := range map[string]string{"d1": "from alpha", "d2": "from beta"} {
		if r := d.toolResult(id); r.IsError || !strings.HasSuffix(r.Content[0].Text, `{"summary":"`+want+`"}`) {
			t.Fatalf("%s = %+v", id, r)
		}
	}
}

func TestDelegateMaxTurnsReached(t *testing.T) {
	d := newDelegateEnv(t, nil, nil, map[string][]providertest.Turn{"openai": {
		delegateCall("call_m", `{"instructions":"loop","max_turns":1}`),
		{Text: []string{"halfway there"}},
		{Text: []string{"ok"}},
	}})
	d.startWithSummon(t.TempDir())
	if out, _ := d.reply(context.Background(), "go", nil); out.StopReason != EndTurn {
		t.Fatalf("stop = %v %v", out.StopReason, out.Err)
	}
	child := d.children()[0]
	r := d.toolResult("call_m")
	if want := "Subagent " + child.ID + " failed: max turns reached; last response: halfway there"; !r.IsError || r.Content[0].Text != want {
		t.Fatalf("result = %+v, want %q", r, want)
	}
}

// The parent's cancel stops the subagent: the turn and the delegate call
// end cancelled, the subagent's events end "cancelled", its session unloads.
func TestCancellingTheParentCancelsTheSubagent(t *testing.T) {
	d := newDelegateEnv(t, nil, nil, map[string][]providertest.Turn{"openai": {
		delegateCall("call_c", `{"instructions":"wait forever"}`),
		{Hang: true, Text: []string{"thinking"}},
	}})
	d.startWithSummon(t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for len(d.servers["openai"].Requests()) < 2 {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	out, evs := d.reply(ctx, "go", nil)
	if out.StopReason != Cancelled {
		t.Fatalf("stop = %v", out.StopReason)
	}
	trace := subagentTrace(evs)
	if len(trace) == 0 || trace[0] != "start call_c Delegated Task: wait forever" || trace[len(trace)-1] != "end cancelled" {
		t.Fatalf("trace %q", trace)
	}
	if r := d.toolResult("call_c"); !r.IsError || r.Content[0].Text != CancelledToolText {
		t.Fatalf("result = %+v", r)
	}
	kids := d.children()
	if len(kids) != 1 {
		t.Fatalf("%d children", len(kids))
	}
	if _, err := d.a.session(kids[0].ID); err == nil {
		t.Fatal("the cancelled subagent session is still loaded")
	}
}

func TestDelegateValidationAndNesting(t *testing.T) {
	d := newDelegateEnv(t, nil, nil, map[string][]providertest.Turn{"openai": {{Text: []string{"x"}}}})
	d.startWithSummon(t.TempDir())
	h := hooks{d.a}
	cases := []struct {
		p    platform.DelegateParams
		want string
	}{
		{platform.DelegateParams{}, "Must provide 'instructions' or 'source' (or both)"},
		{platform.DelegateParams{Instructions: strp("x"), Parameters: map[string]any{"a": 1}}, "'parameters' can only be used with 'source'"},
		{platform.DelegateParams{Source: strp("nosuch")}, "Source 'nosuch' not found"},
		{platform.DelegateParams{Instructions: strp("x"), WorkingDir: strp("..")}, "Failed to resolve subagent config: working_dir '..' is outside the parent session directory"},
	}
	for _, c := range cases {
		if _, err := h.Delegate(context.Background(), d.id, "c", c.p); err == nil || err.Error() != "Error: "+c.want {
			t.Errorf("%+v: %v, want %q", c.p, err, c.want)
		}
	}
	sub, _, err := d.a.StartSession(context.Background(), StartOptions{WorkingDir: t.TempDir(), Type: session.TypeSubAgent,
		Extensions: []config.ExtensionConfig{{Type: config.ExtensionPlatform, Name: platform.Summon}}})
	if err != nil {
		t.Fatal(err)
	}
	tools, _ := d.a.Extensions().Tools(context.Background(), sub.ID, "")
	for _, tool := range tools {
		if tool.Name == "delegate" {
			t.Fatal("a subagent session offers delegate")
		}
	}
	if _, err := h.Delegate(context.Background(), sub.ID, "c", platform.DelegateParams{Instructions: strp("x")}); err == nil || err.Error() != "Error: "+ErrNestedDelegation.Error() {
		t.Fatalf("nested: %v", err)
	}
}

func TestSubagentProviderAndModelPrecedence(t *testing.T) {
	p := platform.DelegateParams{Provider: strp("param-p"), Model: strp("param-m")}
	r := delegateRecipe{}
	cases := []struct {
		name         string
		cfg          mapConfig
		env          map[string]string
		p            platform.DelegateParams
		r            delegateRecipe
		wantProvider string
		wantModel    string
	}{
		{"parent", mapConfig{}, nil, platform.DelegateParams{}, r, "parent-p", "parent-m"},
		{"config", mapConfig{SubagentProviderKey: "cfg-p", SubagentModelKey: "cfg-m"}, nil, platform.DelegateParams{}, r, "cfg-p", "cfg-m"},
		{"param over config", mapConfig{SubagentProviderKey: "cfg-p", SubagentModelKey: "cfg-m"}, nil, p, r, "param-p", "param-m"},
		{"env over param", nil, map[string]string{SubagentProviderKey: "env-p", SubagentModelKey: "env-m"}, p, r, "env-p", "env-m"},
		{"recipe over env", nil, map[string]string{SubagentProviderKey: "env-p", SubagentModelKey: "env-m"}, p,
			delegateRecipe{Provider: strp("rec-p"), Model: strp("rec-m")}, "rec-p", "rec-m"},
		{"model of another provider is skipped", nil, map[string]string{SubagentModelKey: "env-m", SubagentProviderKey: ""}, platform.DelegateParams{Provider: strp("param-p")},
			delegateRecipe{Model: strp("rec-m"), Provider: strp("other")}, "other", "rec-m"},
		{"provider default", nil, nil, platform.DelegateParams{Provider: strp("param-p")}, r, "param-p", ""},
	}
	for _, c := range cases {
		cfg := c.cfg
		if cfg == nil {
			cfg = mapConfig{}
		}
		a := New(Options{Config: cfg, Getenv: func(k string) string { return c.env[k] }})
		prov, err := a.sub.subagentProvider(c.p, c.r, "parent-p")
		if err != nil {
			t.Fatal(err)
		}
		if m := a.sub.subagentModel(c.p, c.r, prov, "parent-p", "parent-m"); prov != c.wantProvider || m != c.wantModel {
			t.Errorf("%s: provider %q model %q, want %q %q", c.name, prov, m, c.wantProvider, c.wantModel)
		}
	}
	if _, err := New(Options{}).sub.subagentProvider(platform.DelegateParams{}, r, ""); err != ErrNoSubagentProvider {
		t.Fatalf("no provider: %v", err)
	}
}

func TestDelegateBuildsTheSubagentProviderByPrecedence(t *testing.T) {
	d := newDelegateEnv(t, mapConfig{SubagentModelKey: "cfg-model"}, map[string]string{SubagentProviderKey: "alpha", SubagentMaxTurnsKey: "7"},
		map[string][]providertest.Turn{
			"openai": {delegateCall("d", `{"instructions":"x","provider":"beta"}`), {Text: []string{"ok"}}},
			"alpha":  {finalOutput("f", "done")},
		})
	d.startWithSummon(t.TempDir())
	if out, _ := d.reply(context.Background(), "go", nil); out.StopReason != EndTurn {
		t.Fatalf("stop = %v %v", out.StopReason, out.Err)
	}
	d.mu.Lock()
	built := strings.Join(d.built, ",")
	d.mu.Unlock()
	// env GOOSE_SUBAGENT_PROVIDER beats the provider parameter; the config
	// model applies because no provider was configured with it.
	if built != "openai/openai-default,alpha/cfg-model" {
		t.Fatalf("providers built = %s", built)
	}
	if r := d.toolResult("d"); r.IsError {
		t.Fatalf("result = %+v", r)
	}
	if n := d.a.sub.subagentMaxTurns(platform.DelegateParams{}, delegateRecipe{}, nil); n != 7 {
		t.Fatalf("max turns from env = %d", n)
	}
}

func strp(s string) *string { return &s }

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDelegateRunsTheSessionRecipesSubRecipe(t *testing.T) {
	wd := t.TempDir()
	writeTestFile(t, filepath.Join(wd, "summarise.yaml"), summariseRecipe)
	d := newDelegateEnv(t, nil, nil, map[string][]providertest.Turn{"openai": {
		{ToolCalls: []providertest.ToolCall{{ID: "call_l", Name: "load", Arguments: `{}`}}},
		delegateCall("call_s", `{"source":"summarise","parameters":{"topic":"Go","style":"long"}}`),
		finalOutput("f", "Go is fast"),
		{Text: []string{"done"}},
	}})
	d.start(StartOptions{WorkingDir: wd, Extensions: []config.ExtensionConfig{{Type: config.ExtensionPlatform, Name: platform.Summon}},
		Recipe: &Recipe{SubRecipes: []recipe.SubRecipe{{Name: "summarise", Path: "summarise.yaml", Values: map[string]string{"style": "terse"}}}}})
	if out, _ := d.reply(context.Background(), "go", nil); out.StopReason != EndTurn {
		t.Fatalf("stop = %v %v", out.StopReason, out.Err)
	}
	if list := d.toolResult("call_l").Content[0].Text; !strings.Contains(list, "Subrecipes:\n• summarise - Summarise a topic") {
		t.Fatalf("load() = %q", list)
	}
	// The sub-recipe's fixed value wins over the delegate's parameter.
	childReq := string(d.servers["openai"].Requests()[2].Body)
	if !strings.Contains(childReq, "Summarise Go in a terse line.") || !strings.Contains(childReq, "You summarise things.") {
		t.Fatalf("sub-recipe subagent request: %.800s", childReq)
	}
	if r := d.toolResult("call_s"); r.IsError || !strings.HasSuffix(r.Content[0].Text, `{"summary":"Go is fast"}`) {
		t.Fatalf("result = %+v", r)
	}
}

func TestDelegateExtensionsAndContext(t *testing.T) {
	d := newDelegateEnv(t, nil, nil, map[string][]providertest.Turn{"openai": {
		delegateCall("d", `{"instructions":"check","extensions":["tt"],"context":"The repo uses Go 1.26."}`),
		finalOutput("f", "ok"),
		{Text: []string{"done"}},
	}})
	d.startWithSummon(t.TempDir())
	if out, _ := d.reply(context.Background(), "go", nil); out.StopReason != EndTurn {
		t.Fatalf("stop = %v %v", out.StopReason, out.Err)
	}
	child := string(d.servers["openai"].Requests()[1].Body)
	if !strings.Contains(child, `"tt__echo"`) || strings.Contains(child, `"load"`) {
		t.Fatalf("extensions [tt] must give the child tt only: %.1500s", child)
	}
	if !strings.Contains(child, `# Reference Context\n\nThe repo uses Go 1.26.`) {
		t.Fatalf("context not in the child's system prompt: %.1500s", child)
	}
	parent, _ := d.a.session(d.id)
	if got := d.a.sub.subagentExtensions(parent, &[]string{}); len(got) != 0 {
		t.Fatalf("empty list must give no extensions: %+v", got)
	}
	if got := d.a.sub.subagentExtensions(parent, nil); len(got) != len(parent.mgr.Configs()) {
		t.Fatalf("nil must inherit every extension: %+v", got)
	}
}
