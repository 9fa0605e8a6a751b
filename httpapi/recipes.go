package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/schedule"
)

// slashCommandsKey is the config.yaml list of recipe slash commands.
const slashCommandsKey = "slash_commands"

// recipeSlashCommand binds "/command" to a recipe file.
type recipeSlashCommand struct {
	Command    string `json:"command"`
	RecipePath string `json:"recipe_path"`
}

func (s *Server) recipeSlashCommands() []recipeSlashCommand {
	var out []recipeSlashCommand
	if s.opts.Config != nil {
		_ = s.opts.Config.Decode(slashCommandsKey, &out)
	}
	return out
}

// recipesDir is goose's recipe library (<config>/recipes).
func (s *Server) recipesDir() string { return filepath.Join(s.opts.ConfigDir, "recipes") }

// savedRecipe is a recipe file in the library.
type savedRecipe struct {
	ID           string         `json:"id"`
	Recipe       *recipe.Recipe `json:"recipe"`
	FilePath     string         `json:"file_path"`
	LastModified string         `json:"last_modified"`
	ScheduleCron *string        `json:"schedule_cron"`
	SlashCommand *string        `json:"slash_command"`
	modified     time.Time
}

// recipeID is a stable 16-hex-digit id of a recipe file path.
func recipeID(path string) string {
	h := fnv.New64a()
	_, _ = h.Write([]byte(path))
	return fmt.Sprintf("%016x", h.Sum64())
}

// savedRecipes lists the library, newest first, with each recipe's
// schedule and slash command.
func (s *Server) savedRecipes() ([]savedRecipe, error) {
	entries, err := os.ReadDir(s.recipesDir())
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	cmds := map[string]string{}
	for _, c := range s.recipeSlashCommands() {
		cmds[c.RecipePath] = c.Command
	}
	var out []savedRecipe
	for _, e := range entries {
		ext := strings.ToLower(filepath.Ext(e.Name()))
		if e.IsDir() || (ext != ".yaml" && ext != ".yml" && ext != ".json") {
			continue
		}
		p := filepath.Join(s.recipesDir(), e.Name())
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		rec, err := recipe.FromContent(string(b))
		if err != nil {
			s.log.Warn("skipping recipe that does not parse", "path", p, "error", err)
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		sr := savedRecipe{ID: recipeID(p), Recipe: rec, FilePath: p, modified: info.ModTime(),
			LastModified: info.ModTime().UTC().Format(time.RFC3339)}
		if c, ok := cmds[p]; ok {
			sr.SlashCommand = &c
		}
		sr.ScheduleCron = s.scheduleCronFor(sr.ID)
		out = append(out, sr)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].modified.After(out[j].modified) })
	return out, nil
}

func (s *Server) scheduleCronFor(id string) *string {
	if s.opts.Scheduler == nil {
		return nil
	}
	if j, err := s.opts.Scheduler.Get(id); err == nil {
		return &j.Cron
	}
	return nil
}

func (s *Server) findSavedRecipe(id string) (savedRecipe, error) {
	all, err := s.savedRecipes()
	if err != nil {
		return savedRecipe{}, err
	}
	for _, r := range all {
		if r.ID == id {
			return r, nil
		}
	}
	return savedRecipe{}, notFound("Recipe not found: %s", id)
}

func (s *Server) listRecipes(w http.ResponseWriter, r *http.Request) {
	all, err := s.savedRecipes()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if all == nil {
		all = []savedRecipe{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"manifests": all})
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

// decodeRecipeBody reads {"recipe": Recipe}.
func decodeRecipeBody(r *http.Request) (*recipe.Recipe, error) {
	var q recipeBody
	if err := decodeJSON(r, &q); err != nil {
		return nil, err
	}
	return q.parse()
}

func (s *Server) parseRecipe(w http.ResponseWriter, r *http.Request) {
	var q struct {
		Content *string `json:"content"`
	}
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	if q.Content == nil {
		s.writeError(w, r, errorf(http.StatusUnprocessableEntity, "Failed to deserialize the JSON body into the target type: missing field `content`"))
		return
	}
	rec, err := recipe.FromContent(*q.Content)
	if err != nil {
		s.writeError(w, r, badRequest("Invalid recipe format: %w", err))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"recipe": rec})
}

func (s *Server) encodeRecipe(w http.ResponseWriter, r *http.Request) {
	rec, err := decodeRecipeBody(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	link, err := recipe.Encode(rec)
	if err != nil {
		s.writeError(w, r, badRequest("Failed to encode recipe: %w", err))
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"deeplink": link})
}

func (s *Server) decodeRecipe(w http.ResponseWriter, r *http.Request) {
	var q struct {
		Deeplink string `json:"deeplink"`
	}
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	rec, err := recipe.Decode(q.Deeplink)
	if err != nil {
		s.writeError(w, r, badRequest("Failed to decode recipe: %w", err))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"recipe": rec})
}

func (s *Server) recipeToYAML(w http.ResponseWriter, r *http.Request) {
	rec, err := decodeRecipeBody(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	y, err := recipe.ToYAML(rec)
	if err != nil {
		s.writeError(w, r, badRequest("Failed to convert recipe to YAML: %w", err))
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"yaml": y})
}

// scanRecipe flags invisible characters that can hide instructions
// (Unicode tags, zero-width and bidi controls).
func (s *Server) scanRecipe(w http.ResponseWriter, r *http.Request) {
	var q recipeBody
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	text := string(q.Recipe)
	var decoded any
	if json.Unmarshal(q.Recipe, &decoded) == nil {
		text = fmt.Sprint(decoded)
	}
	writeJSON(w, http.StatusOK, map[string]bool{"has_security_warnings": hasHiddenRunes(text)})
}

func hasHiddenRunes(s string) bool {
	for _, r := range s {
		switch {
		case r >= 0xE0000 && r <= 0xE007F, r >= 0x200B && r <= 0x200F, r >= 0x202A && r <= 0x202E,
			r >= 0x2066 && r <= 0x2069, r == 0xFEFF:
			return true
		case unicode.Is(unicode.Co, r):
			return true
		}
	}
	return false
}

type saveRecipeRequest struct {
	Recipe json.RawMessage `json:"recipe"`
	ID     *string         `json:"id"`
}

func (q saveRecipeRequest) check() error { return recipeBody{q.Recipe}.check() }

// saveRecipe writes the recipe as YAML into the library (over the file of
// id when given) → 204 with {id, file_name, file_path}.
func (s *Server) saveRecipe(w http.ResponseWriter, r *http.Request) {
	var q saveRecipeRequest
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	rec, err := recipeBody{q.Recipe}.parse()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	path := filepath.Join(s.recipesDir(), recipeFileName(rec.Title))
	if q.ID != nil && *q.ID != "" {
		old, err := s.findSavedRecipe(*q.ID)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		path = old.FilePath
	}
	y, err := recipe.ToYAML(rec)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := os.WriteFile(path, []byte(y), 0o644); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusNoContent, map[string]string{"id": recipeID(path), "file_name": filepath.Base(path), "file_path": path})
}

// recipeFileName is the title lowercased with runs of other characters as
// "-", plus ".yaml".
func recipeFileName(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(strings.TrimSpace(title)) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	name := strings.TrimSuffix(b.String(), "-")
	if name == "" {
		name = "recipe"
	}
	return name + ".yaml"
}

type recipeIDRequest struct {
	ID           string  `json:"id"`
	CronSchedule *string `json:"cron_schedule"`
	SlashCommand *string `json:"slash_command"`
}

func (q recipeIDRequest) check() error { return required("id", q.ID) }

func (s *Server) deleteRecipe(w http.ResponseWriter, r *http.Request) {
	var q recipeIDRequest
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	rec, err := s.findSavedRecipe(q.ID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := os.Remove(rec.FilePath); err != nil {
		s.writeError(w, r, err)
		return
	}
	_ = s.setSlashCommand(rec.FilePath, "")
	writeEmpty(w, http.StatusNoContent)
}

// scheduleRecipe attaches (cron_schedule set) or detaches a schedule; the
// job id is the recipe id.
func (s *Server) scheduleRecipe(w http.ResponseWriter, r *http.Request) {
	var q recipeIDRequest
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	if s.opts.Scheduler == nil {
		s.writeError(w, r, errSchedulerUnavailable)
		return
	}
	rec, err := s.findSavedRecipe(q.ID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	_, getErr := s.opts.Scheduler.Get(q.ID)
	switch {
	case q.CronSchedule == nil || *q.CronSchedule == "":
		if getErr == nil {
			err = s.opts.Scheduler.Delete(q.ID, true)
		}
	case getErr == nil:
		err = s.opts.Scheduler.Update(q.ID, *q.CronSchedule)
	default:
		_, err = s.opts.Scheduler.Create(schedule.CreateRequest{ID: q.ID, RecipePath: rec.FilePath, Cron: *q.CronSchedule})
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeEmpty(w, http.StatusOK)
}

// recipeSlashCommand binds (or with an empty command unbinds) a slash
// command to a saved recipe.
func (s *Server) recipeSlashCommandRoute(w http.ResponseWriter, r *http.Request) {
	var q recipeIDRequest
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	if !s.needConfig(w, r) {
		return
	}
	rec, err := s.findSavedRecipe(q.ID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	cmd := ""
	if q.SlashCommand != nil {
		cmd = strings.TrimPrefix(strings.TrimSpace(*q.SlashCommand), "/")
	}
	if err := s.setSlashCommand(rec.FilePath, cmd); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeEmpty(w, http.StatusOK)
}

func (s *Server) setSlashCommand(path, cmd string) error {
	if s.opts.Config == nil {
		return nil
	}
	kept := []recipeSlashCommand{}
	for _, c := range s.recipeSlashCommands() {
		if c.RecipePath != path && (cmd == "" || c.Command != cmd) {
			kept = append(kept, c)
		}
	}
	if cmd != "" {
		kept = append(kept, recipeSlashCommand{Command: cmd, RecipePath: path})
	}
	var v []any
	for _, c := range kept {
		v = append(v, map[string]any{"command": c.Command, "recipe_path": c.RecipePath})
	}
	if v == nil {
		v = []any{}
	}
	return s.opts.Config.Set(slashCommandsKey, v)
}
