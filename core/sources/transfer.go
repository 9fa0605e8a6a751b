package sources

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// exportVersion marks the JSON payload Export writes and ImportSource reads.
const exportVersion = 1

type exported struct {
	Version     int            `json:"version"`
	Type        string         `json:"type"`
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Content     string         `json:"content"`
	Properties  map[string]any `json:"properties,omitempty"`
}

// Export renders one skill or project as a portable JSON payload and a
// file name for it.
func (s Store) Export(typ, path string) (string, string, error) {
	if err := requireMutable(typ); err != nil {
		return "", "", err
	}
	var e Entry
	var err error
	if typ == TypeSkill {
		var dir string
		if dir, err = skillDir(path); err == nil {
			e, err = s.readSkill(dir)
		}
	} else {
		var file string
		if file, err = s.projectPath(path); err == nil {
			e, err = s.readProject(file)
		}
	}
	if err != nil {
		return "", "", err
	}
	b, err := json.MarshalIndent(exported{Version: exportVersion, Type: typ, Name: e.Name, Description: e.Description,
		Content: e.Content, Properties: e.Properties}, "", "  ")
	if err != nil {
		return "", "", err
	}
	return string(b), fmt.Sprintf("%s.%s.json", e.Name, typ), nil
}

// ImportSource writes an exported source: a skill into skillsBase, a project
// into the projects directory. A taken name gets "-imported" (then
// "-imported-2", …).
func (s Store) ImportSource(data, skillsBase string) ([]Entry, error) {
	var x exported
	if err := json.Unmarshal([]byte(data), &x); err != nil {
		return nil, invalid("Source import is not a goose source export: %v", err)
	}
	if err := requireMutable(x.Type); err != nil {
		return nil, err
	}
	if err := ValidateName(x.Name); err != nil {
		return nil, err
	}
	name := x.Name
	taken := func(n string) bool {
		p := filepath.Join(skillsBase, n)
		if x.Type == TypeProject {
			p = s.projectFile(n)
		}
		_, err := os.Stat(p)
		return err == nil
	}
	for i := 1; taken(name); i++ {
		name = x.Name + "-imported"
		if i > 1 {
			name = fmt.Sprintf("%s-imported-%d", x.Name, i)
		}
	}
	var e Entry
	var err error
	if x.Type == TypeSkill {
		e, err = s.CreateSkill(skillsBase, name, x.Description, x.Content)
	} else {
		e, err = s.CreateProject(name, x.Description, x.Content, x.Properties)
	}
	if err != nil {
		return nil, err
	}
	return []Entry{e}, nil
}

func sortStrings(s []string) { sort.Strings(s) }
