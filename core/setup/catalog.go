package setup

import "github.com/goose-acp/goose-acp/core/provider"

// Setup methods of goose's provider setup catalog (ProviderSetupMethod).
const (
	MethodNone         = "none"
	MethodSingleAPIKey = "single_api_key"
	MethodConfigFields = "config_fields"
	MethodLocal        = "local"
)

// SetupMethod says how a provider is set up, from its config keys: nothing
// to ask, one API key, a local server (settings but no secret), or several
// fields.
func SetupMethod(md provider.Metadata) string {
	var secrets, required int
	for _, k := range md.ConfigKeys {
		if k.Secret {
			secrets++
		}
		if k.Required && k.Default == nil {
			required++
		}
	}
	switch {
	case len(md.ConfigKeys) == 0:
		return MethodNone
	case secrets == 0:
		return MethodLocal
	case secrets == 1 && required <= 1:
		return MethodSingleAPIKey
	}
	return MethodConfigFields
}

// PrimaryKey is the key a setup form leads with: the first secret, else
// the first required key, else none.
func PrimaryKey(md provider.Metadata) string {
	for _, k := range md.ConfigKeys {
		if k.Secret {
			return k.Name
		}
	}
	for _, k := range md.ConfigKeys {
		if k.Required {
			return k.Name
		}
	}
	return ""
}
