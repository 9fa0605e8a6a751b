package developer

import (
	"path/filepath"
	"strings"
)

// langByExt is the markdown fence language for a file extension, in the
// spirit of goose's lang::get_language_identifier ("" when unknown).
var langByExt = map[string]string{
	"rs": "rust", "py": "python", "js": "javascript", "jsx": "javascript", "mjs": "javascript",
	"ts": "typescript", "tsx": "typescript", "go": "go", "java": "java", "kt": "kotlin",
	"swift": "swift", "rb": "ruby", "c": "c", "h": "c", "cpp": "cpp", "cc": "cpp", "hpp": "cpp",
	"cs": "csharp", "php": "php", "sh": "bash", "bash": "bash", "zsh": "zsh", "ps1": "powershell",
	"md": "markdown", "json": "json", "yaml": "yaml", "yml": "yaml", "toml": "toml",
	"html": "html", "css": "css", "scss": "scss", "sql": "sql", "xml": "xml", "lua": "lua",
	"r": "r", "scala": "scala", "dart": "dart", "ex": "elixir", "exs": "elixir", "hs": "haskell",
}

func languageFor(path string) string {
	return langByExt[strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))]
}

// rustLines splits like Rust's str::lines: on "\n", a trailing "\r"
// dropped, and no final empty line for a trailing newline.
func rustLines(s string) []string {
	if s == "" {
		return nil
	}
	s = strings.TrimSuffix(s, "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}
