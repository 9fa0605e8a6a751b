package recipe

import "time"

// Manifest is a library recipe as goose lists it (goosed's RecipeManifest,
// the ACP RecipeListEntryDto): snake_case, its schedule and slash command.
type Manifest struct {
	ID           string  `json:"id"`
	Recipe       *Recipe `json:"recipe"`
	FilePath     string  `json:"file_path"`
	LastModified string  `json:"last_modified"`
	ScheduleCron *string `json:"schedule_cron"`
	SlashCommand *string `json:"slash_command"`
}

// Manifest lists s with the cron of its schedule (nil: none).
func (s Saved) Manifest(cron *string) Manifest {
	return Manifest{ID: s.ID, Recipe: s.Recipe, FilePath: s.FilePath, LastModified: s.Modified.UTC().Format(time.RFC3339),
		ScheduleCron: cron, SlashCommand: s.SlashCommand}
}
