package config

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"
)

func TestFileSecrets(t *testing.T) {
	e := newTestEnv(t)
	e.env["GOOSE_DISABLE_KEYRING"] = "1"
	c := e.open(t)
	s := c.Secrets()
	if _, ok := s.(*FileSecrets); !ok {
		t.Fatalf("store = %T, want *FileSecrets", s)
	}
	if err := s.Set("key1", "secret1"); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("key2", "secret2"); err != nil {
		t.Fatal(err)
	}
	if v, err := c.GetSecret("key1"); err != nil || v != "secret1" {
		t.Fatalf("%v %v", v, err)
	}
	if err := s.Delete("key1"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetSecret("key1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v", err)
	}
	if got := readString(t, e.paths.SecretsFile()); got != "key2: secret2\n" {
		t.Fatalf("secrets.yaml = %q", got)
	}
	if runtime.GOOS != "windows" {
		info, err := os.Stat(e.paths.SecretsFile())
		if err != nil || info.Mode().Perm() != 0o600 {
			t.Fatalf("mode = %v, %v", info.Mode(), err)
		}
	}
}

func TestSecretEnvOverride(t *testing.T) {
	e := newTestEnv(t)
	e.env["GOOSE_DISABLE_KEYRING"] = "true"
	c := e.open(t)
	if err := c.Secrets().Set("api_key", "secret123"); err != nil {
		t.Fatal(err)
	}
	e.env["API_KEY"] = "env_secret"
	if v, err := c.GetSecret("api_key"); err != nil || v != "env_secret" {
		t.Fatalf("%v %v", v, err)
	}
}

func TestKeyringDisabledByConfigValue(t *testing.T) {
	for _, tt := range []struct {
		yaml string
		file bool
	}{
		{"GOOSE_DISABLE_KEYRING: true\n", true},
		{"GOOSE_DISABLE_KEYRING: \"true\"\n", true},
		{"GOOSE_DISABLE_KEYRING: \"1\"\n", true},
		{"GOOSE_DISABLE_KEYRING: false\n", false},
		{"GOOSE_DISABLE_KEYRING: \"yes\"\n", false},
		{"OTHER: 1\n", false},
	} {
		keyring.MockInit()
		e := newTestEnv(t)
		writeAll(t, e.paths.ConfigFile(), tt.yaml)
		_, isFile := e.open(t).Secrets().(*FileSecrets)
		if isFile != tt.file {
			t.Errorf("%q: file store = %v", tt.yaml, isFile)
		}
	}
}

func TestKeyringSecretsStoreOneJSONObject(t *testing.T) {
	keyring.MockInit()
	c := newTestEnv(t).open(t)
	s := c.Secrets()
	if err := s.Set("OPENAI_API_KEY", "sk-abc"); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("count", 3); err != nil {
		t.Fatal(err)
	}
	blob, err := keyring.Get(KeyringService, KeyringUser)
	if err != nil || blob != `{"OPENAI_API_KEY":"sk-abc","count":3}` {
		t.Fatalf("keyring = %q, %v", blob, err)
	}
	if v, err := c.GetSecret("OPENAI_API_KEY"); err != nil || v != "sk-abc" {
		t.Fatalf("%v %v", v, err)
	}
	if err := s.Delete("count"); err != nil {
		t.Fatal(err)
	}
	if blob, _ := keyring.Get(KeyringService, KeyringUser); blob != `{"OPENAI_API_KEY":"sk-abc"}` {
		t.Fatalf("keyring = %q", blob)
	}
}

func TestKeyringReadsFileSecretsWhenEntryMissing(t *testing.T) {
	keyring.MockInit()
	e := newTestEnv(t)
	writeAll(t, e.paths.SecretsFile(), "OLD_KEY: from-file\n")
	c := e.open(t)
	if v, err := c.GetSecret("OLD_KEY"); err != nil || v != "from-file" {
		t.Fatalf("%v %v", v, err)
	}
	// The next write moves everything into the keyring entry.
	if err := c.Secrets().Set("NEW", "x"); err != nil {
		t.Fatal(err)
	}
	if blob, _ := keyring.Get(KeyringService, KeyringUser); blob != `{"NEW":"x","OLD_KEY":"from-file"}` {
		t.Fatalf("keyring = %q", blob)
	}
}

func TestKeyringUnavailableFallsBackToFile(t *testing.T) {
	keyring.MockInitWithError(errors.New(`exec: "dbus-launch": executable file not found in $PATH`))
	t.Cleanup(keyring.MockInit)
	e := newTestEnv(t)
	var logs bytes.Buffer
	c, err := Open(Options{Paths: e.paths, Getenv: envMap(e.env), SystemFile: e.system, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Secrets().(*KeyringSecrets)
	if err := s.Set("ANTHROPIC_API_KEY", "sk-ant"); err != nil {
		t.Fatal(err)
	}
	if !s.UsingFile() {
		t.Fatal("store did not fall back")
	}
	if got := readString(t, e.paths.SecretsFile()); got != "ANTHROPIC_API_KEY: sk-ant\n" {
		t.Fatalf("secrets.yaml = %q", got)
	}
	if v, err := c.GetSecret("ANTHROPIC_API_KEY"); err != nil || v != "sk-ant" {
		t.Fatalf("%v %v", v, err)
	}
	if n := strings.Count(logs.String(), "Keyring unavailable. Using file storage for secrets."); n != 1 {
		t.Fatalf("warning logged %d times:\n%s", n, logs.String())
	}
}

// Without a keyring service (no D-Bus session), reading secrets — as every
// start does to see which providers are configured — logs no warning:
// editors show each stderr warning as a notice. Storing one in the file
// is warned about once.
func TestKeyringUnavailableWarnsOnlyWhenStoring(t *testing.T) {
	keyring.MockInitWithError(errors.New(`exec: "dbus-launch": executable file not found in $PATH`))
	t.Cleanup(keyring.MockInit)
	e := newTestEnv(t)
	writeAll(t, e.paths.SecretsFile(), "OLD_KEY: from-file\n")
	var logs bytes.Buffer
	c, err := Open(Options{Paths: e.paths, Getenv: envMap(e.env), SystemFile: e.system, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if v, err := c.GetSecret("OLD_KEY"); err != nil || v != "from-file" {
			t.Fatalf("%v %v", v, err)
		}
	}
	if strings.Contains(logs.String(), "level=WARN") {
		t.Fatalf("reading secrets warned:\n%s", logs.String())
	}
	if n := strings.Count(logs.String(), "keyring unavailable, reading secrets from file"); n != 1 {
		t.Fatalf("fallback noted %d times:\n%s", n, logs.String())
	}
	for _, k := range []string{"A", "B"} {
		if err := c.Secrets().Set(k, "x"); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(logs.String(), "level=WARN msg=\"Keyring unavailable. Using file storage for secrets.\""); n != 1 {
		t.Fatalf("storing warned %d times:\n%s", n, logs.String())
	}
}

func TestKeyringTooBigIsAnError(t *testing.T) {
	dir := t.TempDir()
	s := NewKeyringSecrets(NewFileSecrets(dir+"/secrets.yaml"), nil)
	s.get = func(string, string) (string, error) { return "", keyring.ErrNotFound }
	s.set = func(string, string, string) error { return keyring.ErrSetDataTooBig }
	err := s.Set("k", "v")
	if !errors.Is(err, keyring.ErrSetDataTooBig) || s.UsingFile() {
		t.Fatalf("err = %v, using file = %v", err, s.UsingFile())
	}
	if _, statErr := os.Stat(dir + "/secrets.yaml"); !os.IsNotExist(statErr) {
		t.Fatal("a too-big keyring write spilled secrets into the file")
	}
}

func TestKeyringBadEntryIsAnError(t *testing.T) {
	s := NewKeyringSecrets(NewFileSecrets(t.TempDir()+"/secrets.yaml"), nil)
	s.get = func(string, string) (string, error) { return "not json", nil }
	if _, err := s.All(); err == nil || !strings.Contains(err.Error(), "goose/secrets is not a JSON object") {
		t.Fatalf("err = %v", err)
	}
	if err := s.Set("k", "v"); err == nil {
		t.Fatal("Set over an unreadable keyring entry succeeded")
	}
}

func TestCorruptSecretsFileIsNotOverwritten(t *testing.T) {
	e := newTestEnv(t)
	e.env["GOOSE_DISABLE_KEYRING"] = "1"
	writeAll(t, e.paths.SecretsFile(), "KEY: [broken\n")
	c := e.open(t)
	if err := c.Secrets().Set("X", "y"); !errors.Is(err, ErrCorruptConfig) {
		t.Fatalf("err = %v", err)
	}
	if got := readString(t, e.paths.SecretsFile()); got != "KEY: [broken\n" {
		t.Fatalf("secrets.yaml = %q", got)
	}
}

func TestMaskSecret(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{"sk-abc123456789xyz", "sk-abc12**********"},
		{"abcd", "ab**"},
		{"abc", "a**"},
		{"a", "*"},
		{"", ""},
		{"ключ-секрет", "ключ-******"},
		{12345678, "1234****"},
		{true, "tr**"},
	}
	for _, tt := range tests {
		if got := MaskSecret(tt.in); got != tt.want {
			t.Errorf("MaskSecret(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
