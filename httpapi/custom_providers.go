package httpapi

import (
	"errors"
	"net/http"

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

// customError maps the store's errors to goosed's statuses; a bad engine
// is 400 on create and 500 on update, as goosed answers.
func customError(err error, id string, engineStatus int) error {
	switch {
	case errors.Is(err, registry.ErrCustomNotFound):
		return notFound("Provider not found: %s", id)
	case errors.Is(err, registry.ErrInvalidEngine):
		return errorf(engineStatus, "%w", err)
	}
	return errorf(http.StatusInternalServerError, "%w", err)
}

// createCustomProvider writes <config>/custom_providers/<id>.json and
// stores the API key as the secret <ID>_API_KEY.
func (s *Server) createCustomProvider(_ *http.Request, q customProviderRequest) (reply, error) {
	cp, err := s.customProviders().Create(q.input())
	if err != nil {
		return reply{}, customError(err, "", http.StatusBadRequest)
	}
	return ok(map[string]string{"provider_name": cp.Name}), nil
}

func (s *Server) getCustomProvider(r *http.Request) (reply, error) {
	id := r.PathValue("id")
	cp, err := s.customProviders().Get(id)
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
func (s *Server) updateCustomProvider(r *http.Request, q customProviderRequest) (reply, error) {
	id := r.PathValue("id")
	if _, err := s.customProviders().Update(id, q.input()); err != nil {
		return reply{}, customError(err, id, http.StatusInternalServerError)
	}
	return ok("Updated custom provider " + id), nil
}

// removeCustomProvider deletes the file and the provider's key.
func (s *Server) removeCustomProvider(r *http.Request) (reply, error) {
	id := r.PathValue("id")
	if err := s.customProviders().Remove(id); err != nil {
		return reply{}, customError(err, id, http.StatusInternalServerError)
	}
	return ok("Removed custom provider " + id), nil
}
