package httpapi

import (
	"errors"
	"net/http"

	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/registry"
)

// Custom providers (goosed's /config/custom-providers): the files and
// their API keys are registry.CustomStore's; these routes only translate.

// DefaultCustomContextLimit is the context limit of a custom provider's
// models (the registry's).
const DefaultCustomContextLimit = registry.DefaultCustomContextLimit

// customProviderRequest is goosed's UpdateCustomProviderRequest.
type customProviderRequest struct {
	Engine            string            `json:"engine"`
	DisplayName       string            `json:"display_name"`
	APIURL            string            `json:"api_url"`
	APIKey            *string           `json:"api_key"`
	Models            []string          `json:"models"`
	SupportsStreaming *bool             `json:"supports_streaming"`
	Headers           map[string]string `json:"headers"`
	RequiresAuth      *bool             `json:"requires_auth"`
	BasePath          *string           `json:"base_path"`
}

func (q customProviderRequest) check() error {
	if q.APIKey == nil {
		return errors.New("missing field `api_key`")
	}
	if q.Models == nil {
		return errors.New("missing field `models`")
	}
	return required("engine", q.Engine, "display_name", q.DisplayName, "api_url", q.APIURL)
}

func (q customProviderRequest) input() registry.CustomInput {
	return registry.CustomInput{Engine: q.Engine, DisplayName: q.DisplayName, APIURL: q.APIURL, APIKey: *q.APIKey,
		Models: q.Models, SupportsStreaming: q.SupportsStreaming, Headers: q.Headers, RequiresAuth: q.RequiresAuth, BasePath: q.BasePath}
}

// customError words the store's errors as goosed does on these routes: an
// unknown id is "Provider not found", bad input 400 on create and 500 on
// update, anything else 500.
func customError(err error, id string, invalidStatus int) error {
	switch errkind.Of(err) {
	case errkind.NotFound:
		return notFound("Provider not found: %s", id)
	case errkind.Invalid:
		return errorf(invalidStatus, "%w", err)
	}
	return errorf(http.StatusInternalServerError, "%w", err)
}

// createCustomProvider writes <config>/custom_providers/<id>.json and
// stores the API key as the secret <ID>_API_KEY.
func (a *providersAPI) createCustomProvider(_ *http.Request, q customProviderRequest) (reply, error) {
	cp, err := a.custom.Create(q.input())
	if err != nil {
		return reply{}, customError(err, "", http.StatusBadRequest)
	}
	return ok(map[string]string{"provider_name": cp.Name}), nil
}

func (a *providersAPI) getCustomProvider(r *http.Request) (reply, error) {
	id := r.PathValue("id")
	cp, err := a.custom.Get(id)
	if err != nil {
		return reply{}, customError(err, id, http.StatusInternalServerError)
	}
	if cp.Models == nil {
		cp.Models = []provider.ModelInfo{}
	}
	return ok(map[string]any{"config": cp, "is_editable": true}), nil
}

// updateCustomProvider rewrites the provider and replaces the key when one
// is given.
func (a *providersAPI) updateCustomProvider(r *http.Request, q customProviderRequest) (reply, error) {
	id := r.PathValue("id")
	if _, err := a.custom.Update(id, q.input()); err != nil {
		return reply{}, customError(err, id, http.StatusInternalServerError)
	}
	return ok("Updated custom provider " + id), nil
}

// removeCustomProvider deletes the file and the provider's key.
func (a *providersAPI) removeCustomProvider(r *http.Request) (reply, error) {
	id := r.PathValue("id")
	if err := a.custom.Remove(id); err != nil {
		return reply{}, customError(err, id, http.StatusInternalServerError)
	}
	return ok("Removed custom provider " + id), nil
}
