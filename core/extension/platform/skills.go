package platform

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/extension/inproc"
	"github.com/goose-acp/goose-acp/core/pathpolicy"
)

// Skills is goose's skills platform extension (load_skill).
const Skills = "skills"

const loadSkillDescription = "Load a skill's full content into your context so you can follow its instructions.\n\n" +
	"Skills are listed in your system instructions. When you need to use one, load it first to get the detailed instructions.\n\n" +
	"Examples:\n" +
	"- load_skill(name: \"gdrive\") → Loads the gdrive skill instructions\n" +
	"- load_skill(name: \"my-skill\", args: \"the arguments for the skill\") → Loads a skill with arguments\n" +
	"- load_skill(name: \"my-skill/template.md\") → Loads a supporting file"

const loadSkillSchema = `{"type":"object","required":["name"],"properties":{` +
	`"name":{"type":"string","description":"Name of the skill to load. Use \"skill-name/path\" to load a supporting file."},` +
	`"args":{"type":"string","description":"Optional arguments to provide when loading the skill."}}}`

// skillsHeader opens goose's system-prompt listing of skills.
const skillsHeader = "\n\nYou have these skills at your disposal, when it is clear they can help you solve a problem or you are asked to use them:"

// SkillsInstructions is goose's system-prompt block: one "• name -
// description" line per skill, sorted by (name, dir); empty without skills.
func SkillsInstructions(skills []Skill) string {
	if len(skills) == 0 {
		return ""
	}
	sorted := append([]Skill(nil), skills...)
	sort.Slice(sorted, func(i, j int) bool {
		if sorted[i].Name != sorted[j].Name {
			return sorted[i].Name < sorted[j].Name
		}
		return sorted[i].Dir < sorted[j].Dir
	})
	var b strings.Builder
	b.WriteString(skillsHeader)
	for _, s := range sorted {
		fmt.Fprintf(&b, "\n• %s - %s", s.Name, s.Description)
	}
	return b.String()
}

// skillDirs is where the session's skills are discovered.
func (d Deps) skillDirs(workingDir string) SkillDirs {
	o := SkillDirs{WorkingDir: workingDir, Home: d.Home, ConfigDir: d.ConfigDir}
	if d.PluginSkills != nil {
		o.ProjectPluginSkills, o.UserPluginSkills = d.PluginSkills(workingDir)
	}
	return o
}

// SessionSkills discovers the skills of a working dir with the agent's
// home, config dir and plugins (for slash commands and the extension).
func (d Deps) SessionSkills(workingDir string) []Skill {
	return DiscoverSkills(d.skillDirs(workingDir))
}

// skillsServer is skills' server, one per process. Its instructions list
// the session's skills, so they come with each session's Platform instead
// of the server's initialize answer; load_skill finds the session by its
// request's server session.
var skillsServer = newSharedServer(Skills, func(sh *sharedServer) *inproc.Server {
	s := newServer(Skills, "Skills", "")
	s.AddTool(&mcp.Tool{Name: "load_skill", Description: loadSkillDescription, InputSchema: json.RawMessage(loadSkillSchema)},
		sh.handle(func(ctx context.Context, b *binding, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var p struct {
				Name string  `json:"name"`
				Args *string `json:"args"`
			}
			_ = decode(req, &p)
			if p.Name == "" {
				return plainError("Missing required parameter: name"), nil
			}
			dir := b.wd
			if m := b.env.Manager; m != nil && m.WorkingDir() != "" {
				dir = m.WorkingDir()
			}
			text, ok := LoadSkill(b.d.SessionSkills(dir), p.Name, p.Args)
			if !ok {
				return plainError(text), nil
			}
			return textResult(text), nil
		}))
	return s
})

func (d Deps) skills(ctx context.Context, env extension.Env) (extension.Platform, error) {
	wd := env.WorkingDir
	if env.Manager != nil && env.Manager.WorkingDir() != "" {
		wd = env.Manager.WorkingDir()
	}
	p := skillsServer.platform(&binding{d: d, env: env, wd: wd})
	p.Instructions = SkillsInstructions(d.SessionSkills(wd))
	return p, nil
}

func plainError(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// LoadSkill answers load_skill: the rendered skill, a supporting file
// ("skill/relative/path"), or goose's not-found text (ok false).
func LoadSkill(skills []Skill, name string, args *string) (string, bool) {
	for _, s := range skills {
		if s.Name == name {
			text, err := RenderSkill(s, args)
			if err != nil {
				return "Failed to parse skill arguments: " + err.Error(), false
			}
			return text, true
		}
	}
	if parent, rel, ok := strings.Cut(name, "/"); ok {
		for _, s := range skills {
			if s.Name == parent {
				return loadSupportingFile(s, name, strings.ReplaceAll(rel, "\\", "/"))
			}
		}
	}
	names := make([]string, len(skills))
	for i, s := range skills {
		names[i] = s.Name
	}
	similar := similarNames(names, name)
	if len(similar) == 0 {
		return fmt.Sprintf("Skill '%s' not found.", name), false
	}
	return fmt.Sprintf("Skill '%s' not found. Did you mean: %s?", name, strings.Join(similar, ", ")), false
}

// similarNames is goose's "did you mean": up to three names containing
// name or contained in it, case-insensitively.
func similarNames(names []string, name string) []string {
	lower := strings.ToLower(name)
	var out []string
	for _, n := range names {
		l := strings.ToLower(n)
		if strings.Contains(l, lower) || strings.Contains(lower, l) {
			out = append(out, n)
			if len(out) == 3 {
				break
			}
		}
	}
	return out
}

func loadSupportingFile(s Skill, requested, rel string) (string, bool) {
	var available []string
	for _, f := range s.SupportingFiles {
		r, err := filepath.Rel(s.Dir, f)
		if err != nil {
			continue
		}
		r = filepath.ToSlash(r)
		if r == rel {
			text, err := readSkillFile(s.Dir, f)
			if err != nil {
				return fmt.Sprintf("Failed to read '%s': %v", requested, err), false
			}
			return text, true
		}
		if len(available) < 10 {
			available = append(available, r)
		}
	}
	if len(available) == 0 {
		return fmt.Sprintf("Skill '%s' has no supporting files.", s.Name), false
	}
	return fmt.Sprintf("File '%s' not found. Available: %s", requested, strings.Join(available, ", ")), false
}

// MaxSkillFile bounds a supporting file load_skill returns.
const MaxSkillFile = 1 << 20

// errOutsideSkill refuses a supporting file that resolves (through a
// symlink) outside its skill's directory, e.g. to /proc/self/environ.
var errOutsideSkill = errors.New("the file resolves outside the skill directory")

// readSkillFile reads a skill's file: a regular file of at most
// MaxSkillFile bytes and, when dir is set, inside dir once symlinks are
// resolved (a SKILL.md may itself be a link into a shared collection).
func readSkillFile(dir, path string) (string, error) {
	real := path
	if dir != "" {
		var err error
		if real, err = filepath.EvalSymlinks(path); err != nil {
			return "", err
		}
		if d, err := filepath.EvalSymlinks(dir); err == nil {
			dir = d
		}
		if !within(real, dir) {
			return "", errOutsideSkill
		}
	}
	f, _, err := pathpolicy.OpenRegular(real) // a FIFO would block os.Open
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("not a regular file")
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxSkillFile+1))
	if err != nil {
		return "", err
	}
	if len(b) > MaxSkillFile {
		return "", fmt.Errorf("the file is larger than %d bytes", MaxSkillFile)
	}
	return string(b), nil
}

// RenderSkill is goose's loaded-skill context: title, description, the
// body (with arguments applied when args is set) and the supporting files.
func RenderSkill(s Skill, args *string) (string, error) {
	content := s.Content
	if args != nil {
		var err error
		if content, err = ApplySkillArguments(content, *args, s.ArgumentNames()); err != nil {
			return "", err
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Loaded Skill: %s (skill)\n\n%s\n\n## Content\n\n%s\n", s.Name, s.Description, content)
	if len(s.SupportingFiles) > 0 {
		fmt.Fprintf(&b, "\n## Supporting Files\n\nSkill directory: %s\n\n"+
			"Relative paths in this skill resolve from the skill directory. The shell tool runs in the session working directory, "+
			"so use the resolved path below or `cd` into the skill directory before running supporting scripts.\n\n", s.Dir)
		for _, f := range s.SupportingFiles {
			rel, err := filepath.Rel(s.Dir, f)
			if err != nil {
				continue
			}
			rel = filepath.ToSlash(rel)
			fmt.Fprintf(&b, "- %s → %s (load_skill(name: \"%s/%s\"))\n", rel, filepath.ToSlash(f), s.Name, rel)
		}
	}
	return b.String(), nil
}
