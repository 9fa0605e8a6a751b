package httpapi

import (
	"errors"
	"net/http"

	"github.com/goose-acp/goose-acp/core/agent"
)

// Prompt templates (goosed's routes/prompts.rs): the agent's templates
// with the user's overrides in <config>/prompts/<name>, which the agent
// reads every time it renders one.

// promptsAPI answers /config/prompts*: the agent's prompt templates with
// the user's overrides in <config>/prompts.
type promptsAPI struct {
	configDir string
}

func (a *promptsAPI) routes() []route {
	return []route{
		{"GET", "/config/prompts", 0, noInput(a.listPrompts), nil},
		{"GET", "/config/prompts/{name}", 0, noInput(a.getPrompt), nil},
		{"PUT", "/config/prompts/{name}", 0, withBody(a.savePrompt), nil},
		{"DELETE", "/config/prompts/{name}", 0, noInput(a.resetPrompt), nil},
	}
}

func (a *promptsAPI) listPrompts(*http.Request) (reply, error) {
	return ok(map[string]any{"prompts": agent.PromptTemplates(a.configDir)}), nil
}

type promptContent struct {
	Name           string `json:"name"`
	Content        string `json:"content"`
	DefaultContent string `json:"default_content"`
	IsCustomized   bool   `json:"is_customized"`
}

func (a *promptsAPI) getPrompt(r *http.Request) (reply, error) {
	t, err := agent.PromptTemplate(a.configDir, r.PathValue("name"))
	if err != nil {
		return reply{}, err
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

func (a *promptsAPI) savePrompt(r *http.Request, req savePromptRequest) (reply, error) {
	name := r.PathValue("name")
	if err := agent.SavePromptTemplate(a.configDir, name, *req.Content); err != nil {
		return reply{}, err
	}
	// goosed answers Json<String>.
	return ok("Saved prompt: " + name), nil
}

func (a *promptsAPI) resetPrompt(r *http.Request) (reply, error) {
	name := r.PathValue("name")
	if err := agent.ResetPromptTemplate(a.configDir, name); err != nil {
		return reply{}, err
	}
	return ok("Reset prompt to default: " + name), nil
}
