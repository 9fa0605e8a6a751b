package schedule

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// FileName and RecipesDir are goose's names under the data directory.
const (
	FileName   = "schedules.json"
	RecipesDir = "scheduled_recipes"
)

// loadJobs reads schedules.json; a missing or blank file is no jobs.
func loadJobs(path string) ([]Job, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("schedule: read %s: %w", path, err)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, nil
	}
	var jobs []Job
	if err := json.Unmarshal(b, &jobs); err != nil {
		return nil, fmt.Errorf("schedule: parse %s: %w", path, err)
	}
	return jobs, nil
}

// saveJobs writes schedules.json atomically (temp file + rename), pretty
// printed like serde's to_string_pretty, ordered by id.
func saveJobs(path string, jobs []Job) error {
	sorted := append([]Job(nil), jobs...)
	sort.Slice(sorted, func(i, k int) bool { return sorted[i].ID < sorted[k].ID })
	if sorted == nil {
		sorted = []Job{}
	}
	b, err := json.MarshalIndent(sorted, "", "  ")
	if err != nil {
		return fmt.Errorf("Failed to persist schedules: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("Failed to persist schedules: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".schedules-*.json")
	if err != nil {
		return fmt.Errorf("Failed to persist schedules: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("Failed to persist schedules: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("Failed to persist schedules: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("Failed to persist schedules: %w", err)
	}
	return nil
}

// copyRecipe copies src to dir/<id>.<ext> (ext defaults to yaml).
func copyRecipe(src, dir, id string) (string, error) {
	info, err := os.Stat(src)
	if err != nil || !info.Mode().IsRegular() {
		return "", &Error{Kind: ErrRecipe, msg: "Recipe load error: Recipe file not found: " + src, err: err}
	}
	ext := strings.TrimPrefix(filepath.Ext(src), ".")
	if ext == "" {
		ext = "yaml"
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("Storage error: %w", err)
	}
	dst := filepath.Join(dir, id+"."+ext)
	in, err := os.Open(src)
	if err != nil {
		return "", &Error{Kind: ErrRecipe, msg: "Recipe load error: " + err.Error(), err: err}
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return "", fmt.Errorf("Storage error: %w", err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return "", fmt.Errorf("Storage error: %w", err)
	}
	if err := out.Close(); err != nil {
		return "", fmt.Errorf("Storage error: %w", err)
	}
	return dst, nil
}
