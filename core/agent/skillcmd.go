package agent

import (
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/extension/platform"
)

// skills are the skills of a session with the skills extension enabled
// (none otherwise), discovered in its working dir.
func (a *Agent) skills(s *sessionState) []platform.Skill {
	if !s.mgr.Has(platform.Skills) {
		return nil
	}
	_, _, _, wd := s.snapshot()
	return a.deps(s).SessionSkills(wd)
}

// skillCommands offers each skill as "/<name> args" (goose only lists
// skills in the system prompt; editors show commands in their menus).
func (a *Agent) skillCommands(s *sessionState) []Command {
	var out []Command
	for _, sk := range a.skills(s) {
		out = append(out, Command{Name: sk.Name, Description: sk.Description, Hint: sk.ArgumentHint(), Kind: CommandSkill})
	}
	return out
}

// skillCommand loads the named skill into the turn: the user message
// becomes the loaded skill (goose's load_skill text, arguments applied),
// so the model follows it right away. A bad argument string is an error
// the user sees; the turn does not start.
func (t *turn) skillCommand(name, rest string) ([]conversation.Message, bool, error) {
	for _, sk := range t.a.skills(t.s) {
		if sk.Name != name {
			continue
		}
		var args *string
		if rest != "" {
			args = &rest
		}
		text, err := platform.RenderSkill(sk, args)
		if err != nil {
			return nil, true, &SkillArgumentsError{Skill: name, Err: err}
		}
		return []conversation.Message{t.userText(text)}, true, nil
	}
	return nil, false, nil
}

// SkillArgumentsError is goose's "Failed to parse skill arguments: …" for
// a slash command whose arguments do not split.
type SkillArgumentsError struct {
	Skill string
	Err   error
}

func (e *SkillArgumentsError) Error() string {
	return "Failed to parse skill arguments: " + e.Err.Error()
}

func (e *SkillArgumentsError) Unwrap() error { return e.Err }
