package acp

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/extension"
)

// Mirrors of the setup answer types without their MarshalJSON methods:
// what encoding/json writes for them by reflection.
type (
	refNewSession struct {
		SessionID     string      `json:"sessionId"`
		Modes         *refModes   `json:"modes,omitempty"`
		Models        *refModels  `json:"models,omitempty"`
		ConfigOptions []refOption `json:"configOptions,omitempty"`
		Meta          Meta        `json:"_meta,omitempty"`
	}
	refSetup struct {
		Modes         *refModes   `json:"modes,omitempty"`
		Models        *refModels  `json:"models,omitempty"`
		ConfigOptions []refOption `json:"configOptions,omitempty"`
		Meta          Meta        `json:"_meta,omitempty"`
	}
	refModes struct {
		CurrentModeID  string        `json:"currentModeId"`
		AvailableModes []SessionMode `json:"availableModes"`
	}
	refModels struct {
		CurrentModelID  string      `json:"currentModelId"`
		AvailableModels []ModelInfo `json:"availableModels"`
	}
	refSelect struct {
		ID           string              `json:"id"`
		Name         string              `json:"name"`
		Description  string              `json:"description,omitempty"`
		Category     string              `json:"category,omitempty"`
		Type         string              `json:"type"`
		CurrentValue string              `json:"currentValue"`
		Options      []ConfigOptionValue `json:"options"`
	}
	refBoolean struct {
		ID           string `json:"id"`
		Name         string `json:"name"`
		Description  string `json:"description,omitempty"`
		Category     string `json:"category,omitempty"`
		Type         string `json:"type"`
		CurrentValue bool   `json:"currentValue"`
	}
)

// refOption is a select or a boolean option as encoding/json writes it.
type refOption struct{ v any }

func (o refOption) MarshalJSON() ([]byte, error) { return json.Marshal(o.v) }

func refOf(o ConfigOption) refOption {
	if o.Bool != nil {
		return refOption{refBoolean{o.ID, o.Name, o.Description, o.Category, "boolean", *o.Bool}}
	}
	return refOption{refSelect{o.ID, o.Name, o.Description, o.Category, o.Type, o.CurrentValue, o.Options}}
}

func refSetupOf(r SessionSetupResponse) refSetup {
	out := refSetup{Meta: r.Meta}
	if r.Modes != nil {
		out.Modes = &refModes{r.Modes.CurrentModeID, r.Modes.AvailableModes}
	}
	if r.Models != nil {
		out.Models = &refModels{r.Models.CurrentModelID, r.Models.AvailableModels}
	}
	if r.ConfigOptions != nil {
		out.ConfigOptions = []refOption{}
		for _, o := range r.ConfigOptions {
			out.ConfigOptions = append(out.ConfigOptions, refOf(o))
		}
	}
	return out
}

// The hand-written encoders must keep up with the types: a field added to
// one of them and not to its mirror above (and to the encoder) fails here.
func TestSetupAnswerMirrorsHaveEveryField(t *testing.T) {
	pairs := []struct{ real, mirror any }{
		{NewSessionResponse{}, refNewSession{}}, {SessionSetupResponse{}, refSetup{}},
		{ModeState{}, refModes{}}, {ModelState{}, refModels{}},
		{SessionMode{}, struct {
			ID          string `json:"id"`
			Name        string `json:"name"`
			Description string `json:"description,omitempty"`
		}{}},
		{ModelInfo{}, struct {
			ModelID     string `json:"modelId"`
			Name        string `json:"name"`
			Description string `json:"description,omitempty"`
		}{}},
		{ConfigOptionValue{}, struct {
			Value       string `json:"value"`
			Name        string `json:"name"`
			Description string `json:"description,omitempty"`
		}{}},
		{ConfigOption{}, struct {
			refSelect
			Bool *bool `json:"-"`
		}{}},
		{extension.Result{}, struct {
			Name    string `json:"name"`
			Success bool   `json:"success"`
			Error   string `json:"error,omitempty"`
		}{}},
	}
	tags := func(v any) []string {
		var out []string
		var walk func(t reflect.Type)
		walk = func(t reflect.Type) {
			for f := range t.Fields() {
				if f.Anonymous {
					walk(f.Type)
					continue
				}
				out = append(out, f.Name+" "+f.Type.Kind().String()+" "+string(f.Tag))
			}
		}
		walk(reflect.TypeOf(v))
		return out
	}
	for _, p := range pairs {
		if got, want := tags(p.real), tags(p.mirror); !reflect.DeepEqual(got, want) {
			t.Errorf("%T changed: fields %q, the encoder knows %q (update session_setup_json.go and this mirror)", p.real, got, want)
		}
	}
}

func TestSetupAnswersEncodeAsEncodingJSON(t *testing.T) {
	texts := []string{"", "auto", "Smart Approve", `quote " and \ backslash`, "<b>&amp;</b>", "tab\tnew\nline\x01\x7f",
		"ünïcødé ✓ 🦢", "line\u2028sep\u2029", "bad \xff utf-8", "gpt-4o"}
	on, off := true, false
	var cases []SessionSetupResponse
	for i, s := range texts {
		u := texts[(i+3)%len(texts)]
		cases = append(cases, SessionSetupResponse{
			Modes:  &ModeState{CurrentModeID: s, AvailableModes: []SessionMode{{ID: s, Name: u, Description: s}, {ID: u, Name: s}}},
			Models: &ModelState{CurrentModelID: u, AvailableModels: []ModelInfo{{ModelID: s, Name: s, Description: u}, {}}},
			ConfigOptions: []ConfigOption{
				{ID: s, Name: u, Description: s, Category: u, Type: "select", CurrentValue: s, Options: []ConfigOptionValue{{Value: s, Name: u, Description: s}, {Value: u}}},
				{ID: "switch", Name: s, Category: u, Bool: &on}, {ID: u, Bool: &off, Options: []ConfigOptionValue{{Value: "ignored"}}},
				{ID: "none", Type: "select"},
			},
			Meta: Meta{"extensionResults": []extension.Result{{Name: s, Success: true}, {Name: u, Error: s}}, "workingDir": s,
				"recipe": json.RawMessage(`{"title": "<t>", "n": [1, 2]}`), "userRecipeValues": map[string]string{u: s}, s: nil, "n": 3},
		})
	}
	cases = append(cases, SessionSetupResponse{}, SessionSetupResponse{Modes: &ModeState{}, Models: &ModelState{}, ConfigOptions: []ConfigOption{}, Meta: Meta{}},
		SessionSetupResponse{Meta: Meta{"extensionResults": []extension.Result{}, "nilResults": []extension.Result(nil)}})
	for i, c := range cases {
		id := strings.Repeat("x<", i%3)
		want, err := json.Marshal(refNewSession{id, refSetupOf(c).Modes, refSetupOf(c).Models, refSetupOf(c).ConfigOptions, c.Meta})
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(NewSessionResponse{SessionID: id, Modes: c.Modes, Models: c.Models, ConfigOptions: c.ConfigOptions, Meta: c.Meta})
		if err != nil || string(got) != string(want) {
			t.Errorf("case %d: session/new answer\n got %s (%v)\nwant %s", i, got, err, want)
		}
		want, _ = json.Marshal(refSetupOf(c))
		if got, err := json.Marshal(c); err != nil || string(got) != string(want) {
			t.Errorf("case %d: setup answer\n got %s (%v)\nwant %s", i, got, err, want)
		}
		for _, o := range c.ConfigOptions {
			want, _ := json.Marshal(refOf(o))
			if got, err := json.Marshal(o); err != nil || string(got) != string(want) {
				t.Errorf("case %d: option\n got %s (%v)\nwant %s", i, got, err, want)
			}
		}
	}
	// A value encoding/json cannot write fails the same way.
	if _, err := json.Marshal(SessionSetupResponse{Meta: Meta{"x": math.NaN()}}); err == nil || !strings.Contains(err.Error(), "unsupported value: NaN") {
		t.Fatalf("NaN in _meta: %v", err)
	}
}

// BenchmarkFirstSetupAnswer is a realistic session/new answer encoded
// (steady state; a fresh process also paid encoding/json's type setup).
func BenchmarkSetupAnswer(b *testing.B) {
	var models []ModelInfo
	var values []ConfigOptionValue
	for _, m := range []string{"gpt-4o", "gpt-4o-mini", "gpt-4.1", "gpt-4.1-mini", "o1", "o3", "gpt-3.5-turbo", "gpt-4-turbo", "o4-mini", "gpt-5-nano", "gpt-5.1-codex", "gpt-5-codex"} {
		models = append(models, ModelInfo{ModelID: m, Name: m})
		values = append(values, ConfigOptionValue{Value: m, Name: m})
	}
	r := NewSessionResponse{SessionID: "20261128_1", Modes: &ModeState{CurrentModeID: "auto", AvailableModes: modes},
		Models: &ModelState{CurrentModelID: "gpt-4o", AvailableModels: models},
		ConfigOptions: []ConfigOption{{ID: "mode", Name: "Mode", Category: "mode", Type: "select", CurrentValue: "auto", Options: values[:4]},
			{ID: "model", Name: "Model", Category: "model", Type: "select", CurrentValue: "gpt-4o", Options: values}},
		Meta: Meta{"extensionResults": []extension.Result{}, "workingDir": "/home/user/project"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(r); err != nil {
			b.Fatal(err)
		}
	}
}
