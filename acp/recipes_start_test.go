package acp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/recipe"
)

const greeterRecipe = `version: 1.0.0
title: Greeter
description: greets someone
instructions: Always greet {{ name }} in {{ lang }}.
prompt: Say hello to {{ name }}
parameters:
  - key: name
    input_type: string
    requirement: required
    description: who to greet
  - key: lang
    input_type: string
    requirement: optional
    description: language
    default: English
`

// recipeRig is a desktop rig whose library holds greeterRecipe; it
// returns the rig and the recipe's id. caps is the initialize's
// clientCapabilities.
func recipeRig(t *testing.T, caps string) (*desktopRig, string) {
	t.Helper()
	return recipeRigModel(t, caps, instantModel{})
}

func recipeRigModel(t *testing.T, caps string, prov provider.Provider) (*desktopRig, string) {
	t.Helper()
	lib := &recipe.Library{Dir: filepath.Join(t.TempDir(), "recipes"), Config: memYAML{}}
	if err := os.MkdirAll(lib.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(lib.Dir, "greeter.yaml")
	if err := os.WriteFile(path, []byte(greeterRecipe), 0o644); err != nil {
		t.Fatal(err)
	}
	r := newRigModel(t, nil, prov, func(o *Options) { o.Recipes = lib })
	r.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":`+caps+`}}`)
	for {
		var rep rpcReply
		mustUnmarshal(t, []byte(r.read(t)), &rep)
		if string(rep.ID) == "1" {
			break
		}
	}
	return r, recipe.LibraryID(path)
}

type clientFrame struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// newRecipeSession sends session/new with meta; answer (a result JSON,
// or "" to expect no request) answers request-params. It returns the
// session/new reply and the request-params params seen (nil if none).
// An answer starting {"code" is sent as a JSON-RPC error.
func newRecipeSession(t *testing.T, r *desktopRig, meta map[string]any, answer string) (clientFrame, json.RawMessage) {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"cwd": r.dir, "mcpServers": []any{}, "_meta": meta})
	r.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"method":"session/new","params":%s}`, b))
	var asked json.RawMessage
	for {
		var f clientFrame
		mustUnmarshal(t, []byte(r.read(t)), &f)
		switch {
		case f.Method == RecipeParamsMethod:
			if answer == "" {
				t.Fatalf("request-params sent to a client that cannot answer it: %s", f.Params)
			}
			asked = f.Params
			validateUnstableType(t, "RequestRecipeParams_unstable", f.Params)
			if strings.HasPrefix(answer, `{"code"`) {
				r.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":%s}`, f.ID, answer))
				continue
			}
			validateUnstableType(t, "RecipeParamsResponse_unstable", []byte(answer))
			r.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, f.ID, answer))
		case f.Method == "" && string(f.ID) == "7":
			return f, asked
		}
	}
}

func sessionIDOf(t *testing.T, f clientFrame) string {
	t.Helper()
	if len(f.Error) > 0 {
		t.Fatalf("session/new failed: %s", f.Error)
	}
	var out struct {
		SessionID string `json:"sessionId"`
	}
	mustUnmarshal(t, f.Result, &out)
	return out.SessionID
}

const askCaps = `{"_meta":{"goose":{"recipeParameterRequests":true}}}`

func TestRecipeParamsSubmitAppliesTheRecipe(t *testing.T) {
	model := &systemRecorder{}
	r, id := recipeRigModel(t, askCaps, model)
	rep, asked := newRecipeSession(t, r, map[string]any{"client": "goose-desktop", "recipeId": id, "recipeParameterScopeId": "scope-9"},
		`{"action":"submit","values":{"name":"Ada"}}`)
	sid := sessionIDOf(t, rep)
	var req struct {
		SessionID        string             `json:"sessionId"`
		Parameters       []recipe.Parameter `json:"parameters"`
		ParameterScopeID string             `json:"parameterScopeId"`
	}
	mustUnmarshal(t, asked, &req)
	if req.SessionID != sid || req.ParameterScopeID != "scope-9" || len(req.Parameters) != 1 || req.Parameters[0].Key != "name" ||
		req.Parameters[0].Requirement != recipe.Required {
		t.Fatalf("request-params asked %s for session %s (only name lacks a value)", asked, sid)
	}
	got := r.onDisk(t, sid)
	if got.UserRecipeValues["name"] != "Ada" || len(got.UserRecipeValues) != 1 {
		t.Fatalf("stored values %v, want name=Ada", got.UserRecipeValues)
	}
	rec := string(got.Recipe)
	if !strings.Contains(rec, "Always greet Ada in English.") || !strings.Contains(rec, "Say hello to Ada") {
		t.Fatalf("stored recipe not rendered with the values: %s", rec)
	}
	// The running session follows the recipe: its instructions reach the
	// model.
	r.prompt(t, sid, "hi")
	if sys := model.last(); !strings.Contains(sys, "Always greet Ada in English.") {
		t.Fatalf("recipe instructions not in the system prompt:\n%s", sys)
	}
}

func TestRecipeParamsCancelLeavesAPlainSession(t *testing.T) {
	r, id := recipeRig(t, askCaps)
	rep, asked := newRecipeSession(t, r, map[string]any{"recipeId": id}, `{"action":"cancel","values":{}}`)
	sid := sessionIDOf(t, rep)
	if asked == nil {
		t.Fatal("request-params was not sent")
	}
	if strings.Contains(string(asked), "parameterScopeId") {
		t.Fatalf("parameterScopeId sent without one in session/new: %s", asked)
	}
	got := r.onDisk(t, sid)
	if len(got.Recipe) != 0 && string(got.Recipe) != "null" || len(got.UserRecipeValues) != 0 {
		t.Fatalf("cancelled recipe stored: %s %v", got.Recipe, got.UserRecipeValues)
	}
}

func TestRecipeParamsSubmitWithoutAValueFails(t *testing.T) {
	r, id := recipeRig(t, askCaps)
	rep, _ := newRecipeSession(t, r, map[string]any{"recipeId": id}, `{"action":"submit","values":{}}`)
	expectNoSessionLeft(t, r, rep, "recipe still missing required parameters")
}

func TestRecipeParamsClientErrorFailsSessionNew(t *testing.T) {
	r, id := recipeRig(t, askCaps)
	rep, _ := newRecipeSession(t, r, map[string]any{"recipeId": id}, `{"code":-32601,"message":"Method not found"}`)
	expectNoSessionLeft(t, r, rep, "asking the client for recipe parameters")
}

// expectNoSessionLeft checks that session/new failed with want and that
// the session it had made was deleted.
func expectNoSessionLeft(t *testing.T, r *desktopRig, rep clientFrame, want string) {
	t.Helper()
	var e struct {
		Code int64  `json:"code"`
		Data string `json:"data"`
	}
	mustUnmarshal(t, rep.Error, &e)
	if !strings.Contains(string(rep.Error), want) {
		t.Fatalf("error %s, want %q", rep.Error, want)
	}
	if wantCode := map[bool]int64{true: -32602, false: -32603}[want == "recipe still missing required parameters"]; e.Code != wantCode {
		t.Fatalf("error %s, want code %d", rep.Error, wantCode)
	}
	list := r.callRaw(t, 8, "session/list", map[string]any{})
	if list.Error != nil || strings.Contains(string(list.Result), `"sessionId"`) {
		t.Fatalf("the failed session was kept: %s", list.Result)
	}
}

func TestRecipeParamsNotAskedWithoutTheCapability(t *testing.T) {
	r, id := recipeRig(t, `{}`)
	rep, _ := newRecipeSession(t, r, map[string]any{"recipeId": id}, "")
	got := r.onDisk(t, sessionIDOf(t, rep))
	if len(got.Recipe) != 0 && string(got.Recipe) != "null" {
		t.Fatalf("recipe applied with a missing value: %s", got.Recipe)
	}
}

func TestRecipeDeeplinkWithValuesStartsAtOnce(t *testing.T) {
	r, _ := recipeRig(t, askCaps)
	tmpl, err := recipe.FromContent(greeterRecipe)
	if err != nil {
		t.Fatal(err)
	}
	link, err := recipe.DeeplinkURL(tmpl)
	if err != nil {
		t.Fatal(err)
	}
	rep, _ := newRecipeSession(t, r, map[string]any{"recipeDeeplink": link + "&name=Bo"}, "")
	got := r.onDisk(t, sessionIDOf(t, rep))
	if !strings.Contains(string(got.Recipe), "Always greet Bo in English.") || got.UserRecipeValues["name"] != "Bo" {
		t.Fatalf("deeplink recipe not applied with its link value: %s %v", got.Recipe, got.UserRecipeValues)
	}
}

func TestRecipeMetaErrors(t *testing.T) {
	r, _ := recipeRig(t, askCaps)
	for meta, want := range map[string]string{
		`{"recipeId":"0000000000000000"}`:   "recipe not found: 0000000000000000",
		`{"recipeId":7}`:                    "_meta.recipeId must be a string",
		`{"recipeDeeplink":"goose://nope"}`: "recipeDeeplink",
	} {
		var m map[string]any
		mustUnmarshal(t, []byte(meta), &m)
		rep, _ := newRecipeSession(t, r, m, "")
		if !strings.Contains(string(rep.Error), want) || !strings.Contains(string(rep.Error), "-32602") {
			t.Errorf("%s: error %s, want -32602 with %q", meta, rep.Error, want)
		}
	}
}
