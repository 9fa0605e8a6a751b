package config

import (
	"path/filepath"
	"testing"
)

// SetMany rewrites existing keys in place (comments kept) and appends new
// ones in the order given: a user's file keeps its shape.
func TestSetManyKeepsOrderAndComments(t *testing.T) {
	e := newTestEnv(t)
	path := e.paths.ConfigFile()
	writeAll(t, path, "# my settings\nGOOSE_MODE: smart_approve\nGOOSE_MODEL: old # was this\nzeta: 1\nalpha: true\n")
	c := e.open(t)
	err := c.SetMany([]KeyValue{{"GOOSE_PROVIDER", "openai"}, {"GOOSE_MODEL", "gpt-4o-mini"}, {"OPENAI_HOST", "http://127.0.0.1:1"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "# my settings\nGOOSE_MODE: smart_approve\nGOOSE_MODEL: gpt-4o-mini # was this\nzeta: 1\nalpha: true\nGOOSE_PROVIDER: openai\nOPENAI_HOST: http://127.0.0.1:1\n"
	if got := readString(t, path); got != want {
		t.Fatalf("config.yaml:\n%s\nwant:\n%s", got, want)
	}
}

// secrets.yaml keeps the user's key order when a key is added or changed
// (yaml.Marshal of a map used to sort it).
func TestFileSecretsKeepOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "secrets.yaml")
	writeAll(t, path, "ZED_KEY: z\nANTHROPIC_API_KEY: a # mine\n")
	s := NewFileSecrets(path)
	if err := s.Set("OPENAI_API_KEY", "sk-1"); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("ZED_KEY", "z2"); err != nil {
		t.Fatal(err)
	}
	want := "ZED_KEY: z2\nANTHROPIC_API_KEY: a # mine\nOPENAI_API_KEY: sk-1\n"
	if got := readString(t, path); got != want {
		t.Fatalf("secrets.yaml:\n%s\nwant:\n%s", got, want)
	}
	if err := s.Delete("ZED_KEY"); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, path); got != "ANTHROPIC_API_KEY: a # mine\nOPENAI_API_KEY: sk-1\n" {
		t.Fatalf("after delete:\n%s", got)
	}
}
