package httpapi

import (
	"errors"
	"net/http"

	"github.com/goose-acp/goose-acp/core/agent"
)

// Prompt templates (goosed's routes/prompts.rs): the agent's templates
// with the user's overrides in <config>/prompts/<name>, which the agent
// reads every time it renders one.

// promptRoutes are /config/prompts* and /recipes/create (both on the
// agent's prompt templates).
func (s *Server) promptRoutes() []route {
	return []route{
		{"GET", "/config/prompts", 0, noInput(s, s.listPrompts)},
		{"GET", "/config/prompts/{name}", 0, noInput(s, s.getPrompt)},
		{"PUT", "/config/prompts/{name}", 0, withBody(s, s.savePrompt)},
		{"DELETE", "/config/prompts/{name}", 0, noInput(s, s.resetPrompt)},
		{"POST", "/recipes/create", 0, withBody(s, s.createRecipe)},
	}
}

func (s *Server) listPrompts(*http.Request) (reply, error) {
	return ok(map[string]any{"prompts": agent.PromptTemplates(s.opts.ConfigDir)}), nil
}

type promptContent struct {
	Name           string `json:"name"`
	Content        string `json:"content"`
	DefaultContent string `json:"default_content"`
	IsCustomized   bool   `json:"is_customized"`
}

func (s *Server) getPrompt(r *http.Request) (reply, error) {
	t, err := agent.PromptTemplate(s.opts.ConfigDir, r.PathValue("name"))
	if err != nil {
		return reply{}, promptError(err)
	}
	return ok(promptContent{Name: t.Name, Content: t.Content(), DefaultContent: t.DefaultContent, IsCustomized: t.IsCustomized}), nil
}

type savePromptRequest struct {
	Content *string `json:"content"`
}

func (q savePromptRequest) check() error {
	if q.Content == nil {
		return errors.New("missing field `content`")
	}
	return nil
}

func (s *Server) savePrompt(r *http.Request, req savePromptRequest) (reply, error) {
	name := r.PathValue("name")
	if err := agent.SavePromptTemplate(s.opts.ConfigDir, name, *req.Content); err != nil {
		return reply{}, promptError(err)
	}
	// goosed answers Json<String>.
	return ok("Saved prompt: " + name), nil
}

func (s *Server) resetPrompt(r *http.Request) (reply, error) {
	name := r.PathValue("name")
	if err := agent.ResetPromptTemplate(s.opts.ConfigDir, name); err != nil {
		return reply{}, promptError(err)
	}
	return ok("Reset prompt to default: " + name), nil
}

func promptError(err error) error {
	switch {
	case errors.Is(err, agent.ErrUnknownTemplate):
		return &apiError{status: http.StatusNotFound, msg: err.Error(), err: err}
	case errors.Is(err, agent.ErrInvalidTemplate):
		return &apiError{status: http.StatusBadRequest, msg: err.Error(), err: err}
	}
	return err
}
