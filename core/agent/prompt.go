package agent

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/core/permission"
)

// FallbackSystemPrompt is used if the template fails to render.
const FallbackSystemPrompt = "You are a general-purpose AI agent called goose, created by Block"

// TurnContextSection is the system prompt's "# Turn Context" section: what
// the <turn-context> block appended to a turn is and how to use its
// signals, carrying goose 1.54's SYSTEM_PROMPT_BLOCK_TEMPLATE
// (agents/moim.rs). The tag names are the interface and stay exact.
const TurnContextSection = `# Turn Context

A turn's request may include a ` + "`<turn-context>`" + ` block. goose writes it, not the user; it holds the
current operating context, such as:
- the current time
- the working directory
- how much room is left before the conversation is compacted
- the turn budget
- context that extensions provide

Use it to stay oriented, but do not read it as part of what the user asked for.
Blocks from earlier turns remain in the history; only the latest one is current.
When ` + "`<turn-budget>`" + ` is present, it tells you how much autonomous work is left in this turn.
As the budget runs low, get more direct: explore less, batch the tool calls you still need,
make reasonable assumptions, and concentrate on finishing the user's task.`

type promptExtension struct {
	Name, Instructions string
	HasResources       bool
}

// promptData is what the system prompt template sees. The default template
// uses Extensions and TurnContext; CurrentDateTime, GooseMode and
// IsAutonomous stay for user templates (<config>/prompts/system.md).
type promptData struct {
	Extensions      []promptExtension
	TurnContext     string
	CurrentDateTime string
	GooseMode       string
	IsAutonomous    bool
}

// systemPrompt renders goose 1.54's system prompt structure: identity, the
// turn context section, the extensions sorted by name with their
// instructions, response guidelines; then the additional instructions
// (recipe, final output, hints, chat mode), with Unicode tag characters
// stripped everywhere. It has no date and no mode line, so it stays the
// same across turns and sessions (the time is in the turn context).
func (a *Agent) systemPrompt(ctx context.Context, s *sessionState, mode permission.Mode, wd string) string {
	infos := s.mgr.Extensions()
	data := basePromptData(a.now(), mode)
	for _, info := range infos {
		data.Extensions = append(data.Extensions, promptExtension{Name: info.Key, Instructions: strings.TrimRight(sanitize(info.Instructions), " \n"), HasResources: info.HasResources})
	}
	sort.Slice(data.Extensions, func(i, j int) bool { return data.Extensions[i].Name < data.Extensions[j].Name })
	base := FallbackSystemPrompt
	if out, err := a.renderPrompt(TemplateSystem, data); err == nil {
		base = out
	}
	if o := s.prompt.base(); o != "" {
		base = o
	}
	extras := append(a.promptExtras(s, mode, wd), s.prompt.extraTexts()...)
	base = strings.TrimRight(sanitize(base), "\n")
	if len(extras) == 0 {
		return base
	}
	return base + "\n\n# Additional Instructions:\n\n" + strings.Join(extras, "\n\n")
}

// basePromptData is the template data before the extensions are added.
func basePromptData(now time.Time, mode permission.Mode) promptData {
	return promptData{
		TurnContext:     TurnContextSection,
		CurrentDateTime: now.Format("2006-01-02 15:00"),
		GooseMode:       string(mode),
		IsAutonomous:    mode == permission.ModeAuto,
	}
}

func (a *Agent) promptExtras(s *sessionState, mode permission.Mode, wd string) []string {
	var extras []string
	s.mu.Lock()
	recipe, final := s.recipe, s.final
	s.mu.Unlock()
	if recipe != nil && strings.TrimSpace(recipe.Instructions) != "" {
		extras = append(extras, sanitize(recipe.Instructions))
	}
	if final != nil {
		extras = append(extras, final.systemPrompt())
	}
	for _, c := range s.subHints.snapshot() {
		extras = append(extras, sanitize(c))
	}
	if wd != "" {
		if h := loadHints(wd, a.opts.ConfigDir, a.cfg.agentsHome(), a.contextFileNames()); h != "" {
			extras = append(extras, sanitize(h))
		}
	}
	if mode == permission.ModeChat {
		extras = append(extras, ChatModePromptText)
	}
	return extras
}

// contextFileNames reads CONTEXT_FILE_NAMES (a JSON list or a comma
// separated string) with goose's default.
func (a *Agent) contextFileNames() []string {
	v, ok := a.opts.Config.Get("CONTEXT_FILE_NAMES")
	if !ok || v == nil {
		return DefaultContextFileNames
	}
	switch x := v.(type) {
	case []string:
		return x
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	case string:
		var list []string
		if json.Unmarshal([]byte(x), &list) == nil {
			return list
		}
		var out []string
		for _, p := range strings.Split(x, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		return out
	}
	return DefaultContextFileNames
}

// sanitize removes Unicode tag characters (U+E0000–U+E007F), which can
// smuggle invisible instructions.
func sanitize(s string) string {
	if !strings.ContainsFunc(s, isTagRune) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isTagRune(r) {
			return -1
		}
		return r
	}, s)
}

func isTagRune(r rune) bool { return r >= 0xE0000 && r <= 0xE007F }
