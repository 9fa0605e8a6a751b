package recipe

import (
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/goose-acp/goose-acp/core/errkind"
)

// ErrNotFound: no saved recipe has the id.
var ErrNotFound = errkind.New(errkind.NotFound, "Recipe not found")

// SlashCommandsKey is the config.yaml list binding slash commands to
// recipe files ([{command, recipe_path}]).
const SlashCommandsKey = "slash_commands"

// SlashCommand binds "/command" to a recipe file.
type SlashCommand struct {
	Command    string `json:"command"`
	RecipePath string `json:"recipe_path"`
}

// ConfigStore is the part of config.yaml the library touches
// (config.Config fits).
type ConfigStore interface {
	Decode(key string, out any) error
	Set(key string, value any) error
}

// Library is goose's saved-recipe library: the recipe files of one
// directory (<config>/recipes) and the slash commands config.yaml binds
// to them. Config may be nil (no slash commands).
type Library struct {
	Dir    string
	Config ConfigStore
	Logger *slog.Logger
}

// Saved is one recipe file of the library.
type Saved struct {
	ID           string
	Recipe       *Recipe
	FilePath     string
	Modified     time.Time
	SlashCommand *string
}

// LibraryID is the stable 16-hex-digit id of a recipe file path.
func LibraryID(path string) string {
	h := fnv.New64a()
	_, _ = h.Write([]byte(path))
	return fmt.Sprintf("%016x", h.Sum64())
}

// List reads every recipe file that parses (others are logged and
// skipped), newest first, with its slash command. A missing directory is
// an empty library.
func (l *Library) List() ([]Saved, error) {
	entries, err := os.ReadDir(l.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	cmds := map[string]string{}
	for _, c := range l.SlashCommands() {
		cmds[c.RecipePath] = c.Command
	}
	var out []Saved
	for _, e := range entries {
		if s, ok := l.read(e); ok {
			if c, ok := cmds[s.FilePath]; ok {
				s.SlashCommand = &c
			}
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Modified.After(out[j].Modified) })
	return out, nil
}

func (l *Library) read(e os.DirEntry) (Saved, bool) {
	ext := strings.ToLower(filepath.Ext(e.Name()))
	if e.IsDir() || (ext != ".yaml" && ext != ".yml" && ext != ".json") {
		return Saved{}, false
	}
	p := filepath.Join(l.Dir, e.Name())
	b, err := os.ReadFile(p)
	if err != nil {
		return Saved{}, false
	}
	rec, err := FromContent(string(b))
	if err != nil {
		l.log().Warn("skipping recipe that does not parse", "path", p, "error", err)
		return Saved{}, false
	}
	info, err := e.Info()
	if err != nil {
		return Saved{}, false
	}
	return Saved{ID: LibraryID(p), Recipe: rec, FilePath: p, Modified: info.ModTime()}, true
}

// Find returns the saved recipe with id (ErrNotFound otherwise).
func (l *Library) Find(id string) (Saved, error) {
	all, err := l.List()
	if err != nil {
		return Saved{}, err
	}
	for _, r := range all {
		if r.ID == id {
			return r, nil
		}
	}
	return Saved{}, fmt.Errorf("%w: %s", ErrNotFound, id)
}

// Save writes r as YAML into the library, over the file of id when id is
// set, else as <title as a file name>.yaml; it returns the file's path.
func (l *Library) Save(r *Recipe, id string) (string, error) {
	path := filepath.Join(l.Dir, FileName(r.Title))
	if id != "" {
		old, err := l.Find(id)
		if err != nil {
			return "", err
		}
		path = old.FilePath
	}
	y, err := ToYAML(r)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(path, []byte(y), 0o644); err != nil {
		return "", err
	}
	return path, nil
}

// Delete removes a saved recipe's file and its slash command.
func (l *Library) Delete(id string) error {
	rec, err := l.Find(id)
	if err != nil {
		return err
	}
	if err := os.Remove(rec.FilePath); err != nil {
		return err
	}
	if l.Config != nil {
		_ = l.bind(rec.FilePath, "")
	}
	return nil
}

// SetSlashCommand binds cmd ("/" and spaces trimmed) to the saved recipe,
// replacing its old command and any other recipe's use of cmd; an empty
// cmd unbinds it.
func (l *Library) SetSlashCommand(id, cmd string) error {
	if l.Config == nil {
		return errors.New("no configuration to keep slash commands in")
	}
	rec, err := l.Find(id)
	if err != nil {
		return err
	}
	return l.bind(rec.FilePath, strings.TrimPrefix(strings.TrimSpace(cmd), "/"))
}

func (l *Library) bind(path, cmd string) error {
	v := []any{}
	for _, c := range l.SlashCommands() {
		if c.RecipePath != path && (cmd == "" || c.Command != cmd) {
			v = append(v, map[string]any{"command": c.Command, "recipe_path": c.RecipePath})
		}
	}
	if cmd != "" {
		v = append(v, map[string]any{"command": cmd, "recipe_path": path})
	}
	return l.Config.Set(SlashCommandsKey, v)
}

// SlashCommands are config.yaml's bindings (none without a config).
func (l *Library) SlashCommands() []SlashCommand {
	var out []SlashCommand
	if l.Config != nil {
		_ = l.Config.Decode(SlashCommandsKey, &out)
	}
	return out
}

// FileName is the title lowercased with runs of other characters as "-",
// plus ".yaml" ("recipe.yaml" for a title without letters or digits).
func FileName(title string) string {
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

func (l *Library) log() *slog.Logger {
	if l.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return l.Logger
}
