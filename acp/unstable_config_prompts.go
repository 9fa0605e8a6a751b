package acp

import (
	"context"
	"errors"

	"github.com/goose-acp/goose-acp/core/agent"
)

// _goose/unstable/config/prompts/*: the agent's prompt templates with the
// user's overrides in <config>/prompts/<name> (core/agent templates).

func (s *Server) unstablePromptMethods() map[string]RequestHandler {
	return map[string]RequestHandler{
		"_goose/unstable/config/prompts/list":  typed(s.unstablePromptsList),
		"_goose/unstable/config/prompts/get":   typed(s.unstablePromptGet),
		"_goose/unstable/config/prompts/save":  typed(s.unstablePromptSave),
		"_goose/unstable/config/prompts/reset": typed(s.unstablePromptReset),
	}
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

func (s *Server) unstablePromptsList(context.Context, struct{}) (map[string][]promptEntryWire, error) {
	st, err := s.settings()
	if err != nil {
		return nil, err
	}
	out := []promptEntryWire{}
	for _, t := range agent.PromptTemplates(st.configDir()) {
		out = append(out, promptEntryWire{Name: t.Name, Description: t.Description, DefaultContent: t.DefaultContent,
			UserContent: t.UserContent, IsCustomized: t.IsCustomized})
	}
	return map[string][]promptEntryWire{"prompts": out}, nil
}

type promptRequest struct {
	Name    string  `json:"name"`
	Content *string `json:"content"`
}

func (s *Server) unstablePromptGet(_ context.Context, req promptRequest) (promptWire, error) {
	st, err := s.settings()
	if err != nil {
		return promptWire{}, err
	}
	t, err := agent.PromptTemplate(st.configDir(), req.Name)
	if err != nil {
		return promptWire{}, promptErr(req.Name, err)
	}
	return promptWire{Name: t.Name, Content: t.Content(), DefaultContent: t.DefaultContent, IsCustomized: t.IsCustomized}, nil
}

func (s *Server) unstablePromptSave(_ context.Context, req promptRequest) (promptMessage, error) {
	st, err := s.settings()
	if err != nil {
		return promptMessage{}, err
	}
	if req.Content == nil {
		return promptMessage{}, invalidParams("missing field `content`")
	}
	if err := agent.SavePromptTemplate(st.configDir(), req.Name, *req.Content); err != nil {
		return promptMessage{}, promptErr(req.Name, err)
	}
	return promptMessage{Message: "Saved prompt: " + req.Name}, nil
}

func (s *Server) unstablePromptReset(_ context.Context, req promptRequest) (promptMessage, error) {
	st, err := s.settings()
	if err != nil {
		return promptMessage{}, err
	}
	if err := agent.ResetPromptTemplate(st.configDir(), req.Name); err != nil {
		return promptMessage{}, promptErr(req.Name, err)
	}
	return promptMessage{Message: "Reset prompt to default: " + req.Name}, nil
}

// promptErr words template errors as goose does; a template that does not
// parse is refused with the parser's reason.
func promptErr(name string, err error) error {
	switch {
	case errors.Is(err, agent.ErrUnknownTemplate):
		return invalidParams("Prompt template '%s' not found", name)
	case errors.Is(err, agent.ErrInvalidTemplate):
		return invalidParams("%v", err)
	}
	return err
}
