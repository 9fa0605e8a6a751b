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
		{"GET", "/config/prompts", 0, hf(s.listPrompts)},
		{"GET", "/config/prompts/{name}", 0, hf(s.getPrompt)},
		{"PUT", "/config/prompts/{name}", 0, hf(s.savePrompt)},
		{"DELETE", "/config/prompts/{name}", 0, hf(s.resetPrompt)},
		{"POST", "/recipes/create", 0, hf(s.createRecipe)},
	}
}

func (s *Server) listPrompts(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"prompts": agent.PromptTemplates(s.opts.ConfigDir)})
}

type promptContent struct {
	Name           string `json:"name"`
	Content        string `json:"content"`
	DefaultContent string `json:"default_content"`
	IsCustomized   bool   `json:"is_customized"`
}

func (s *Server) getPrompt(w http.ResponseWriter, r *http.Request) {
	t, err := agent.PromptTemplate(s.opts.ConfigDir, r.PathValue("name"))
	if err != nil {
		s.writeError(w, r, promptError(err))
		return
	}
	writeJSON(w, http.StatusOK, promptContent{Name: t.Name, Content: t.Content(), DefaultContent: t.DefaultContent, IsCustomized: t.IsCustomized})
}

type savePromptRequest struct {
	Content *string `json:"content"`
}

func (q *savePromptRequest) check() error {
	if q.Content == nil {
		return errors.New("missing field `content`")
	}
	return nil
}

func (s *Server) savePrompt(w http.ResponseWriter, r *http.Request) {
	var req savePromptRequest
	if err := decodeJSON(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	name := r.PathValue("name")
	if err := agent.SavePromptTemplate(s.opts.ConfigDir, name, *req.Content); err != nil {
		s.writeError(w, r, promptError(err))
		return
	}
	// goosed answers Json<String>.
	writeJSON(w, http.StatusOK, "Saved prompt: "+name)
}

func (s *Server) resetPrompt(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if err := agent.ResetPromptTemplate(s.opts.ConfigDir, name); err != nil {
		s.writeError(w, r, promptError(err))
		return
	}
	writeJSON(w, http.StatusOK, "Reset prompt to default: "+name)
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
