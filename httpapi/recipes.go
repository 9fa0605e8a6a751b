package httpapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"path/filepath"

	"github.com/goose-acp/goose-acp/core/recipe"
)

func (s *Server) manifest(r recipe.Saved) recipe.Manifest {
	return r.Manifest(s.opts.Scheduler.RecipeCron(r.ID))
}

func (s *Server) listRecipes(*http.Request) (reply, error) {
	all, err := s.recipes().List()
	if err != nil {
		return reply{}, err
	}
	out := []recipe.Manifest{}
	for _, r := range all {
		out = append(out, s.manifest(r))
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

func (s *Server) parseRecipe(_ *http.Request, q parseRecipeRequest) (reply, error) {
	rec, err := recipe.FromContent(*q.Content)
	if err != nil {
		return reply{}, badRequest("Invalid recipe format: %w", err)
	}
	return ok(map[string]any{"recipe": rec}), nil
}

func (s *Server) encodeRecipe(_ *http.Request, q recipeBody) (reply, error) {
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

func (s *Server) decodeRecipe(_ *http.Request, q decodeRecipeRequest) (reply, error) {
	rec, err := recipe.Decode(q.Deeplink)
	if err != nil {
		return reply{}, badRequest("Failed to decode recipe: %w", err)
	}
	return ok(map[string]any{"recipe": rec}), nil
}

func (s *Server) recipeToYAML(_ *http.Request, q recipeBody) (reply, error) {
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
func (s *Server) scanRecipe(_ *http.Request, q recipeBody) (reply, error) {
	return ok(map[string]bool{"has_security_warnings": recipe.ScanJSON(q.Recipe)}), nil
}

type saveRecipeRequest struct {
	Recipe json.RawMessage `json:"recipe"`
	ID     *string         `json:"id"`
}

func (q saveRecipeRequest) check() error { return recipeBody{q.Recipe}.check() }

// saveRecipe writes the recipe into the library (over the file of id when
// given) → 204 with {id, file_name, file_path}.
func (s *Server) saveRecipe(_ *http.Request, q saveRecipeRequest) (reply, error) {
	rec, err := recipeBody{q.Recipe}.parse()
	if err != nil {
		return reply{}, err
	}
	id := ""
	if q.ID != nil {
		id = *q.ID
	}
	path, err := s.recipes().Save(rec, id)
	if err != nil {
		return reply{}, libraryError(err)
	}
	return jsonStatus(http.StatusNoContent, map[string]string{"id": recipe.LibraryID(path), "file_name": filepath.Base(path), "file_path": path}), nil
}

// libraryError answers an unknown id as goosed's 404 text.
func libraryError(err error) error {
	if errors.Is(err, recipe.ErrNotFound) {
		return notFound("%s", err.Error())
	}
	return err
}

type recipeIDRequest struct {
	ID           string  `json:"id"`
	CronSchedule *string `json:"cron_schedule"`
	SlashCommand *string `json:"slash_command"`
}

func (q recipeIDRequest) check() error { return required("id", q.ID) }

func (s *Server) deleteRecipe(_ *http.Request, q recipeIDRequest) (reply, error) {
	if err := s.recipes().Delete(q.ID); err != nil {
		return reply{}, libraryError(err)
	}
	return noBody(http.StatusNoContent), nil
}

// scheduleRecipe attaches (cron_schedule set) or detaches a schedule; the
// job id is the recipe id.
func (s *Server) scheduleRecipe(_ *http.Request, q recipeIDRequest) (reply, error) {
	if s.opts.Scheduler == nil {
		return reply{}, errSchedulerUnavailable
	}
	rec, err := s.recipes().Find(q.ID)
	if err != nil {
		return reply{}, libraryError(err)
	}
	cron := ""
	if q.CronSchedule != nil {
		cron = *q.CronSchedule
	}
	if err := s.opts.Scheduler.SetRecipeSchedule(q.ID, rec.FilePath, cron); err != nil {
		return reply{}, err
	}
	return noBody(http.StatusOK), nil
}

// recipeSlashCommand binds (or with an empty command unbinds) a slash
// command to a saved recipe.
func (s *Server) recipeSlashCommand(_ *http.Request, q recipeIDRequest) (reply, error) {
	if s.opts.Config == nil {
		return reply{}, errNoConfig
	}
	cmd := ""
	if q.SlashCommand != nil {
		cmd = *q.SlashCommand
	}
	if err := s.recipes().SetSlashCommand(q.ID, cmd); err != nil {
		return reply{}, libraryError(err)
	}
	return noBody(http.StatusOK), nil
}
