package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/zalando/go-keyring"
)

// Secrets is a store of secret config values (API keys).
type Secrets interface {
	// Get returns the stored value of key or an error wrapping ErrNotFound.
	Get(key string) (any, error)
	Set(key string, value any) error
	Delete(key string) error
	// All returns every stored secret.
	All() (map[string]any, error)
}

// Keyring entry goose keeps every secret in, as one JSON object.
const (
	KeyringService = "goose"
	KeyringUser    = "secrets"
)

// GetSecret returns key from the environment (KEY uppercased, parsed like
// any env override) or else from the secret store.
func (c *Config) GetSecret(key string) (any, error) {
	if v := c.getenv(strings.ToUpper(key)); v != "" {
		return ParseEnvValue(v), nil
	}
	return c.Secrets().Get(key)
}

// Secrets returns the secret store, chosen once: secrets.yaml when
// GOOSE_DISABLE_KEYRING is set in the environment (to anything) or is
// true/"true"/"1" in config.yaml, else the OS keyring, which itself falls
// back to secrets.yaml for the rest of the process when the keyring is
// unreachable (no D-Bus secret service on a headless Linux box).
func (c *Config) Secrets() Secrets {
	c.secretsOnce.Do(func() {
		file := NewFileSecrets(c.paths.SecretsFile())
		if c.keyringDisabled() {
			c.secrets = file
			return
		}
		c.secrets = NewKeyringSecrets(file, c.log)
	})
	return c.secrets
}

func (c *Config) keyringDisabled() bool {
	if c.getenv("GOOSE_DISABLE_KEYRING") != "" {
		return true
	}
	values, err := c.load()
	if err != nil {
		return false
	}
	switch v := values["GOOSE_DISABLE_KEYRING"].(type) {
	case bool:
		return v
	case string:
		return v == "true" || v == "1"
	}
	return false
}

// FileSecrets keeps secrets in a flat YAML map (secrets.yaml, mode 0600).
type FileSecrets struct {
	path string
	mu   sync.Mutex
}

// NewFileSecrets returns a store backed by the YAML file at path.
func NewFileSecrets(path string) *FileSecrets { return &FileSecrets{path: path} }

// Path returns the secrets file.
func (s *FileSecrets) Path() string { return s.path }

func (s *FileSecrets) Get(key string) (any, error) { return getFrom(s, key) }

func (s *FileSecrets) All() (map[string]any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.read()
}

func (s *FileSecrets) Set(key string, value any) error {
	return s.mutate(func(m map[string]any) { m[key] = value })
}

func (s *FileSecrets) Delete(key string) error {
	return s.mutate(func(m map[string]any) { delete(m, key) })
}

func (s *FileSecrets) read() (map[string]any, error) {
	m, err := readLayer(s.path)
	if err != nil {
		return nil, fmt.Errorf("config: secrets: %w", err)
	}
	return m, nil
}

func (s *FileSecrets) mutate(change func(map[string]any)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.read()
	if err != nil {
		return err // never overwrite a secrets file we cannot read
	}
	change(m)
	return s.write(m)
}

func (s *FileSecrets) write(m map[string]any) error { return s.writeOrdered(m) }

// KeyringSecrets keeps all secrets as one JSON object in the OS keyring
// (service "goose", user "secrets"), like goose.
type KeyringSecrets struct {
	file *FileSecrets
	log  *slog.Logger
	mu   sync.Mutex
	// fellBack is set once the keyring proved unreachable; from then on
	// the file store serves every call.
	fellBack bool
	// warned is set once a secret was written to the file while the
	// keyring is unreachable (the one warning the user gets).
	warned bool
	// get and set are go-keyring's, swappable in tests.
	get func(service, user string) (string, error)
	set func(service, user, password string) error
}

// NewKeyringSecrets returns the keyring store; file is the fallback.
func NewKeyringSecrets(file *FileSecrets, log *slog.Logger) *KeyringSecrets {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &KeyringSecrets{file: file, log: log, get: keyring.Get, set: keyring.Set}
}

// UsingFile reports whether the store has fallen back to secrets.yaml.
func (s *KeyringSecrets) UsingFile() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fellBack
}

func (s *KeyringSecrets) Get(key string) (any, error) { return getFrom(s, key) }

func (s *KeyringSecrets) All() (map[string]any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.all()
}

func (s *KeyringSecrets) Set(key string, value any) error {
	return s.mutate(func(m map[string]any) { m[key] = value })
}

func (s *KeyringSecrets) Delete(key string) error {
	return s.mutate(func(m map[string]any) { delete(m, key) })
}

func (s *KeyringSecrets) all() (map[string]any, error) {
	if s.fellBack {
		return s.file.All()
	}
	blob, err := s.get(KeyringService, KeyringUser)
	switch {
	case errors.Is(err, keyring.ErrNotFound):
		// Nothing in the keyring yet: secrets an earlier keyring-less run
		// left in secrets.yaml still count (goose does the same).
		return s.file.All()
	case err != nil:
		s.fallBack(err)
		return s.file.All()
	}
	m := map[string]any{}
	if err := json.Unmarshal([]byte(blob), &m); err != nil {
		return nil, fmt.Errorf("config: keyring entry %s/%s is not a JSON object: %w", KeyringService, KeyringUser, err)
	}
	return m, nil
}

func (s *KeyringSecrets) mutate(change func(map[string]any)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.all()
	if err != nil {
		return err
	}
	change(m)
	if s.fellBack {
		s.warnFileWrite()
		s.file.mu.Lock()
		defer s.file.mu.Unlock()
		return s.file.write(m)
	}
	blob, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("config: encode secrets: %w", err)
	}
	err = s.set(KeyringService, KeyringUser, string(blob))
	switch {
	case err == nil:
		return nil
	case errors.Is(err, keyring.ErrSetDataTooBig):
		return fmt.Errorf("config: secrets do not fit in the OS keyring: %w", err)
	}
	s.fallBack(err)
	s.warnFileWrite()
	s.file.mu.Lock()
	defer s.file.mu.Unlock()
	return s.file.write(m)
}

// fallBack switches the store to secrets.yaml. Reading from it is only
// noted (info): on a machine without a keyring service every start reads
// secrets, and an editor shows each stderr warning to the user as a
// notice even when the keys come from the environment. Writing a secret
// to the file is what the user is warned about (warnFileWrite).
func (s *KeyringSecrets) fallBack(err error) {
	if !s.fellBack {
		s.log.Info("keyring unavailable, reading secrets from file", "path", s.file.path, "error", err)
	}
	s.fellBack = true
}

// warnFileWrite warns, once, that secrets are stored in the file.
func (s *KeyringSecrets) warnFileWrite() {
	if !s.warned {
		s.log.Warn("Keyring unavailable. Using file storage for secrets.", "path", s.file.path)
	}
	s.warned = true
}

func getFrom(s Secrets, key string) (any, error) {
	m, err := s.All()
	if err != nil {
		return nil, err
	}
	v, ok := m[key]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, key)
	}
	return v, nil
}

// MaskedValue is goosed's /config/read answer for a secret.
type MaskedValue struct {
	MaskedValue string `json:"maskedValue"`
}

// MaskSecret is goosed's mask_secret: the first min(n/2, 8) characters of
// the value (a non-string is JSON-encoded first), then one "*" for each
// remaining character.
func MaskSecret(v any) string {
	s, ok := v.(string)
	if !ok {
		b, err := json.Marshal(v)
		if err != nil {
			s = fmt.Sprint(v)
		} else {
			s = string(b)
		}
	}
	r := []rune(s)
	show := min(len(r)/2, 8)
	return string(r[:show]) + strings.Repeat("*", len(r)-show)
}
