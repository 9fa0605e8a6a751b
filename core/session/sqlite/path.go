package sqlite

import "path/filepath"

// goose's names for the sessions folder and database file under its data
// directory.
const (
	SessionsFolder = "sessions"
	DBName         = "sessions.db"
)

// DefaultPath is where goose keeps sessions.db: <data>/sessions/sessions.db.
func DefaultPath(dataDir string) string {
	return filepath.Join(dataDir, SessionsFolder, DBName)
}
