package registry

// Configured reports whether the named provider has the settings it needs
// (goosed's is_configured): every required key without a default is set,
// and a provider with secret keys has at least one of them set; one with
// no secrets counts as configured once any of its keys is set explicitly.
// A custom provider is configured when its API key is set or it needs none.
func (r *Registry) Configured(name string) bool {
	e, err := r.entry(name)
	if err != nil {
		return false
	}
	for _, cp := range r.customProviders() {
		if cp.Name == name {
			if !cp.needsAuth() {
				return true
			}
			_, ok := r.secret(cp.APIKeyEnv)
			return ok
		}
	}
	get := r.settings(e.metadata)
	hasSecret, secretSet, anySet := false, false, false
	for _, k := range e.metadata.ConfigKeys {
		_, ok := get(k.Name)
		if k.Required && k.Default == nil && !ok {
			return false
		}
		anySet = anySet || ok
		if k.Secret {
			hasSecret = true
			secretSet = secretSet || ok
		}
	}
	if hasSecret {
		return secretSet
	}
	return anySet
}
