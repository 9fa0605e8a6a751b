package engine

import "path/filepath"

// languageOf returns goose's language identifier for a file extension
// (developer/lang.rs get_language_identifier), or "" for unknown files.
// Only files with a non-empty identifier take part in an analysis.
func languageOf(path string) string {
	ext := filepath.Ext(path)
	if ext == "" {
		return ""
	}
	return extLanguages[ext[1:]]
}

// extLanguages is goose's extension table plus "tsx", which goose does not
// list. Matching is case-sensitive, as in goose ("R" is not "r").
var extLanguages = map[string]string{
	"rs": "rust", "py": "python", "js": "javascript", "ts": "typescript", "tsx": "tsx",
	"json": "json", "toml": "toml", "yaml": "yaml", "yml": "yaml",
	"sh": "bash", "ps1": "powershell", "bat": "batch", "cmd": "batch",
	"vbs": "vbscript", "go": "go", "md": "markdown", "html": "html",
	"css": "css", "sql": "sql", "java": "java",
	"cpp": "cpp", "cc": "cpp", "cxx": "cpp", "c": "c", "h": "cpp", "hpp": "cpp",
	"rb": "ruby", "php": "php", "swift": "swift", "kt": "kotlin", "kts": "kotlin",
	"scala": "scala", "r": "r", "m": "matlab", "pl": "perl",
	"dockerfile": "dockerfile",
}
