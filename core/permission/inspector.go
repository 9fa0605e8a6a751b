package permission

import (
	"context"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// Inspector checks a batch of tool calls before they run. Inspectors are
// run in goose's order (security, permission, repetition); an inspector
// error is logged by the caller and the inspector skipped.
type Inspector interface {
	Name() string
	Enabled() bool
	Inspect(ctx context.Context, calls []Call, history []conversation.Message) ([]Result, error)
}

// InspectorName values.
const (
	SecurityInspectorName   = "security"
	PermissionInspectorName = "permission"
	RepetitionInspectorName = "repetition"
)

// Judge is the smart-approve LLM check: it returns the ids of the calls it
// considers read-only. Any error means "none are read-only".
type Judge func(ctx context.Context, calls []Call) (map[string]bool, error)

// PermissionInspector applies Evaluate to every call, consulting Store and,
// in smart_approve mode, Judge. Only negative judge answers are cached
// (smart_approve.ask_before), as goose does.
type PermissionInspector struct {
	Mode  Mode
	Store Store
	Judge Judge
}

func (p *PermissionInspector) Name() string  { return PermissionInspectorName }
func (p *PermissionInspector) Enabled() bool { return true }

// Inspect implements Inspector.
func (p *PermissionInspector) Inspect(ctx context.Context, calls []Call, _ []conversation.Message) ([]Result, error) {
	facts := make([]Facts, len(calls))
	var ask []Call
	for i, c := range calls {
		facts[i] = Facts{Mode: p.Mode, ReadOnly: c.ReadOnly, Kind: c.Kind}
		if p.Store != nil && p.Mode != ModeAuto && p.Mode != ModeChat {
			facts[i].User, facts[i].Smart = storedLevel(p.Store.User, c), storedLevel(p.Store.Smart, c)
		}
		if Evaluate(c.Name, facts[i]).AskLLM {
			ask = append(ask, c)
		}
	}
	readOnly := p.judge(ctx, ask)
	out := make([]Result, 0, len(calls))
	for i, c := range calls {
		v := Evaluate(c.Name, facts[i])
		if v.AskLLM {
			ro := readOnly[c.ID]
			facts[i].LLMReadOnly = &ro
			if !ro && p.Store != nil {
				_ = p.Store.SetSmart(c.Name, LevelAskBefore)
			}
			v = Evaluate(c.Name, facts[i])
		}
		if v.Skip {
			continue
		}
		out = append(out, Result{RequestID: c.ID, Action: v.Action, Prompt: v.Prompt, Reason: v.Reason, Confidence: 1, Inspector: PermissionInspectorName})
	}
	return out, nil
}

// storedLevel is the call's level under its public name, else under its
// prefixed name (a rule saved before the names went bare).
func storedLevel(lookup func(string) Level, c Call) Level {
	l := lookup(c.Name)
	if l == LevelNone && c.Prefixed != "" {
		l = lookup(c.Prefixed)
	}
	return l
}

func (p *PermissionInspector) judge(ctx context.Context, calls []Call) map[string]bool {
	if len(calls) == 0 || p.Judge == nil {
		return nil
	}
	ro, err := p.Judge(ctx, calls)
	if err != nil {
		return nil
	}
	return ro
}

// InspectAll runs the enabled inspectors and merges their results.
// onError receives inspector failures (which are otherwise ignored).
func InspectAll(ctx context.Context, inspectors []Inspector, calls []Call, history []conversation.Message, onError func(name string, err error)) Split {
	var perm, others []Result
	havePerm := false
	for _, in := range inspectors {
		if !in.Enabled() {
			continue
		}
		res, err := in.Inspect(ctx, calls, history)
		if err != nil {
			if onError != nil {
				onError(in.Name(), err)
			}
			continue
		}
		if in.Name() == PermissionInspectorName {
			havePerm = true
			perm = append(perm, res...)
		} else {
			others = append(others, res...)
		}
	}
	if !havePerm {
		perm = nil
	}
	return Merge(calls, perm, others)
}
