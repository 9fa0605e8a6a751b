package setup

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
)

// Choice is what the user picked: a provider, a model and values for the
// provider's config keys (API keys, host) that are not stored yet.
type Choice struct {
	Provider string
	Model    string
	Values   map[string]string
}

// Validate checks the choice against the provider's metadata: a known
// provider, a model, values only for its own keys, and every key it
// cannot run without set here or already (environment, files).
func (s *Setup) Validate(c Choice) error {
	md, err := s.Lookup(c.Provider)
	if err != nil {
		return err
	}
	if strings.TrimSpace(c.Model) == "" {
		return fmt.Errorf("no model given for %s (its default is %s)", c.Provider, md.DefaultModel)
	}
	for k, v := range c.Values {
		if !slices.ContainsFunc(md.ConfigKeys, func(ck provider.ConfigKey) bool { return ck.Name == k }) {
			return fmt.Errorf("%s is not a setting of %s (its settings: %s)", k, c.Provider, keyNames(md))
		}
		if strings.TrimSpace(v) == "" {
			return fmt.Errorf("%s is empty", k)
		}
	}
	if key := s.missingKey(c.Values, md); key != "" {
		return fmt.Errorf("%s needs %s: give it a value (for scripts: --api-key-env NAME reads it from the environment)", md.DisplayName, key)
	}
	return nil
}

func keyNames(md provider.Metadata) string {
	names := make([]string, len(md.ConfigKeys))
	for i, k := range md.ConfigKeys {
		names[i] = k.Name
	}
	return strings.Join(names, ", ")
}

// ErrNoModelList means the provider could not list its models; configure
// then asks for the model name.
var ErrNoModelList = errkind.New(errkind.Unavailable, "the provider did not list its models")

// Models fetches the provider's model list live with the choice's values
// (the model is not needed). An empty list is ErrNoModelList; a failed
// fetch wraps the provider's error in it.
func (s *Setup) Models(ctx context.Context, c Choice) ([]string, error) {
	md, err := s.Lookup(c.Provider)
	if err != nil {
		return nil, err
	}
	p, err := s.registry(c.Values).Create(c.Provider, model.Config{ModelName: md.DefaultModel})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	models, err := p.FetchModels(ctx)
	if err != nil {
		return nil, errkind.Wrapf(ErrNoModelList, "%w", err)
	}
	if len(models) == 0 {
		return nil, ErrNoModelList
	}
	return models, nil
}

// CheckPrompt is the test completion's one user message.
const CheckPrompt = "Reply with the single word: ok"

// Check sends one tiny completion with the choice (nothing is stored), as
// goose's configure does before it saves.
func (s *Setup) Check(ctx context.Context, c Choice) error {
	p, err := s.registry(c.Values).Create(c.Provider, model.Config{ModelName: c.Model})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	_, _, err = p.Complete(ctx, provider.Request{
		System:   "You are checking a connection.",
		Messages: []conversation.Message{conversation.UserText(time.Now().Unix(), CheckPrompt)},
	})
	if err != nil {
		return fmt.Errorf("the test request to %s (model %s) failed: %w", c.Provider, c.Model, err)
	}
	return nil
}

// Saved says where Save wrote.
type Saved struct {
	ConfigFile string
	// SecretKeys were stored in SecretStore: "the OS keyring" or the
	// secrets.yaml path.
	SecretKeys  []string
	SecretStore string
}

// Save stores the choice: secret values in the secret store (the OS
// keyring entry goose/secrets, or secrets.yaml when the keyring is
// disabled or unreachable), then GOOSE_PROVIDER, GOOSE_MODEL and the other
// values in config.yaml in one atomic rewrite that keeps every other key
// where it was.
func (s *Setup) Save(c Choice) (Saved, error) {
	if err := s.Validate(c); err != nil {
		return Saved{}, err
	}
	md, _ := s.Lookup(c.Provider)
	cfg := s.opts.Config
	out := Saved{ConfigFile: cfg.Path()}
	var pairs []config.KeyValue
	for _, k := range md.ConfigKeys {
		v, ok := c.Values[k.Name]
		if !ok {
			continue
		}
		if !k.Secret {
			pairs = append(pairs, config.KeyValue{Key: k.Name, Value: v})
			continue
		}
		if err := cfg.Secrets().Set(k.Name, v); err != nil {
			return out, fmt.Errorf("storing %s: %w (set GOOSE_DISABLE_KEYRING=1 to keep secrets in secrets.yaml, or pass the key in the environment)", k.Name, err)
		}
		out.SecretKeys = append(out.SecretKeys, k.Name)
	}
	out.SecretStore = s.secretStore()
	pairs = append([]config.KeyValue{{Key: "GOOSE_PROVIDER", Value: c.Provider}, {Key: "GOOSE_MODEL", Value: c.Model}}, pairs...)
	if err := cfg.SetMany(pairs); err != nil {
		return out, err
	}
	return out, nil
}

// secretStore names where secrets went.
func (s *Setup) secretStore() string {
	switch st := s.opts.Config.Secrets().(type) {
	case *config.FileSecrets:
		return st.Path()
	case *config.KeyringSecrets:
		if st.UsingFile() {
			return s.opts.Config.Paths().SecretsFile()
		}
	}
	return "the OS keyring (" + config.KeyringService + "/" + config.KeyringUser + ")"
}

// Configure is the whole non-interactive flow: validate, test with one
// completion (unless skipCheck), then save.
func (s *Setup) Configure(ctx context.Context, c Choice, skipCheck bool) (Saved, error) {
	if err := s.Validate(c); err != nil {
		return Saved{}, err
	}
	if !skipCheck {
		if err := s.Check(ctx, c); err != nil {
			return Saved{}, fmt.Errorf("%w; nothing was saved", err)
		}
	}
	return s.Save(c)
}
