package developer

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// goose's prompts/get argument limits.
const (
	maxPromptTemplate = 10000
	maxPromptKey      = 1000
	maxPromptValue    = 1000
)

// unsafePromptPatterns are rejected in prompt argument keys and values.
var unsafePromptPatterns = []string{"../", "//", `\\`, "<script>", "{{", "}}"}

type promptDef struct {
	name     string
	template string
	args     []*mcp.PromptArgument
}

// developerPrompts are goose's embedded developer prompts.
var developerPrompts = []promptDef{{
	name: "diff_edit_test",
	template: "Create a unit test for the text_editor diff_edit command.\n\nThe diff_edit command should:\n" +
		"1. Accept a file path, start_line, end_line, and file_text\n" +
		"2. Replace the lines from start_line to end_line (inclusive) with the new file_text\n" +
		"3. Handle edge cases appropriately (file doesn't exist, invalid line numbers)\n" +
		"4. Save history for undo functionality\n\nYour test should verify these behaviors.\n\n{{additional_info}}",
	args: []*mcp.PromptArgument{{Name: "additional_info", Description: "Any additional information or specific test scenarios", Required: false}},
}}

func (s *service) registerPrompts(srv registrar) {
	for _, p := range developerPrompts {
		srv.AddPrompt(&mcp.Prompt{Name: p.name, Description: p.template, Arguments: p.args}, promptHandler(p))
	}
}

func promptHandler(p promptDef) mcp.PromptHandler {
	return func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		var args map[string]string
		if req != nil && req.Params != nil {
			args = req.Params.Arguments
		}
		filled, err := fillPrompt(p, args)
		if err != nil {
			return nil, err
		}
		return &mcp.GetPromptResult{
			Description: filled,
			Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: filled}}},
		}, nil
	}
}

// fillPrompt validates arguments like goose and substitutes placeholders.
// goose replaces "{key}", which turns the template's "{{key}}" into
// "{value}"; we replace the whole "{{key}}" so no stray braces remain.
func fillPrompt(p promptDef, args map[string]string) (string, error) {
	if len(p.template) > maxPromptTemplate {
		return "", internalError("Prompt template exceeds maximum allowed length")
	}
	for k, v := range args {
		if len(k) == 0 || len(k) > maxPromptKey {
			return "", invalidParams("Argument keys must be between 1-%d characters", maxPromptKey)
		}
		if len(v) > maxPromptValue {
			return "", invalidParams("Argument values must not exceed %d characters", maxPromptValue)
		}
		for _, pat := range unsafePromptPatterns {
			if strings.Contains(k, pat) || strings.Contains(v, pat) {
				return "", invalidParams("Arguments contain potentially unsafe pattern: %s", pat)
			}
		}
	}
	for _, a := range p.args {
		if _, ok := args[a.Name]; a.Required && !ok {
			return "", invalidParams("Missing required argument: '%s'", a.Name)
		}
	}
	out := p.template
	for _, a := range p.args {
		v := args[a.Name]
		out = strings.ReplaceAll(out, "{{"+a.Name+"}}", v)
		out = strings.ReplaceAll(out, "{"+a.Name+"}", v)
	}
	return strings.TrimRight(out, "\n"), nil
}
