package agent

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
)

func TestCreateRecipe(t *testing.T) {
	h := newHarnessWith(t, nil, func(o *Options) {
		o.Getenv = func(k string) string { return map[string]string{"USER": "alice"}[k] }
	}, say("Paris is lovely."))
	h.prov.complete = func(req provider.Request) (conversation.Message, error) {
		return conversation.AssistantText(0, "Here it is:\n```json\n{\"title\":\"Trip planner\",\"instructions\":\"Plan trips.\",\"activities\":[\"Plan Paris\",\"Pack\"]}\n```"), nil
	}
	h.start(StartOptions{})
	h.reply(context.Background(), "plan a trip to Paris", nil)

	r, err := h.a.Recipes().Create(context.Background(), h.id)
	if err != nil {
		t.Fatal(err)
	}
	req := h.prov.completes[len(h.prov.completes)-1]
	if !strings.HasPrefix(req.System, "You are a general-purpose AI agent called goose") || len(req.Tools) == 0 {
		t.Fatalf("request system %.60q, %d tools", req.System, len(req.Tools))
	}
	var texts []string
	for _, m := range req.Messages {
		texts = append(texts, m.AsText())
	}
	if len(texts) != 3 || texts[0] != "plan a trip to Paris" || texts[1] != "Paris is lovely." ||
		!strings.HasPrefix(texts[2], "Based on our conversation so far, could you create:") {
		t.Fatalf("messages = %q", texts)
	}
	b, _ := json.Marshal(r)
	want := `{"version":"1.0.0","title":"Trip planner","description":"a custom recipe instance from this chat session","instructions":"Plan trips.",` +
		`"extensions":[{"type":"builtin","name":"tt"`
	if !strings.HasPrefix(string(b), want) ||
		!strings.HasSuffix(string(b), `"settings":{"goose_provider":"fake","goose_model":"fake-model","temperature":0},"activities":["Plan Paris","Pack"],"author":{"contact":"alice"}}`) {
		t.Fatalf("recipe = %s", b)
	}
}

func TestCreateRecipeErrors(t *testing.T) {
	h := newHarness(t, nil)
	if _, err := h.a.Recipes().Create(context.Background(), "nope"); !errors.Is(err, ErrSessionNotLoaded) {
		t.Fatalf("err = %v", err)
	}
	h.prov.complete = func(provider.Request) (conversation.Message, error) {
		return conversation.AssistantText(0, `{"instructions": 3, "activities": []}`), nil
	}
	h.start(StartOptions{})
	if _, err := h.a.Recipes().Create(context.Background(), h.id); !errors.Is(err, ErrRecipeResponse) || !strings.Contains(err.Error(), "instructions' is not a string") {
		t.Fatalf("err = %v", err)
	}
}

func TestParseRecipeAnswer(t *testing.T) {
	for _, tc := range []struct {
		name, in, instr, title, err string
		acts                        []string
	}{
		{name: "json", in: `{"instructions":"Do X","activities":["a","b"]}`, instr: "Do X", title: CreatedRecipeTitle, acts: []string{"a", "b"}},
		{name: "fenced", in: "```\n{\"instructions\":\"Do Y\",\"activities\":[],\"title\":\"T\"}\n```", instr: "Do Y", title: "T"},
		{name: "text fallback", in: "## instructions: Review PRs carefully ##\nactivities:\n- Review a PR\n2. Check CI\n\n* Merge", instr: "Review PRs carefully", title: CreatedRecipeTitle, acts: []string{"Review a PR", "Check CI", "Merge"}},
		{name: "missing activities", in: `{"instructions":"x"}`, err: "Missing 'activities' in json response"},
		{name: "missing instructions", in: `{"activities":[]}`, err: "Missing 'instructions' in json response"},
		{name: "activities not array", in: `{"instructions":"x","activities":"a"}`, err: "'activities' is not an array'"},
		{name: "activity not string", in: `{"instructions":"x","activities":[1]}`, err: "'activities' array element is not a string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseRecipeAnswer(tc.in)
			if tc.err != "" {
				if err == nil || !strings.HasSuffix(err.Error(), tc.err) {
					t.Fatalf("err = %v", err)
				}
				return
			}
			if err != nil || got.instructions != tc.instr || got.title != tc.title || !reflect.DeepEqual(got.activities, tc.acts) {
				t.Fatalf("got %+v, %v", got, err)
			}
		})
	}
}
