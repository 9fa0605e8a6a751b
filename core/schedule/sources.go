package schedule

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/recipe"
)

// SourcesDir keeps the recipes a client posts as content
// (CreateFromRecipe). The scheduler copies each into scheduled_recipes/,
// but the job's recipe_base_dir points at the source's directory (where
// relative sub-recipes and templates resolve), so the source must outlive
// the request.
const SourcesDir = "schedule_sources"

// ErrInvalidID: a job id that cannot name a file.
var ErrInvalidID = errkind.New(errkind.Invalid, "invalid schedule id")

// CreateFromRecipe stores r as <data>/schedule_sources/<id>.yaml and
// creates the job from it. An id that already exists leaves that job's
// kept source untouched.
func (s *Scheduler) CreateFromRecipe(id, cronExpr string, r *recipe.Recipe) (Job, error) {
	if strings.ContainsAny(id, `/\`) || id == "" || id == "." || id == ".." {
		return Job{}, &Error{Kind: ErrInvalidID, msg: fmt.Sprintf("invalid schedule id %q", id)}
	}
	y, err := recipe.ToYAML(r)
	if err != nil {
		return Job{}, fmt.Errorf("schedule: encoding the recipe: %w", err)
	}
	dir := s.sourcesDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Job{}, err
	}
	// Written under a unique name first, renamed once the job exists.
	f, err := os.CreateTemp(dir, "new-*.yaml")
	if err != nil {
		return Job{}, err
	}
	tmp := f.Name()
	_, werr := f.WriteString(y)
	if err := errors.Join(werr, f.Close()); err != nil {
		os.Remove(tmp)
		return Job{}, err
	}
	job, err := s.Create(CreateRequest{ID: id, RecipePath: tmp, Cron: cronExpr})
	if err != nil {
		os.Remove(tmp)
		return Job{}, err
	}
	if err := os.Rename(tmp, filepath.Join(dir, id+".yaml")); err != nil {
		s.opts.Logger.Warn("keeping scheduled recipe source", "job", id, "error", err)
	}
	return job, nil
}

func (s *Scheduler) sourcesDir() string { return filepath.Join(s.opts.DataDir, SourcesDir) }

// removeSource drops the kept source of a job CreateFromRecipe made.
func (s *Scheduler) removeSource(j Job) {
	if j.RecipeBaseDir != nil && *j.RecipeBaseDir == s.sourcesDir() {
		os.Remove(filepath.Join(s.sourcesDir(), j.ID+".yaml"))
	}
}

// SetRecipeSchedule gives a saved recipe file a schedule under id (a
// library recipe's id): an empty cron removes the job if there is one, an
// existing job gets the new cron, otherwise a job is created from the file.
func (s *Scheduler) SetRecipeSchedule(id, recipePath, cronExpr string) error {
	_, getErr := s.Get(id)
	switch {
	case cronExpr == "":
		if getErr == nil {
			return s.Delete(id, true)
		}
		return nil
	case getErr == nil:
		return s.Update(id, cronExpr)
	}
	_, err := s.Create(CreateRequest{ID: id, RecipePath: recipePath, Cron: cronExpr})
	return err
}
