package setup

import (
	"context"
	"errors"

	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/model"
)

// What every face asks about one stored provider: its live model list,
// whether it can be built, and making it the default. The faces word the
// errors as their clients expect; the checks and their order are here.

// ProviderModels is a configured provider's live model list, fetched with
// the stored settings. Errors: ErrUnknownProvider for a name neither
// built in nor custom; ErrNotConfigured when the provider lacks a setting
// it needs; ErrNoModelList when it lists none, or (wrapping the
// provider's error: errkind.Detail is its text, provider.KindOf its kind)
// when the fetch fails.
func (s *Setup) ProviderModels(ctx context.Context, name string) ([]string, error) {
	if _, err := s.Lookup(name); err != nil {
		return nil, err
	}
	if !s.Configured(name) {
		return nil, errkind.Wrapf(ErrNotConfigured, "%s is not configured", name)
	}
	return s.Models(ctx, Choice{Provider: name})
}

// ErrCannotBuild wraps a provider's refusal to be built from the stored
// settings (a missing key, a bad host): errkind.Detail is its text.
var ErrCannotBuild = errkind.New(errkind.Invalid, "the provider cannot be built")

// Build checks that the named provider can be built with modelName (its
// default model when empty) from the stored settings; nothing is sent to
// it. Errors: ErrUnknownProvider or ErrCannotBuild.
func (s *Setup) Build(name, modelName string) error {
	md, err := s.Lookup(name)
	if err != nil {
		return err
	}
	if modelName == "" {
		modelName = md.DefaultModel
	}
	if _, err := s.registry(nil).Create(name, model.Config{ModelName: modelName}); err != nil {
		return errkind.Wrapf(ErrCannotBuild, "%w", err)
	}
	return nil
}

// SelectDefault makes name with modelName the default provider and model
// once Build accepts them (goosed's set_provider): nothing is written for
// a provider that cannot be built. Errors: Build's, or the config write's.
func (s *Setup) SelectDefault(name, modelName string) error {
	if err := s.Build(name, modelName); err != nil {
		return err
	}
	_, err := s.SaveDefault(name, modelName)
	return err
}

// IsListFailure reports whether err is ProviderModels' fetch failure (as
// opposed to an empty list, which is ErrNoModelList itself).
func IsListFailure(err error) bool {
	return errors.Is(err, ErrNoModelList) && err != ErrNoModelList
}
