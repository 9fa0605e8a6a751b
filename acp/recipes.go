package acp

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"path/filepath"
	"strings"

	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/schedule"
)

// Goose Desktop's recipe methods (_goose/unstable/recipes/*) over
// core/recipe (codec, parser, Library) and the scheduler. Recipe DTOs keep
// goose's snake_case, which is recipe.Recipe's own JSON.

// recipesAPI answers the recipe methods: the codec and parser of
// core/recipe, the saved-recipe library and the schedules of its recipes.
type recipesAPI struct {
	library   *recipe.Library
	scheduler *schedule.Scheduler
}

func (a *recipesAPI) methods() map[string]RequestHandler {
	const p = "_goose/unstable/recipes/"
	table := map[string]RequestHandler{
		p + "encode":  typed(a.encode),
		p + "decode":  typed(a.decode),
		p + "scan":    typed(a.scan),
		p + "parse":   typed(a.parse),
		p + "to-yaml": typed(a.toYAML),
	}
	maps.Copy(table, gated(a.check, map[string]RequestHandler{
		p + "list":          typed(a.list),
		p + "delete":        typed(a.delete),
		p + "schedule":      typed(a.schedule),
		p + "slash-command": typed(a.setSlashCommand),
		p + "save":          typed(a.save),
	}))
	return table
}

// errNoRecipeLibrary: a server built without a config directory.
var errNoRecipeLibrary = errors.New("the recipe library is not available in this goose-acp server (no config directory)")

func (a *recipesAPI) check() error {
	if a.library == nil {
		return errNoRecipeLibrary
	}
	return nil
}

// recipeLibrary is the library of o: Options.Recipes, else
// <config>/recipes (nil without a config).
func recipeLibrary(o Options) *recipe.Library {
	if o.Recipes != nil {
		return o.Recipes
	}
	if o.Settings.Config == nil {
		return nil
	}
	return &recipe.Library{Dir: filepath.Join(o.Settings.configDir(), "recipes"), Config: o.Settings.Config, Logger: o.Logger}
}

type recipeRequest struct {
	Recipe json.RawMessage `json:"recipe"`
}

// parse reads the request's RecipeDto; a bad one is invalid params.
func (r recipeRequest) parse() (*recipe.Recipe, error) {
	if len(r.Recipe) == 0 || string(r.Recipe) == "null" {
		return nil, invalidParams("recipe is required")
	}
	rec, err := recipe.FromJSON(r.Recipe)
	if err != nil {
		return nil, invalidParams("recipe: %v", err)
	}
	return rec, nil
}

type recipeResponse struct {
	Recipe *recipe.Recipe `json:"recipe"`
}

func (a *recipesAPI) encode(_ context.Context, req recipeRequest) (map[string]string, error) {
	rec, err := req.parse()
	if err != nil {
		return nil, err
	}
	link, err := recipe.Encode(rec)
	if err != nil {
		return nil, invalidParams("recipe: %v", err)
	}
	return map[string]string{"deeplink": link}, nil
}

func (a *recipesAPI) decode(_ context.Context, req struct {
	Deeplink string `json:"deeplink"`
}) (recipeResponse, error) {
	rec, err := recipe.Decode(req.Deeplink)
	if err != nil {
		return recipeResponse{}, invalidParams("deeplink: %v", err)
	}
	return recipeResponse{Recipe: rec}, nil
}

func (a *recipesAPI) scan(_ context.Context, req recipeRequest) (map[string]bool, error) {
	if _, err := req.parse(); err != nil {
		return nil, err
	}
	return map[string]bool{"has_security_warnings": recipe.ScanJSON(req.Recipe)}, nil
}

func (a *recipesAPI) list(context.Context, struct{}) (map[string][]recipe.Manifest, error) {
	all, err := a.library.List()
	if err != nil {
		return nil, err
	}
	out := make([]recipe.Manifest, 0, len(all))
	for _, r := range all {
		out = append(out, r.Manifest(a.scheduler.RecipeCron(r.ID)))
	}
	return map[string][]recipe.Manifest{"recipes": out}, nil
}

// libraryErr words an unknown id as goose's ACP does (invalid params).
func libraryErr(err error, id string) error {
	if errkind.Is(err, errkind.NotFound) {
		return invalidParams("recipe not found: %s", id)
	}
	return err
}

type recipeIDRequest struct {
	ID           string  `json:"id"`
	CronSchedule *string `json:"cron_schedule"`
	SlashCommand *string `json:"slash_command"`
}

func (a *recipesAPI) delete(_ context.Context, req recipeIDRequest) (struct{}, error) {
	return struct{}{}, libraryErr(a.library.Delete(req.ID), req.ID)
}

// schedule attaches, changes or (null cron) detaches the
// recipe's job.
func (a *recipesAPI) schedule(_ context.Context, req recipeIDRequest) (struct{}, error) {
	if a.scheduler == nil {
		return struct{}{}, errNoScheduler()
	}
	rec, err := a.library.Find(req.ID)
	if err != nil {
		return struct{}{}, libraryErr(err, req.ID)
	}
	cron := ""
	if req.CronSchedule != nil {
		cron = strings.TrimSpace(*req.CronSchedule)
	}
	if err := a.scheduler.SetRecipeSchedule(req.ID, rec.FilePath, cron); err != nil {
		return struct{}{}, err
	}
	return struct{}{}, nil
}

func (a *recipesAPI) setSlashCommand(_ context.Context, req recipeIDRequest) (struct{}, error) {
	cmd := ""
	if req.SlashCommand != nil {
		cmd = *req.SlashCommand
	}
	return struct{}{}, libraryErr(a.library.SetSlashCommand(req.ID, cmd), req.ID)
}

type saveRecipeRequest struct {
	Recipe json.RawMessage `json:"recipe"`
	ID     *string         `json:"id"`
}

// hiddenCharsRefusal is goose's text for a recipe it will not save.
const hiddenCharsRefusal = "This recipe contains hidden characters that could be malicious. Please remove them before trying to save."

func (a *recipesAPI) save(_ context.Context, req saveRecipeRequest) (map[string]string, error) {
	rec, err := recipeRequest{req.Recipe}.parse()
	if err != nil {
		return nil, err
	}
	if rec.HasSecurityWarnings() {
		return nil, invalidParams(hiddenCharsRefusal)
	}
	id := ""
	if req.ID != nil {
		id = *req.ID
	}
	path, err := a.library.Save(rec, id)
	if err != nil {
		return nil, libraryErr(err, id)
	}
	return map[string]string{"id": recipe.LibraryID(path), "file_name": filepath.Base(path), "file_path": path}, nil
}

func (a *recipesAPI) parse(_ context.Context, req struct {
	Content string `json:"content"`
}) (recipeResponse, error) {
	rec, err := recipe.FromContent(req.Content)
	if err != nil {
		return recipeResponse{}, invalidParams("recipe: %v", err)
	}
	return recipeResponse{Recipe: rec}, nil
}

func (a *recipesAPI) toYAML(_ context.Context, req recipeRequest) (map[string]string, error) {
	rec, err := req.parse()
	if err != nil {
		return nil, err
	}
	y, err := recipe.ToYAML(rec)
	if err != nil {
		return nil, invalidParams("recipe: %v", err)
	}
	return map[string]string{"yaml": y}, nil
}
