package agent

import (
	"context"
	"fmt"

	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/session"
)

// RecipeParamsToAsk are the parameters of an unrendered recipe a user has
// to give before it can run: required or user_prompt ones with neither a
// default nor a value in given (goose asks for exactly these; an optional
// one always has a default, the validator insists).
func RecipeParamsToAsk(tmpl *recipe.Recipe, given map[string]string) []recipe.Parameter {
	var ask []recipe.Parameter
	for _, p := range tmpl.Parameters {
		if _, ok := given[p.Key]; ok {
			continue
		}
		if p.Default == nil && (p.Requirement == recipe.Required || p.Requirement == recipe.UserPrompt) {
			ask = append(ask, p)
		}
	}
	return ask
}

// RenderRecipe renders an unrendered recipe (a saved one or a decoded
// deeplink) with values; dir is where its relative paths resolve. A value
// still missing is a *recipe.MissingParamsError.
func RenderRecipe(tmpl *recipe.Recipe, dir string, values map[string]string) (*recipe.Recipe, error) {
	b, err := recipe.MarshalCompact(tmpl)
	if err != nil {
		return nil, fmt.Errorf("encoding recipe %q: %w", tmpl.Title, err)
	}
	return recipe.Build(string(b), dir, paramsByKey(values), nil)
}

// Apply makes a just-started session run rendered: the recipe and
// values go on its row (as UseRecipe keeps them at start) and the session
// is loaded again with opts (the options it was started with: its
// builtins and the client's extensions) plus the recipe, so its loop,
// extensions and sub-recipe tools follow it. It returns the new load's
// extension results.
func (svc Recipes) Apply(ctx context.Context, id string, rendered *recipe.Recipe, values map[string]string, opts StartOptions) ([]extension.Result, error) {
	b, err := recipe.MarshalCompact(rendered)
	if err != nil {
		return nil, errkind.Wrapf(ErrRecipeApply, "%w", err)
	}
	u := session.Update{Recipe: b}
	if len(values) > 0 {
		u.UserRecipeValues = values
	}
	if err := svc.a.opts.Store.Update(ctx, id, u); err != nil {
		return nil, fmt.Errorf("recording the recipe of session %s: %w", id, err)
	}
	opts.UseRecipe(rendered, nil)
	opts.StoredRecipe = nil
	_ = svc.a.CloseSession(id)
	_, results, err := svc.a.ResumeSession(ctx, id, opts)
	return results, err
}
