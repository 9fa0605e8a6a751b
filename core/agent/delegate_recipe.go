package agent

import (
	"fmt"

	"github.com/goose-acp/goose-acp/core/extension/platform"
	"github.com/goose-acp/goose-acp/core/recipe"
)

// agentDefaultPrompt is the task of an agent delegated without instructions.
const agentDefaultPrompt = "Proceed with your expertise to produce a useful result."

// delegateRecipe is goose's build_delegate_recipe: ad hoc from the
// instructions, or from the named source, then the reference context.
func (sa subagents) delegateRecipe(parent *sessionState, wd string, p platform.DelegateParams) (delegateRecipe, error) {
	var (
		r   delegateRecipe
		err error
	)
	if p.Source != nil {
		r, err = sa.sourceRecipe(parent, wd, *p.Source, p)
	} else {
		r = delegateRecipe{Title: "Delegated Task", Prompt: *p.Instructions}
	}
	if err != nil {
		return r, err
	}
	if p.Context != nil {
		ctx := "# Reference Context\n\n" + *p.Context
		if r.Instructions != "" {
			ctx += "\n\n# Task Instructions\n\n" + r.Instructions
		}
		r.Instructions = ctx
	}
	return r, nil
}

func (sa subagents) sourceRecipe(parent *sessionState, wd, name string, p platform.DelegateParams) (delegateRecipe, error) {
	src, ok := platform.FindSource(sa.a.deps(parent).SessionSources(parent.id, wd), name)
	if !ok {
		return delegateRecipe{}, fmt.Errorf("Source '%s' not found", name)
	}
	var r delegateRecipe
	switch src.Kind {
	case platform.KindAgent:
		r = delegateRecipe{Title: "Agent: " + src.Name, Instructions: src.Content}
		if src.Model != "" {
			m := src.Model
			r.Model, r.Provider, r.Temperature = &m, p.Provider, p.Temperature
		}
		if p.Instructions == nil {
			r.Prompt = agentDefaultPrompt
		}
	default:
		values := map[string]string{}
		if src.Sub != nil {
			for k, v := range src.Sub.Values {
				values[k] = v
			}
		}
		for k, v := range p.Parameters {
			if _, fixed := values[k]; !fixed || src.Sub == nil {
				values[k] = stringifyParam(v)
			}
		}
		rec, err := recipe.LoadFile(src.Path, paramsByKey(values), nil)
		if err != nil {
			return delegateRecipe{}, fmt.Errorf("Failed to build recipe: %w", err)
		}
		r = fromRecipe(rec)
	}
	if p.Instructions != nil {
		if r.Prompt != "" {
			r.Prompt += "\n\n" + *p.Instructions
		} else {
			r.Prompt = *p.Instructions
		}
	}
	return r, nil
}

func fromRecipe(rec *recipe.Recipe) delegateRecipe {
	r := delegateRecipe{Title: rec.Title, ResponseSchema: rec.ResponseSchema()}
	if rec.Instructions != nil {
		r.Instructions = *rec.Instructions
	}
	if rec.Prompt != nil {
		r.Prompt = *rec.Prompt
	}
	if s := rec.Settings; s != nil {
		r.Provider, r.Model, r.Temperature, r.MaxTurns = s.GooseProvider, s.GooseModel, s.Temperature, s.MaxTurns
	}
	return r
}
