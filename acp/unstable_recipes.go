package acp

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"

	"github.com/goose-acp/goose-acp/core/recipe"
)

// Goose Desktop's recipe methods (_goose/unstable/recipes/*) over
// core/recipe (codec, parser, Library) and the scheduler. Recipe DTOs keep
// goose's snake_case, which is recipe.Recipe's own JSON.

func (s *Server) unstableRecipeMethods() map[string]RequestHandler {
	const p = "_goose/unstable/recipes/"
	return map[string]RequestHandler{
		p + "encode":        typed(s.unstableRecipeEncode),
		p + "decode":        typed(s.unstableRecipeDecode),
		p + "scan":          typed(s.unstableRecipeScan),
		p + "list":          typed(s.unstableRecipeList),
		p + "delete":        typed(s.unstableRecipeDelete),
		p + "schedule":      typed(s.unstableRecipeSchedule),
		p + "slash-command": typed(s.unstableRecipeSlashCommand),
		p + "save":          typed(s.unstableRecipeSave),
		p + "parse":         typed(s.unstableRecipeParse),
		p + "to-yaml":       typed(s.unstableRecipeToYAML),
	}
}

// errNoRecipeLibrary: a server built without a config directory.
var errNoRecipeLibrary = errors.New("the recipe library is not available in this goose-acp server (no config directory)")

// recipes is the library: Options.Recipes, else <config>/recipes.
func (s *Server) recipes() (*recipe.Library, error) {
	if s.opts.Recipes != nil {
		return s.opts.Recipes, nil
	}
	st, err := s.settings()
	if err != nil {
		return nil, errNoRecipeLibrary
	}
	return &recipe.Library{Dir: filepath.Join(st.configDir(), "recipes"), Config: st.Config, Logger: s.log}, nil
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

func (s *Server) unstableRecipeEncode(_ context.Context, req recipeRequest) (map[string]string, error) {
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

func (s *Server) unstableRecipeDecode(_ context.Context, req struct {
	Deeplink string `json:"deeplink"`
}) (recipeResponse, error) {
	rec, err := recipe.Decode(req.Deeplink)
	if err != nil {
		return recipeResponse{}, invalidParams("deeplink: %v", err)
	}
	return recipeResponse{Recipe: rec}, nil
}

func (s *Server) unstableRecipeScan(_ context.Context, req recipeRequest) (map[string]bool, error) {
	if _, err := req.parse(); err != nil {
		return nil, err
	}
	return map[string]bool{"has_security_warnings": recipe.ScanJSON(req.Recipe)}, nil
}

func (s *Server) unstableRecipeList(context.Context, struct{}) (map[string][]recipe.Manifest, error) {
	lib, err := s.recipes()
	if err != nil {
		return nil, err
	}
	all, err := lib.List()
	if err != nil {
		return nil, err
	}
	out := make([]recipe.Manifest, 0, len(all))
	for _, r := range all {
		out = append(out, r.Manifest(s.opts.Scheduler.RecipeCron(r.ID)))
	}
	return map[string][]recipe.Manifest{"recipes": out}, nil
}

// libraryErr answers an unknown id as goose does (invalid params).
func libraryErr(err error, id string) error {
	if errors.Is(err, recipe.ErrNotFound) {
		return invalidParams("recipe not found: %s", id)
	}
	return err
}

type recipeIDRequest struct {
	ID           string  `json:"id"`
	CronSchedule *string `json:"cron_schedule"`
	SlashCommand *string `json:"slash_command"`
}

func (s *Server) unstableRecipeDelete(_ context.Context, req recipeIDRequest) (struct{}, error) {
	lib, err := s.recipes()
	if err != nil {
		return struct{}{}, err
	}
	return struct{}{}, libraryErr(lib.Delete(req.ID), req.ID)
}

// unstableRecipeSchedule attaches, changes or (null cron) detaches the
// recipe's job.
func (s *Server) unstableRecipeSchedule(_ context.Context, req recipeIDRequest) (struct{}, error) {
	if s.opts.Scheduler == nil {
		return struct{}{}, errNoScheduler()
	}
	lib, err := s.recipes()
	if err != nil {
		return struct{}{}, err
	}
	rec, err := lib.Find(req.ID)
	if err != nil {
		return struct{}{}, libraryErr(err, req.ID)
	}
	cron := ""
	if req.CronSchedule != nil {
		cron = strings.TrimSpace(*req.CronSchedule)
	}
	if err := s.opts.Scheduler.SetRecipeSchedule(req.ID, rec.FilePath, cron); err != nil {
		return struct{}{}, scheduleErr(err)
	}
	return struct{}{}, nil
}

func (s *Server) unstableRecipeSlashCommand(_ context.Context, req recipeIDRequest) (struct{}, error) {
	lib, err := s.recipes()
	if err != nil {
		return struct{}{}, err
	}
	cmd := ""
	if req.SlashCommand != nil {
		cmd = *req.SlashCommand
	}
	return struct{}{}, libraryErr(lib.SetSlashCommand(req.ID, cmd), req.ID)
}

type saveRecipeRequest struct {
	Recipe json.RawMessage `json:"recipe"`
	ID     *string         `json:"id"`
}

// hiddenCharsRefusal is goose's text for a recipe it will not save.
const hiddenCharsRefusal = "This recipe contains hidden characters that could be malicious. Please remove them before trying to save."

func (s *Server) unstableRecipeSave(_ context.Context, req saveRecipeRequest) (map[string]string, error) {
	rec, err := recipeRequest{req.Recipe}.parse()
	if err != nil {
		return nil, err
	}
	if rec.HasSecurityWarnings() {
		return nil, invalidParams(hiddenCharsRefusal)
	}
	lib, err := s.recipes()
	if err != nil {
		return nil, err
	}
	id := ""
	if req.ID != nil {
		id = *req.ID
	}
	path, err := lib.Save(rec, id)
	if err != nil {
		return nil, libraryErr(err, id)
	}
	return map[string]string{"id": recipe.LibraryID(path), "file_name": filepath.Base(path), "file_path": path}, nil
}

func (s *Server) unstableRecipeParse(_ context.Context, req struct {
	Content string `json:"content"`
}) (recipeResponse, error) {
	rec, err := recipe.FromContent(req.Content)
	if err != nil {
		return recipeResponse{}, invalidParams("recipe: %v", err)
	}
	return recipeResponse{Recipe: rec}, nil
}

func (s *Server) unstableRecipeToYAML(_ context.Context, req recipeRequest) (map[string]string, error) {
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
