package schedule

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/goose-acp/goose-acp/core/recipe"
)

// Job is goose's ScheduledJob, one element of schedules.json.
type Job struct {
	ID               string     `json:"id"`
	Source           string     `json:"source"`
	Cron             string     `json:"cron"`
	LastRun          *time.Time `json:"last_run"`
	CurrentlyRunning bool       `json:"currently_running"`
	Paused           bool       `json:"paused"`
	CurrentSessionID *string    `json:"current_session_id"`
	ProcessStartTime *time.Time `json:"process_start_time"`
	// ExecutionMode is the mid-2025 "foreground"/"background" field; kept
	// when present so goose's files round-trip.
	ExecutionMode *string `json:"execution_mode,omitempty"`
	Parameters    Params  `json:"parameters"`
	// RecipeBaseDir is the original recipe's directory, so relative
	// sub-recipe and template paths resolve against the source tree.
	RecipeBaseDir *string `json:"recipe_base_dir"`
}

// Params are goose's Vec<(String, String)>: JSON [["k","v"], …].
type Params []recipe.Param

// MarshalJSON writes pairs; nil is [].
func (p Params) MarshalJSON() ([]byte, error) {
	pairs := make([][2]string, len(p))
	for i, kv := range p {
		pairs[i] = [2]string{kv.Key, kv.Value}
	}
	return json.Marshal(pairs)
}

// UnmarshalJSON reads pairs.
func (p *Params) UnmarshalJSON(b []byte) error {
	var pairs [][2]string
	if err := json.Unmarshal(b, &pairs); err != nil {
		return err
	}
	out := make(Params, len(pairs))
	for i, kv := range pairs {
		out[i] = recipe.Param{Key: kv[0], Value: kv[1]}
	}
	*p = out
	return nil
}

// RecipeDir is where the job's recipe templates and sub-recipes resolve.
func (j Job) RecipeDir() string {
	if j.RecipeBaseDir != nil && *j.RecipeBaseDir != "" {
		return *j.RecipeBaseDir
	}
	return filepath.Dir(j.Source)
}

// BuildRecipe reads the job's recipe copy and renders it with the job's
// parameters (headless: user_prompt parameters without a value are
// missing), as goose's execute_job does.
func BuildRecipe(j Job) (*recipe.Recipe, error) {
	b, err := os.ReadFile(j.Source)
	if err != nil {
		return nil, fmt.Errorf("Recipe load error: %w", err)
	}
	return recipe.Build(string(b), j.RecipeDir(), j.Parameters, nil)
}

// RunningInfo is what Inspect reports for a running job.
type RunningInfo struct {
	SessionID string    `json:"session_id"`
	StartTime time.Time `json:"process_start_time"`
}
