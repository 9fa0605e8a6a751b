package acp

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/deeplink"
)

// A Goose Desktop "New chat" from a recipe is session/new with _meta
// {recipeId | recipeDeeplink, recipeParameterScopeId}. A recipe whose
// parameters all have values starts the session with it at once. One
// that needs values (agent.RecipeParamsToAsk) is asked for with
// RecipeParamsMethod when the client's initialize set
// _meta.goose.recipeParameterRequests; submit applies the recipe with the
// values, cancel leaves the session plain. Clients without that
// capability get the session without the recipe (goose-acp's behaviour
// before Desktop recipes; goose itself refuses the session/new).

// RecipeParamsMethod is the agent→client request for recipe values.
const RecipeParamsMethod = "_goose/unstable/session/recipe/request-params"

type requestRecipeParams struct {
	SessionID        string             `json:"sessionId"`
	Parameters       []recipe.Parameter `json:"parameters"`
	ParameterScopeID *string            `json:"parameterScopeId,omitempty"`
}

type recipeParamsResponse struct {
	Action string            `json:"action"`
	Values map[string]string `json:"values"`
}

// metaRecipe is the unrendered recipe a session/new names, where its
// relative paths resolve, the values the link already carried, and the
// client's scope id for the parameter dialog.
type metaRecipe struct {
	tmpl   *recipe.Recipe
	dir    string
	values map[string]string
	scope  string
	ask    []recipe.Parameter
}

// recipeFromMeta reads _meta.recipeDeeplink or _meta.recipeId; nil when
// neither is set.
func (a *sessionsAPI) recipeFromMeta(meta Meta, cwd string) (*metaRecipe, error) {
	link, err := metaString(meta, "recipeDeeplink")
	if err != nil {
		return nil, err
	}
	id, err := metaString(meta, "recipeId")
	if err != nil {
		return nil, err
	}
	scope, err := metaString(meta, "recipeParameterScopeId")
	if err != nil {
		return nil, err
	}
	var mr *metaRecipe
	switch {
	case link != "":
		mr, err = decodeRecipeLink(link, cwd)
	case id != "":
		mr, err = a.savedRecipe(id)
	default:
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	mr.scope = scope
	mr.ask = agent.RecipeParamsToAsk(mr.tmpl, mr.values)
	return mr, nil
}

func metaString(meta Meta, key string) (string, error) {
	v, ok := meta[key]
	if !ok || v == nil {
		return "", nil
	}
	str, ok := v.(string)
	if !ok {
		return "", invalidParams("_meta.%s must be a string", key)
	}
	return str, nil
}

// decodeRecipeLink takes a goose://recipe link (its URL parameters become
// values) or the bare config payload.
func decodeRecipeLink(link, cwd string) (*metaRecipe, error) {
	if !strings.HasPrefix(link, "goose://") {
		r, err := recipe.Decode(link)
		if err != nil {
			return nil, invalidParams("recipeDeeplink: %v", err)
		}
		return &metaRecipe{tmpl: r, dir: cwd}, nil
	}
	res := deeplink.Parse(link, deeplink.Policy{})
	if res.Error != nil {
		return nil, invalidParams("recipeDeeplink: %v", res.Error)
	}
	if res.Recipe == nil {
		return nil, invalidParams("recipeDeeplink: not a recipe link: %s", link)
	}
	return &metaRecipe{tmpl: res.Recipe, dir: cwd, values: res.Parameters}, nil
}

func (a *sessionsAPI) savedRecipe(id string) (*metaRecipe, error) {
	if a.library == nil {
		return nil, errNoRecipeLibrary
	}
	saved, err := a.library.Find(id)
	if err != nil {
		return nil, fmt.Errorf("reading the recipe library: %w", libraryErr(err, id))
	}
	return &metaRecipe{tmpl: saved.Recipe, dir: filepath.Dir(saved.FilePath)}, nil
}

// startWith decides what session/new starts with: a recipe needing no
// values goes into opts; the one returned still needs asking once the
// session exists (nil when there is nothing to ask).
func (a *sessionsAPI) startWith(mr *metaRecipe, opts *agent.StartOptions) (*metaRecipe, error) {
	if mr == nil {
		return nil, nil
	}
	if len(mr.ask) == 0 {
		rendered, err := agent.RenderRecipe(mr.tmpl, mr.dir, mr.values)
		if err != nil {
			return nil, invalidParams("recipe: %v", err)
		}
		opts.UseRecipe(rendered, recipeParams(mr.values))
		return nil, nil
	}
	if !a.conn.gooseCapability("recipeParameterRequests") {
		a.log.Warn("recipe needs parameter values but the client cannot be asked; session starts without it",
			"recipe", mr.tmpl.Title, "missing", len(mr.ask))
		return nil, nil
	}
	return mr, nil
}

// askRecipeValues sends RecipeParamsMethod for a started session and, on
// submit, applies the recipe with the values; applied says whether it did
// (results are then the reloaded session's extensions).
func (a *sessionsAPI) askRecipeValues(ctx context.Context, id string, mr *metaRecipe, opts agent.StartOptions) (results []extensionResult, applied bool, err error) {
	req := requestRecipeParams{SessionID: id, Parameters: mr.ask}
	if mr.scope != "" {
		req.ParameterScopeID = &mr.scope
	}
	var resp recipeParamsResponse
	if err := a.conn.call(ctx, RecipeParamsMethod, req, &resp); err != nil {
		// The client's own error code must not become session/new's (a
		// -32601 would say session/new does not exist): keep its text only.
		var rpcErr *jsonrpc2.Error
		if errors.As(err, &rpcErr) {
			return nil, false, fmt.Errorf("asking the client for recipe parameters: %s (%d)", rpcErr.Message, rpcErr.Code)
		}
		return nil, false, fmt.Errorf("asking the client for recipe parameters: %w", err)
	}
	if resp.Action == "cancel" {
		return nil, false, nil
	}
	values := maps.Clone(mr.values)
	if values == nil {
		values = map[string]string{}
	}
	maps.Copy(values, resp.Values)
	rendered, err := agent.RenderRecipe(mr.tmpl, mr.dir, values)
	var missing *recipe.MissingParamsError
	if errors.As(err, &missing) {
		return nil, false, invalidParams("recipe still missing required parameters")
	}
	if err != nil {
		return nil, false, invalidParams("recipe: %v", err)
	}
	results, err = a.recipes.Apply(ctx, id, rendered, values, opts)
	if err != nil {
		return nil, false, fmt.Errorf("Failed to create session: %w", err)
	}
	return results, true, nil
}

// recipeAfterStart asks for mr's values on the new session; a failed ask
// deletes the session, as goose does, so no half-made chat is left.
func (a *sessionsAPI) recipeAfterStart(ctx context.Context, sess *session.Session, mr *metaRecipe, opts agent.StartOptions, started []extensionResult) ([]extensionResult, error) {
	results, applied, err := a.askRecipeValues(ctx, sess.ID, mr, opts)
	if err != nil {
		if derr := a.sessions.Delete(context.WithoutCancel(ctx), sess.ID); derr != nil {
			a.log.Warn("deleting the session of a failed recipe start", "session", sess.ID, "error", derr)
		}
		return nil, err
	}
	if !applied {
		return started, nil
	}
	return results, nil
}

func recipeParams(values map[string]string) []recipe.Param {
	out := make([]recipe.Param, 0, len(values))
	for _, k := range slices.Sorted(maps.Keys(values)) {
		out = append(out, recipe.Param{Key: k, Value: values[k]})
	}
	return out
}
