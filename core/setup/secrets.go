package setup

import (
	"sort"
	"strings"

	"github.com/goose-acp/goose-acp/core/errkind"
)

// ErrInvalidSecretID is a provider secret id that names no known
// provider's secret key.
var ErrInvalidSecretID = errkind.New(errkind.Invalid, "invalid provider secret id")

// secretIDPrefix is goose's SECRET_STORE_ID_PREFIX.
const secretIDPrefix = "secret_store:"

// ProviderSecret is a provider credential kept in the secret store (goose's
// ProviderSecret with storage secret_store; goose-acp keeps no provider
// token caches).
type ProviderSecret struct {
	ID, Provider, ProviderDisplayName, Name string
}

// ProviderSecrets lists every secret config key of a known provider that
// is stored, sorted by provider display name then key, with goose's ids
// ("secret_store:<provider>:<KEY>").
func (s *Setup) ProviderSecrets() ([]ProviderSecret, error) {
	stored, err := s.opts.Config.Secrets().All()
	if err != nil {
		return nil, err
	}
	var out []ProviderSecret
	for _, md := range s.registry(nil).Providers() {
		for _, k := range md.ConfigKeys {
			if _, ok := stored[k.Name]; !k.Secret || !ok {
				continue
			}
			out = append(out, ProviderSecret{ID: secretIDPrefix + md.Name + ":" + k.Name, Provider: md.Name,
				ProviderDisplayName: md.DisplayName, Name: k.Name})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].ProviderDisplayName != out[j].ProviderDisplayName {
			return out[i].ProviderDisplayName < out[j].ProviderDisplayName
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}

// DeleteProviderSecret removes the secret an id of ProviderSecrets names;
// an id of no known provider's secret key is ErrInvalidSecretID.
func (s *Setup) DeleteProviderSecret(id string) error {
	invalid := errkind.Wrapf(ErrInvalidSecretID, "Invalid provider secret id: '%s'", id)
	rest, ok := strings.CutPrefix(id, secretIDPrefix)
	if !ok {
		return invalid
	}
	name, key, ok := strings.Cut(rest, ":")
	if !ok {
		return invalid
	}
	md, err := s.Lookup(name)
	if err != nil {
		return invalid
	}
	if k, ok := configKey(md, key); !ok || !k.Secret {
		return invalid
	}
	return s.opts.Config.Secrets().Delete(key)
}
