package agent

import (
	"context"
	"fmt"
	"sort"

	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/session"
)

// ErrRecipeApply wraps a stored recipe that cannot be rendered again.
var ErrRecipeApply = errkind.New(errkind.NotReady, "failed to apply recipe")

// RecipeFrom is what the loop needs from a rendered recipe; every face
// starts recipes through it, so each gets the same instructions, response
// schema (none for an absent or null one), turn limit, extensions,
// sub-recipes and retry checks.
func RecipeFrom(r *recipe.Recipe) *Recipe {
	out := &Recipe{Title: r.Title, ResponseSchema: r.ResponseSchema(), Extensions: r.Extensions,
		SubRecipes: r.SubRecipes, Retry: r.Retry}
	if r.Instructions != nil {
		out.Instructions = *r.Instructions
	}
	if r.Settings != nil && r.Settings.MaxTurns != nil {
		out.MaxTurns = *r.Settings.MaxTurns
	}
	return out
}

// UseRecipe makes the session run r: its loop settings (RecipeFrom), its
// settings.temperature unless one is set, and r stored on the session row
// (goose's session.recipe) with values as its user_recipe_values.
func (o *StartOptions) UseRecipe(r *recipe.Recipe, values []recipe.Param) {
	o.Recipe = RecipeFrom(r)
	if o.Temperature == nil && r.Settings != nil && r.Settings.Temperature != nil {
		o.Temperature = r.Settings.Temperature
	}
	o.StoredRecipe, o.RecipeValues = r, values
}

// recordStart writes what StartOptions asks to keep on a new session row:
// a user-set name, the recipe, its values and the schedule id.
func (svc Recipes) recordStart(ctx context.Context, sess *session.Session, opts StartOptions) error {
	var u session.Update
	if opts.Name != "" {
		set := true
		u.UserSetName = &set
	}
	if opts.ScheduleID != "" {
		sid := opts.ScheduleID
		u.ScheduleID = &sid
	}
	if opts.StoredRecipe != nil {
		b, err := recipe.MarshalCompact(opts.StoredRecipe)
		if err != nil {
			return err
		}
		u.Recipe = b
		if len(opts.RecipeValues) > 0 {
			u.UserRecipeValues = map[string]string{}
			for _, p := range opts.RecipeValues {
				u.UserRecipeValues[p.Key] = p.Value
			}
		}
	}
	if u.UserSetName == nil && u.ScheduleID == nil && u.Recipe == nil {
		return nil
	}
	if err := svc.a.opts.Store.Update(ctx, sess.ID, u); err != nil {
		return fmt.Errorf("recording session %s: %w", sess.ID, err)
	}
	sess.UserSetName = sess.UserSetName || opts.Name != ""
	return nil
}

// storedRecipe renders the recipe stored on a session with its stored
// values; nil when the session has none.
func storedRecipe(sess session.Session, values map[string]string) (*recipe.Recipe, error) {
	if !hasRecipe(sess) {
		return nil, nil
	}
	return recipe.Build(string(sess.Recipe), sess.WorkingDir, paramsByKey(values), nil)
}

// paramsByKey are values as recipe parameters, ordered by key.
func paramsByKey(values map[string]string) []recipe.Param {
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	params := make([]recipe.Param, 0, len(keys))
	for _, k := range keys {
		params = append(params, recipe.Param{Key: k, Value: values[k]})
	}
	return params
}

func hasRecipe(sess session.Session) bool {
	return len(sess.Recipe) > 0 && string(sess.Recipe) != "null"
}

// SetValues stores the values of the session's recipe parameters
// and returns the recipe rendered with them.
func (svc Recipes) SetValues(ctx context.Context, id string, values map[string]string) (*recipe.Recipe, error) {
	sess, err := svc.a.opts.Store.Get(ctx, id, false)
	if err != nil {
		return nil, err
	}
	if !hasRecipe(sess) {
		return nil, errkind.Wrapf(ErrNoRecipe, "Session %s has no recipe", id)
	}
	if err := svc.a.opts.Store.Update(ctx, id, session.Update{UserRecipeValues: values}); err != nil {
		return nil, err
	}
	rec, err := storedRecipe(sess, values)
	if err != nil {
		return nil, fmt.Errorf("Failed to render recipe: %w", err)
	}
	return rec, nil
}

// Reload unloads the session and loads it again with its saved
// extensions and its stored recipe rendered anew (goosed's restart and
// update_from_session); the faces that held it still hold it.
func (svc Sessions) Reload(ctx context.Context, id string) ([]extension.Result, error) {
	sess, err := svc.a.opts.Store.Get(ctx, id, false)
	if err != nil {
		return nil, err
	}
	opts := StartOptions{UseConfiguredExtensions: true}
	rec, err := storedRecipe(sess, sess.UserRecipeValues)
	if err != nil {
		return nil, errkind.Wrapf(ErrRecipeApply, "%w", err)
	}
	if rec != nil {
		opts.UseRecipe(rec, nil)
		opts.StoredRecipe = nil
	}
	holders := svc.holders(id)
	_ = svc.a.CloseSession(id)
	_, results, err := svc.a.ResumeSession(ctx, id, opts)
	if err == nil {
		svc.rehold(id, holders)
	}
	return results, err
}

// resumeRecipe is the stored recipe a resumed session runs again when the
// caller brings none; one that no longer renders is logged and skipped so
// the session still opens.
func (svc Recipes) resumeRecipe(sess session.Session, opts *StartOptions) {
	if opts.Recipe != nil {
		return
	}
	rec, err := storedRecipe(sess, sess.UserRecipeValues)
	if err != nil {
		svc.a.log.Warn("stored recipe not applied on resume", "session", sess.ID, "error", err)
		return
	}
	if rec != nil {
		opts.UseRecipe(rec, nil)
		opts.StoredRecipe = nil
	}
}
