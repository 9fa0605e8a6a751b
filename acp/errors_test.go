package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/unavailable"
)

// The one table: what a client reads for each kind of core failure, as
// the wire JSON of the error object.
func TestErrorTableOnTheWire(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"a session the agent has not loaded is a resource to load first",
			fmt.Errorf("%w: s1", agent.ErrSessionNotLoaded),
			`{"code":-32002,"message":"Resource not found","data":"session not loaded: s1"}`},
		{"a missing session", fmt.Errorf("%w: s1", session.ErrNotFound),
			`{"code":-32002,"message":"Resource not found","data":"` + session.ErrNotFound.Error() + `: s1"}`},
		{"a busy session", agent.ErrSessionBusy,
			`{"code":-32602,"message":"Invalid params","data":"` + agent.ErrSessionBusy.Error() + `"}`},
		{"a conflict", fmt.Errorf("steering: %w", agent.ErrNoActiveRun),
			`{"code":-32602,"message":"Invalid params","data":"steering: ` + agent.ErrNoActiveRun.Error() + `"}`},
		{"bad input with its detail, without the sentinel's words",
			fmt.Errorf("renaming: %w", errkind.Wrapf(agent.ErrInvalidSessionName, "Session name cannot be empty")),
			`{"code":-32602,"message":"Invalid params","data":"Session name cannot be empty"}`},
		{"a recipe that does not validate", mustFail(recipe.FromContent("[]")),
			`{"code":-32602,"message":"Invalid params","data":"invalid type: expected struct Recipe"}`},
		{"no provider configured", fmt.Errorf("starting: %w", agent.ErrNoProvider),
			`{"code":-32000,"message":"Authentication required: starting: ` + agent.ErrNoProvider.Error() + `","data":"starting: ` + agent.ErrNoProvider.Error() + `"}`},
		{"a rejected key", &provider.Error{Kind: provider.KindAuth, Provider: "openai", StatusCode: 401, Message: "bad key"},
			`{"code":-32000,"message":` + quote("Authentication required: "+(&provider.Error{Kind: provider.KindAuth, Provider: "openai", StatusCode: 401, Message: "bad key"}).Error()) +
				`,"data":` + quote((&provider.Error{Kind: provider.KindAuth, Provider: "openai", StatusCode: 401, Message: "bad key"}).Error()) + `}`},
		{"a cancelled request", fmt.Errorf("turn: %w", context.Canceled),
			`{"code":-32800,"message":"Request cancelled","data":"turn: context canceled"}`},
		{"a feature goose-acp does not ship", unavailable.Dictation.Error(),
			`{"code":-32050,"message":` + quote(unavailable.Dictation.Message()) + `,"data":{"feature":"Dictation"}}`},
		{"anything else", errors.New("disk full"),
			`{"code":-32603,"message":"Internal error","data":"disk full"}`},
		{"the face's own refusal", invalidParams("cwd must be an absolute path: %q", "x"),
			`{"code":-32602,"message":"Invalid params","data":"cwd must be an absolute path: \"x\""}`},
	}
	for _, c := range cases {
		got, err := json.Marshal(toRPCError(c.err))
		if err != nil {
			t.Fatal(err)
		}
		if !jsonEqual(string(got), c.want) {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

// A name in params that names nothing is -32602 with core's detail; a
// missing session stays -32002.
func TestBadNameIsInvalidParams(t *testing.T) {
	_, err := agent.PromptTemplate("", "nope.md")
	got, _ := json.Marshal(toRPCError(badName(err)))
	if want := `{"code":-32602,"message":"Invalid params","data":"Prompt template 'nope.md' not found"}`; !jsonEqual(string(got), want) {
		t.Errorf("got %s", got)
	}
	if e := toRPCError(storeErr(fmt.Errorf("%w: s1", session.ErrNotFound), "s1")); e.Code != CodeResourceNotFound {
		t.Errorf("session: %d", e.Code)
	}
}

func mustFail[T any](_ T, err error) error { return err }

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
