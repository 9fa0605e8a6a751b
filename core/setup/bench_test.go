package setup

import "testing"

// BenchmarkStatus: what the provider check adds to every ACP session/new
// (config.yaml cached, secrets.yaml read, one provider built, no network).
func BenchmarkStatus(b *testing.B) {
	f := &fixture{env: map[string]string{"GOOSE_DISABLE_KEYRING": "1"}}
	f.paths.Config, f.paths.Data, f.paths.State = b.TempDir(), b.TempDir(), b.TempDir()
	f.write(b, "config.yaml", "GOOSE_PROVIDER: openai\nGOOSE_MODEL: gpt-4o\nGOOSE_MODE: auto\n")
	f.write(b, "secrets.yaml", "OPENAI_API_KEY: sk-bench\n")
	s := f.setup(b)
	b.ReportAllocs()
	for b.Loop() {
		if st := s.Status(); !st.Usable() {
			b.Fatal(st.Err)
		}
	}
}
