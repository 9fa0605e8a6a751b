package acp

import (
	"context"

	"github.com/goose-acp/goose-acp/core/agent"
)

// _goose/unstable/config/prompts/*: the agent's prompt templates with the
// user's overrides in <config>/prompts/<name> (core/agent templates).

// promptsAPI answers the prompt template methods; configDir holds the
// user's overrides.
type promptsAPI struct {
	configDir string
}

func (a *promptsAPI) methods() map[string]RequestHandler {
	return gated(a.check, map[string]RequestHandler{
		"_goose/unstable/config/prompts/list":  typed(a.list),
		"_goose/unstable/config/prompts/get":   typed(a.get),
		"_goose/unstable/config/prompts/save":  typed(a.save),
		"_goose/unstable/config/prompts/reset": typed(a.reset),
	})
}

func (a *promptsAPI) check() error {
	if a.configDir == "" {
		return errNoSettings
	}
	return nil
}

type promptEntryWire struct {
	Name           string  `json:"name"`
	Description    string  `json:"description"`
	DefaultContent string  `json:"defaultContent"`
	UserContent    *string `json:"userContent"`
	IsCustomized   bool    `json:"isCustomized"`
}

type promptWire struct {
	Name           string `json:"name"`
	Content        string `json:"content"`
	DefaultContent string `json:"defaultContent"`
	IsCustomized   bool   `json:"isCustomized"`
}

type promptMessage struct {
	Message string `json:"message"`
}

func (a *promptsAPI) list(context.Context, struct{}) (map[string][]promptEntryWire, error) {
	out := []promptEntryWire{}
	for _, t := range agent.PromptTemplates(a.configDir) {
		out = append(out, promptEntryWire{Name: t.Name, Description: t.Description, DefaultContent: t.DefaultContent,
			UserContent: t.UserContent, IsCustomized: t.IsCustomized})
	}
	return map[string][]promptEntryWire{"prompts": out}, nil
}

type promptRequest struct {
	Name    string  `json:"name"`
	Content *string `json:"content"`
}

func (a *promptsAPI) get(_ context.Context, req promptRequest) (promptWire, error) {
	t, err := agent.PromptTemplate(a.configDir, req.Name)
	if err != nil {
		return promptWire{}, badName(err)
	}
	return promptWire{Name: t.Name, Content: t.Content(), DefaultContent: t.DefaultContent, IsCustomized: t.IsCustomized}, nil
}

func (a *promptsAPI) save(_ context.Context, req promptRequest) (promptMessage, error) {
	if req.Content == nil {
		return promptMessage{}, invalidParams("missing field `content`")
	}
	if err := agent.SavePromptTemplate(a.configDir, req.Name, *req.Content); err != nil {
		return promptMessage{}, badName(err)
	}
	return promptMessage{Message: "Saved prompt: " + req.Name}, nil
}

func (a *promptsAPI) reset(_ context.Context, req promptRequest) (promptMessage, error) {
	if err := agent.ResetPromptTemplate(a.configDir, req.Name); err != nil {
		return promptMessage{}, badName(err)
	}
	return promptMessage{Message: "Reset prompt to default: " + req.Name}, nil
}
