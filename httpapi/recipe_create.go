package httpapi

import (
	"net/http"

	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/recipe"
)

type createRecipeRequest struct {
	SessionID string         `json:"session_id"`
	Author    *recipe.Author `json:"author"`
}

func (q createRecipeRequest) check() error { return required("session_id", q.SessionID) }

// createRecipeResponse is goosed's CreateRecipeResponse; failures carry
// the error in the same shape.
type createRecipeResponse struct {
	Recipe *recipe.Recipe `json:"recipe"`
	Error  *string        `json:"error"`
}

// createRecipe asks the session's model to turn the conversation into a
// recipe (agent.Recipes().Create). The session must be loaded (412 otherwise,
// as goosed answers when it has no agent for it); a request author
// replaces the one taken from $USER.
func (a *recipesAPI) createRecipe(r *http.Request, req createRecipeRequest) (reply, error) {
	rec, err := a.recipes.Create(r.Context(), req.SessionID)
	if err != nil {
		status := http.StatusInternalServerError
		if k := errkind.Of(err); k == errkind.NotReady || k == errkind.AuthRequired {
			status = http.StatusPreconditionFailed
		} else {
			a.log.Error("creating recipe failed", "session", req.SessionID, "error", err)
		}
		msg := "Failed to create recipe: " + err.Error()
		return jsonStatus(status, createRecipeResponse{Error: &msg}), nil
	}
	if req.Author != nil {
		rec.Author = req.Author
	}
	return ok(createRecipeResponse{Recipe: rec}), nil
}
