package httpapi

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"path/filepath"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/schedule"
)

// recipesAPI answers /recipes/*: the codec and parser of core/recipe, the
// saved-recipe library, its schedules and slash commands, and a recipe
// made from a session (agent.Recipes().Create).
type recipesAPI struct {
	library   *recipe.Library
	scheduler *schedule.Scheduler
	// hasConfig: slash commands live in config.yaml.
	hasConfig bool
	recipes   agent.Recipes
	log       *slog.Logger
}

func (a *recipesAPI) routes() []route {
	return []route{
		{"GET", "/recipes/list", 0, noInput(a.listRecipes), nil},
		{"POST", "/recipes/parse", 0, withBody(a.parseRecipe), nil},
		{"POST", "/recipes/encode", 0, withBody(a.encodeRecipe), nil},
		{"POST", "/recipes/decode", 0, withBody(a.decodeRecipe), nil},
		{"POST", "/recipes/to-yaml", 0, withBody(a.recipeToYAML), nil},
		{"POST", "/recipes/scan", 0, withBody(a.scanRecipe), nil},
		{"POST", "/recipes/save", 0, withBody(a.saveRecipe), nil},
		{"POST", "/recipes/delete", 0, withBody(a.deleteRecipe), nil},
		{"POST", "/recipes/schedule", 0, withBody(a.scheduleRecipe), nil},
		{"POST", "/recipes/slash-command", 0, withBody(a.recipeSlashCommand), nil},
		{"POST", "/recipes/create", 0, withBody(a.createRecipe), nil},
	}
}

func (a *recipesAPI) manifest(r recipe.Saved) recipe.Manifest {
	return r.Manifest(a.scheduler.RecipeCron(r.ID))
}

func (a *recipesAPI) listRecipes(*http.Request) (reply, error) {
	all, err := a.library.List()
	if err != nil {
		return reply{}, err
	}
	out := []recipe.Manifest{}
	for _, r := range all {
		out = append(out, a.manifest(r))
	}
	return ok(map[string]any{"manifests": out}), nil
}

type recipeBody struct {
	Recipe json.RawMessage `json:"recipe"`
}

func (q recipeBody) check() error {
	if len(q.Recipe) == 0 || string(q.Recipe) == "null" {
		return errors.New("missing field `recipe`")
	}
	return nil
}

func (q recipeBody) parse() (*recipe.Recipe, error) {
	rec, err := recipe.FromJSON(q.Recipe)
	if err != nil {
		return nil, badRequest("Invalid recipe: %w", err)
	}
	return rec, nil
}

type parseRecipeRequest struct {
	Content *string `json:"content"`
}

func (q parseRecipeRequest) check() error {
	if q.Content == nil {
		return errors.New("missing field `content`")
	}
	return nil
}

func (a *recipesAPI) parseRecipe(_ *http.Request, q parseRecipeRequest) (reply, error) {
	rec, err := recipe.FromContent(*q.Content)
	if err != nil {
		return reply{}, badRequest("Invalid recipe format: %w", err)
	}
	return ok(map[string]any{"recipe": rec}), nil
}

func (a *recipesAPI) encodeRecipe(_ *http.Request, q recipeBody) (reply, error) {
	rec, err := q.parse()
	if err != nil {
		return reply{}, err
	}
	link, err := recipe.Encode(rec)
	if err != nil {
		return reply{}, badRequest("Failed to encode recipe: %w", err)
	}
	return ok(map[string]string{"deeplink": link}), nil
}

type decodeRecipeRequest struct {
	Deeplink string `json:"deeplink"`
}

func (a *recipesAPI) decodeRecipe(_ *http.Request, q decodeRecipeRequest) (reply, error) {
	rec, err := recipe.Decode(q.Deeplink)
	if err != nil {
		return reply{}, badRequest("Failed to decode recipe: %w", err)
	}
	return ok(map[string]any{"recipe": rec}), nil
}

func (a *recipesAPI) recipeToYAML(_ *http.Request, q recipeBody) (reply, error) {
	rec, err := q.parse()
	if err != nil {
		return reply{}, err
	}
	y, err := recipe.ToYAML(rec)
	if err != nil {
		return reply{}, badRequest("Failed to convert recipe to YAML: %w", err)
	}
	return ok(map[string]string{"yaml": y}), nil
}

// scanRecipe flags invisible characters that can hide instructions
// (Unicode tags, zero-width and bidi controls).
func (a *recipesAPI) scanRecipe(_ *http.Request, q recipeBody) (reply, error) {
	return ok(map[string]bool{"has_security_warnings": recipe.ScanJSON(q.Recipe)}), nil
}

type saveRecipeRequest struct {
	Recipe json.RawMessage `json:"recipe"`
	ID     *string         `json:"id"`
}

func (q saveRecipeRequest) check() error { return recipeBody{q.Recipe}.check() }

// saveRecipe writes the recipe into the library (over the file of id when
// given) → 204 with {id, file_name, file_path}.
func (a *recipesAPI) saveRecipe(_ *http.Request, q saveRecipeRequest) (reply, error) {
	rec, err := recipeBody{q.Recipe}.parse()
	if err != nil {
		return reply{}, err
	}
	id := ""
	if q.ID != nil {
		id = *q.ID
	}
	path, err := a.library.Save(rec, id)
	if err != nil {
		return reply{}, err
	}
	return jsonStatus(http.StatusNoContent, map[string]string{"id": recipe.LibraryID(path), "file_name": filepath.Base(path), "file_path": path}), nil
}

type recipeIDRequest struct {
	ID           string  `json:"id"`
	CronSchedule *string `json:"cron_schedule"`
	SlashCommand *string `json:"slash_command"`
}

func (q recipeIDRequest) check() error { return required("id", q.ID) }

func (a *recipesAPI) deleteRecipe(_ *http.Request, q recipeIDRequest) (reply, error) {
	if err := a.library.Delete(q.ID); err != nil {
		return reply{}, err
	}
	return noBody(http.StatusNoContent), nil
}

// scheduleRecipe attaches (cron_schedule set) or detaches a schedule; the
// job id is the recipe id.
func (a *recipesAPI) scheduleRecipe(_ *http.Request, q recipeIDRequest) (reply, error) {
	if a.scheduler == nil {
		return reply{}, errSchedulerUnavailable
	}
	rec, err := a.library.Find(q.ID)
	if err != nil {
		return reply{}, err
	}
	cron := ""
	if q.CronSchedule != nil {
		cron = *q.CronSchedule
	}
	if err := a.scheduler.SetRecipeSchedule(q.ID, rec.FilePath, cron); err != nil {
		return reply{}, err
	}
	return noBody(http.StatusOK), nil
}

// recipeSlashCommand binds (or with an empty command unbinds) a slash
// command to a saved recipe.
func (a *recipesAPI) recipeSlashCommand(_ *http.Request, q recipeIDRequest) (reply, error) {
	if !a.hasConfig {
		return reply{}, errNoConfig
	}
	cmd := ""
	if q.SlashCommand != nil {
		cmd = *q.SlashCommand
	}
	if err := a.library.SetSlashCommand(q.ID, cmd); err != nil {
		return reply{}, err
	}
	return noBody(http.StatusOK), nil
}
