package agent

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/recipe"
)

// SlashCommandsKey is goose's config key mapping commands to recipes.
const SlashCommandsKey = "slash_commands"

type recipeCommand struct {
	Command    string `json:"command"`
	RecipePath string `json:"recipe_path"`
}

// recipeCommands reads config.yaml's slash_commands list.
func (a *Agent) recipeCommands() []recipeCommand {
	raw, ok := a.opts.Config.Get(SlashCommandsKey)
	if !ok || raw == nil {
		return nil
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return nil
	}
	var out []recipeCommand
	if err := json.Unmarshal(b, &out); err != nil {
		a.log.Warn("slash_commands is not a list", "error", err)
		return nil
	}
	return out
}

// recipeCommandList is config.yaml's slash_commands as commands.
func (a *Agent) recipeCommandList() []Command {
	var out []Command
	for _, c := range a.recipeCommands() {
		out = append(out, Command{Name: strings.ToLower(strings.TrimPrefix(c.Command, "/")), Description: "Run recipe " + c.RecipePath,
			Kind: CommandRecipe, SourcePath: c.RecipePath})
	}
	return out
}

// recipeCommand renders the recipe mapped to name (goose matches the
// command case-insensitively, without its slash). key=value arguments are
// the recipe's parameters; other text is appended to the prompt. The
// recipe's instructions and prompt become the user message.
func (t *turn) recipeCommand(name, rest string) ([]conversation.Message, bool, error) {
	path := ""
	for _, c := range t.a.recipeCommands() {
		if strings.EqualFold(strings.TrimPrefix(c.Command, "/"), name) {
			path = c.RecipePath
			break
		}
	}
	if path == "" {
		return nil, false, nil
	}
	var kv, extra []string
	for _, f := range strings.Fields(rest) {
		if strings.Contains(f, "=") {
			kv = append(kv, f)
		} else {
			extra = append(extra, f)
		}
	}
	params, err := recipe.ParseParams(kv)
	if err != nil {
		return nil, true, err
	}
	r, err := recipe.LoadFile(path, params, nil)
	if err != nil {
		return nil, true, fmt.Errorf("slash command /%s: %w", name, err)
	}
	var parts []string
	if r.Instructions != nil && strings.TrimSpace(*r.Instructions) != "" {
		parts = append(parts, *r.Instructions)
	}
	if r.Prompt != nil && strings.TrimSpace(*r.Prompt) != "" {
		parts = append(parts, *r.Prompt)
	}
	if len(extra) > 0 {
		parts = append(parts, strings.Join(extra, " "))
	}
	if len(parts) == 0 {
		return nil, true, fmt.Errorf("slash command /%s: %w", name, recipe.ErrNoPromptOrInstructions)
	}
	return []conversation.Message{t.userText(strings.Join(parts, "\n\n"))}, true, nil
}
