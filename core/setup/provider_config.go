package setup

import (
	"errors"
	"fmt"
	"strings"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/provider"
)

// ErrInvalidField wraps every refused provider setting (unknown key, empty
// value).
var ErrInvalidField = errkind.New(errkind.Invalid, "invalid provider config field")

// Configured reports whether the provider has the settings it needs
// (registry.Configured over the environment, config.yaml and secrets).
func (s *Setup) Configured(name string) bool { return s.registry(nil).Configured(name) }

// FieldValue is one config key of a provider with its current value;
// a secret's value is masked (goose's provider mask: the first 4
// characters then "...", or "***" when shorter than 8).
type FieldValue struct {
	provider.ConfigKey
	Value *string
	IsSet bool
}

// FieldValues lists the provider's config keys with their values:
// secrets from the environment or the secret store, other keys from the
// environment or config.yaml.
func (s *Setup) FieldValues(name string) ([]FieldValue, error) {
	md, err := s.Lookup(name)
	if err != nil {
		return nil, err
	}
	out := make([]FieldValue, 0, len(md.ConfigKeys))
	for _, k := range md.ConfigKeys {
		v, ok := s.current(k)
		f := FieldValue{ConfigKey: k, IsSet: ok}
		if ok {
			if k.Secret {
				v = MaskProviderSecret(v)
			}
			f.Value = &v
		}
		out = append(out, f)
	}
	return out, nil
}

func (s *Setup) current(k provider.ConfigKey) (string, bool) {
	if v, ok := s.opts.Env(k.Name); ok && v != "" {
		return v, true
	}
	var v any
	var err error
	if k.Secret {
		v, err = s.opts.Config.Secrets().Get(k.Name)
	} else {
		v, err = s.opts.Config.Get(k.Name)
	}
	if err != nil || v == nil {
		return "", false
	}
	str, isString := v.(string)
	if !isString {
		str = fmt.Sprint(v)
	}
	return str, str != ""
}

// MaskProviderSecret is goose's mask for provider secrets.
func MaskProviderSecret(v string) string {
	r := []rune(v)
	if len(r) < 8 {
		return "***"
	}
	return string(r[:4]) + "..."
}

// SaveFields stores values for the provider's own keys: secrets in the
// secret store, the rest in config.yaml in one rewrite. Every value is
// checked first, so a refused one stores nothing.
func (s *Setup) SaveFields(name string, values []config.KeyValue) error {
	md, err := s.Lookup(name)
	if err != nil {
		return err
	}
	var plain []config.KeyValue
	var secrets []config.KeyValue
	for _, kv := range values {
		k, ok := configKey(md, kv.Key)
		if !ok {
			return errkind.Wrapf(ErrInvalidField, "Unsupported provider config field: %s", kv.Key)
		}
		v := strings.TrimSpace(fmt.Sprint(kv.Value))
		if v == "" {
			return errkind.Wrapf(ErrInvalidField, "Provider config field cannot be empty: %s", kv.Key)
		}
		if k.Secret {
			secrets = append(secrets, config.KeyValue{Key: k.Name, Value: v})
		} else {
			plain = append(plain, config.KeyValue{Key: k.Name, Value: v})
		}
	}
	if len(plain) > 0 {
		if err := s.opts.Config.SetMany(plain); err != nil {
			return err
		}
	}
	for _, kv := range secrets {
		if err := s.opts.Config.Secrets().Set(kv.Key, kv.Value); err != nil {
			return fmt.Errorf("storing %s: %w", kv.Key, err)
		}
	}
	return nil
}

// DeleteFields removes every config key of the provider from config.yaml
// and the secret store (keys that are not set are skipped).
func (s *Setup) DeleteFields(name string) error {
	md, err := s.Lookup(name)
	if err != nil {
		return err
	}
	for _, k := range md.ConfigKeys {
		if k.Secret {
			if _, gerr := s.opts.Config.Secrets().Get(k.Name); gerr != nil {
				continue
			}
			err = s.opts.Config.Secrets().Delete(k.Name)
		} else {
			err = s.opts.Config.Delete(k.Name)
		}
		if err != nil && !errors.Is(err, config.ErrNotFound) {
			return fmt.Errorf("deleting %s: %w", k.Name, err)
		}
	}
	return nil
}

func configKey(md provider.Metadata, name string) (provider.ConfigKey, bool) {
	for _, k := range md.ConfigKeys {
		if k.Name == name {
			return k, true
		}
	}
	return provider.ConfigKey{}, false
}
