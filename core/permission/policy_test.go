package permission

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/toolinfo"
)

// TestEvaluateExhaustive checks every combination of mode, user level,
// smart cache, read-only annotation, tool name, declared kind (a think
// tool, the todo list, is never asked about) and judge answer against
// goose's rule written out independently.
func TestEvaluateExhaustive(t *testing.T) {
	modes := []Mode{ModeAuto, ModeApprove, ModeSmartApprove, ModeChat}
	levels := []Level{LevelNone, LevelAlwaysAllow, LevelAskBefore, LevelNeverAllow}
	judges := []*bool{nil, ptr(true), ptr(false)}
	n := 0
	for _, mode := range modes {
		for _, user := range levels {
			for _, smart := range levels {
				for _, ro := range []bool{false, true} {
					for _, name := range []string{"dev__shell", ManageExtensionsTool} {
						for _, kind := range []string{toolinfo.Execute, toolinfo.Think} {
							for _, llm := range judges {
								n++
								f := Facts{Mode: mode, User: user, Smart: smart, ReadOnly: ro, Kind: kind, LLMReadOnly: llm}
								got := Evaluate(name, f)
								want := expected(name, f)
								if got.Skip != want.Skip || got.AskLLM != want.AskLLM || (!got.Skip && !got.AskLLM && got.Action != want.Action) {
									t.Fatalf("%s %+v llm=%v: got %+v want %+v", name, f, deref(llm), got, want)
								}
								if got.Action == RequireApproval && name == ManageExtensionsTool && user == LevelNone && !ro && (mode == ModeApprove || mode == ModeSmartApprove) {
									if got.Prompt == nil || *got.Prompt != ExtensionManagementPrompt {
										t.Fatalf("manage_extensions prompt = %v", got.Prompt)
									}
								}
							}
						}
					}
				}
			}
		}
	}
	if n != 4*4*4*2*2*2*3 {
		t.Fatalf("covered %d cases", n)
	}
}

func ptr(b bool) *bool { return &b }

func deref(b *bool) string {
	if b == nil {
		return "nil"
	}
	return fmt.Sprint(*b)
}

func expected(name string, f Facts) Verdict {
	if f.Mode == ModeChat {
		return Verdict{Skip: true}
	}
	if f.Mode == ModeAuto {
		return Verdict{Action: Allow}
	}
	switch f.User {
	case LevelAlwaysAllow:
		return Verdict{Action: Allow}
	case LevelNeverAllow:
		return Verdict{Action: Deny}
	case LevelAskBefore:
		return Verdict{Action: RequireApproval}
	}
	if f.ReadOnly || f.Kind == toolinfo.Think {
		return Verdict{Action: Allow}
	}
	if name == ManageExtensionsTool {
		return Verdict{Action: RequireApproval}
	}
	if f.Mode == ModeSmartApprove && f.Smart == LevelNone {
		if f.LLMReadOnly == nil {
			return Verdict{AskLLM: true}
		}
		if *f.LLMReadOnly {
			return Verdict{Action: Allow}
		}
	}
	return Verdict{Action: RequireApproval}
}

func TestMerge(t *testing.T) {
	calls := []Call{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}}
	prompt := "🔒"
	perm := []Result{{RequestID: "a", Action: Allow}, {RequestID: "b", Action: Allow}, {RequestID: "c", Action: Deny}}
	others := []Result{
		{RequestID: "a", Action: RequireApproval, Prompt: &prompt}, // security tightens allow → ask
		{RequestID: "b", Action: Allow},                            // allow never relaxes
		{RequestID: "c", Action: Allow},                            // nor undoes a deny
		{RequestID: "d", Action: Deny},                             // repetition denies an ask
	}
	s := Merge(calls, perm, others)
	if ids(s.Approved) != "b" || ids(s.NeedsApproval) != "a" || ids(s.Denied) != "c,d" || s.Prompts["a"] != prompt {
		t.Fatalf("split = %+v", s)
	}
	// Without permission results everything needs approval.
	if s := Merge(calls, nil, nil); ids(s.NeedsApproval) != "a,b,c,d" {
		t.Fatalf("no permission inspector: %+v", s)
	}
}

func ids(cs []Call) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return strings.Join(out, ",")
}

type memStore struct{ user, smart map[string]Level }

func (m *memStore) User(t string) Level  { return m.user[t] }
func (m *memStore) Smart(t string) Level { return m.smart[t] }
func (m *memStore) SetUser(t string, l Level) error {
	m.user[t] = l
	return nil
}
func (m *memStore) SetSmart(t string, l Level) error {
	m.smart[t] = l
	return nil
}

func TestPermissionInspectorSmartApprove(t *testing.T) {
	store := &memStore{user: map[string]Level{}, smart: map[string]Level{"cached__ask": LevelAskBefore, "legacy__allow": LevelAlwaysAllow}}
	asked := 0
	judge := func(_ context.Context, calls []Call) (map[string]bool, error) {
		asked++
		return map[string]bool{"1": true}, nil
	}
	pi := &PermissionInspector{Mode: ModeSmartApprove, Store: store, Judge: judge}
	calls := []Call{{ID: "1", Name: "x__read"}, {ID: "2", Name: "x__write"}, {ID: "3", Name: "cached__ask"}, {ID: "4", Name: "legacy__allow"}}
	res, err := pi.Inspect(context.Background(), calls, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Action{}
	for _, r := range res {
		got[r.RequestID] = r.Action
	}
	if got["1"] != Allow || got["2"] != RequireApproval || got["3"] != RequireApproval || got["4"] != RequireApproval || asked != 1 {
		t.Fatalf("results = %v asked=%d", got, asked)
	}
	// Only the negative answer is cached.
	if store.smart["x__write"] != LevelAskBefore || store.smart["x__read"] != LevelNone {
		t.Fatalf("cache = %v", store.smart)
	}
	// A failing judge means nothing is read-only.
	pi.Judge = func(context.Context, []Call) (map[string]bool, error) { return nil, errors.New("down") }
	res, _ = pi.Inspect(context.Background(), []Call{{ID: "9", Name: "y__new"}}, nil)
	if res[0].Action != RequireApproval {
		t.Fatalf("judge failure = %+v", res)
	}
}

func TestRepetitionInspector(t *testing.T) {
	r := &RepetitionInspector{Max: 2}
	c := Call{ID: "x", Name: "dev__shell", Args: map[string]any{"command": "ls"}}
	for i := 0; i < 2; i++ {
		res, _ := r.Inspect(context.Background(), []Call{c}, nil)
		if len(res) != 0 {
			t.Fatalf("call %d denied", i+1)
		}
		r.Record(c)
	}
	res, _ := r.Inspect(context.Background(), []Call{c}, nil)
	if len(res) != 1 || res[0].Action != Deny || res[0].Reason != "Tool 'dev__shell' has exceeded maximum repetitions" || res[0].FindingID != "REP-001" {
		t.Fatalf("third call = %+v", res)
	}
	other := Call{ID: "y", Name: "dev__shell", Args: map[string]any{"command": "pwd"}}
	if res, _ := r.Inspect(context.Background(), []Call{other}, nil); len(res) != 0 {
		t.Fatal("different arguments denied")
	}
	if (&RepetitionInspector{}).Enabled() {
		t.Fatal("repetition limit must be off by default")
	}
}

func TestModesAndDecisions(t *testing.T) {
	if _, err := ParseMode("yolo"); err == nil || err.Error() != "invalid mode: yolo" {
		t.Fatalf("err = %v", err)
	}
	for _, d := range []Decision{AllowOnce, AlwaysAllow, DenyOnce, AlwaysDeny, Cancel} {
		if got, err := ParseDecision(string(d)); err != nil || got != d {
			t.Fatalf("%s: %v", d, err)
		}
	}
	if AlwaysAllow.PersistedLevel() != LevelAlwaysAllow || AlwaysDeny.PersistedLevel() != LevelNeverAllow || DenyOnce.PersistedLevel() != LevelNone {
		t.Fatal("persisted levels")
	}
}

func TestLLMJudge(t *testing.T) {
	p := &judgeProvider{reply: conversation.NewMessage(conversation.RoleAssistant, 0).With(
		conversation.ToolRequestContent("j", JudgeToolName, map[string]any{"read_only_tools": []any{"dev__read"}}))}
	judge := LLMJudge(p, func() time.Time { return time.Unix(0, 0) })
	got, err := judge(context.Background(), []Call{{ID: "1", Name: "dev__read"}, {ID: "2", Name: "dev__write"}})
	if err != nil || !got["1"] || got["2"] {
		t.Fatalf("judge = %v %v", got, err)
	}
	want := "Here are the tool requests: \"dev__read, dev__write\"\n\nAnalyze the tool requests and list the tools that perform read-only operations. \n\nGuidelines for Read-Only Operations: \n- Read-only operations do not modify any data or state. \n- Examples include file reading, SELECT queries in SQL, and directory listing. \n- Write operations include INSERT, UPDATE, DELETE, and file writing. \n\nPlease provide a list of tool names that qualify as read-only:"
	if p.req.Messages[0].AsText() != want || p.req.System != JudgeSystemPrompt || p.req.Tools[0].Name != JudgeToolName {
		t.Fatalf("request = %+v", p.req)
	}
	p.reply = conversation.AssistantText(0, "no tool call")
	if _, err := judge(context.Background(), []Call{{ID: "1", Name: "x"}}); !errors.Is(err, ErrJudgeNoAnswer) {
		t.Fatalf("err = %v", err)
	}
}

type judgeProvider struct {
	reply conversation.Message
	req   provider.Request
}

func (j *judgeProvider) Metadata() provider.Metadata { return provider.Metadata{Name: "judge"} }
func (j *judgeProvider) ModelConfig() model.Config   { return model.Config{} }
func (j *judgeProvider) FetchModels(context.Context) ([]string, error) {
	return nil, nil
}
func (j *judgeProvider) Stream(context.Context, provider.Request) iter.Seq2[provider.Chunk, error] {
	return func(func(provider.Chunk, error) bool) {}
}
func (j *judgeProvider) Complete(_ context.Context, req provider.Request) (conversation.Message, provider.ProviderUsage, error) {
	j.req = req
	return j.reply, provider.ProviderUsage{}, nil
}
