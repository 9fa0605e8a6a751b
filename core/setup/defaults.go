package setup

import (
	"errors"
	"fmt"
	"strings"

	"github.com/goose-acp/goose-acp/core/config"
)

// Default returns the default provider and model (GOOSE_PROVIDER and
// GOOSE_MODEL, environment first); "" when unset.
func (s *Setup) Default() (providerName, modelName string, err error) {
	if providerName, err = s.setting("GOOSE_PROVIDER"); err != nil {
		return "", "", err
	}
	modelName, err = s.setting("GOOSE_MODEL")
	return providerName, modelName, err
}

func (s *Setup) setting(key string) (string, error) {
	v, err := s.opts.Config.Get(key)
	if errors.Is(err, config.ErrNotFound) || v == nil {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(fmt.Sprint(v)), nil
}

// SaveDefault makes name the default provider with modelName, or with the
// provider's default model when modelName is empty (a provider switch never
// keeps the previous provider's model). It writes both keys in one rewrite
// and returns the model stored.
func (s *Setup) SaveDefault(name, modelName string) (string, error) {
	name, modelName = strings.TrimSpace(name), strings.TrimSpace(modelName)
	if name == "" {
		return "", fmt.Errorf("%w: providerId cannot be empty", ErrUnknownProvider)
	}
	md, err := s.Lookup(name)
	if err != nil {
		return "", err
	}
	if modelName == "" {
		modelName = md.DefaultModel
	}
	return modelName, s.opts.Config.SetMany([]config.KeyValue{{Key: "GOOSE_PROVIDER", Value: name}, {Key: "GOOSE_MODEL", Value: modelName}})
}

// ClearDefault removes GOOSE_PROVIDER and GOOSE_MODEL from the user file.
func (s *Setup) ClearDefault() error {
	for _, key := range []string{"GOOSE_PROVIDER", "GOOSE_MODEL"} {
		if err := s.opts.Config.Delete(key); err != nil {
			return err
		}
	}
	return nil
}
