package acp

import (
	"context"
	"testing"
)

// BenchmarkUnstableProvidersList is Desktop's startup providers/list on a
// config with one key set (every provider's configured check reads the
// environment, config.yaml, the secret store and custom_providers/).
func BenchmarkUnstableProvidersList(b *testing.B) {
	h := newSettingsHome(b, "OPENAI_HOST: http://127.0.0.1:9\n")
	if err := h.cfg.Secrets().Set("OPENAI_API_KEY", "sk-bench-123456"); err != nil {
		b.Fatal(err)
	}
	st := withDefaults(Options{Settings: Settings{Config: h.cfg}}).Settings
	a := &providersAPI{setup: st.Setup, custom: st.CustomProviders}
	b.ReportAllocs()
	for b.Loop() {
		out, err := a.list(context.Background(), providerIDsRequest{})
		if err != nil || len(out["entries"]) == 0 {
			b.Fatal(out, err)
		}
	}
}
