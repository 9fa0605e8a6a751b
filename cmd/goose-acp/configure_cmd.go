package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/goose-acp/goose-acp/core/setup"
	"github.com/goose-acp/goose-acp/internal/cliconfig"
)

const configureUsage = `Usage:
  goose-acp configure                      pick a provider, key and model in the terminal
  goose-acp configure --provider NAME --model MODEL [flags]   the same, for scripts

Sets up the AI provider goose-acp (and goose) use: API keys go to the OS
keyring (or secrets.yaml when GOOSE_DISABLE_KEYRING is set or no keyring is
reachable), GOOSE_PROVIDER, GOOSE_MODEL and host settings to config.yaml;
every other key in config.yaml stays where it was. One tiny completion
tests the settings first; when it fails nothing is saved.

Flags (any flag makes the run non-interactive):
  --provider NAME        provider id (openai, anthropic, google, ollama, a custom provider, …)
  --model MODEL          model name
  --api-key-env VAR      read the provider's API key from environment variable VAR and store it
  --host URL             the provider's host or endpoint setting (OPENAI_HOST, OLLAMA_HOST, …)
  --set KEY=VALUE        any other setting of the provider (repeatable)
  --skip-test            save without the test completion

Without flags, configure runs its terminal UI, goose-acp-configure, found
through GOOSE_ACP_CONFIGURE, beside goose-acp, or on PATH.

Exit status: 0 saved; 1 the test or the save failed (nothing saved), or no
goose-acp-configure was found; 2 usage errors, or no flags and stdin is not a
terminal; 130 cancelled.
`

// configureFlags are the parsed `goose-acp configure` flags.
type configureFlags struct {
	provider, model, apiKeyEnv, host string
	set                              paramFlags
	skipTest                         bool
	given                            bool
}

func parseConfigureFlags(args []string) (configureFlags, error) {
	var f configureFlags
	fs := flag.NewFlagSet("configure", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.provider, "provider", "", "")
	fs.StringVar(&f.model, "model", "", "")
	fs.StringVar(&f.apiKeyEnv, "api-key-env", "", "")
	fs.StringVar(&f.host, "host", "", "")
	fs.Var(&f.set, "set", "")
	fs.BoolVar(&f.skipTest, "skip-test", false, "")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	if fs.NArg() > 0 {
		return f, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	fs.Visit(func(*flag.Flag) { f.given = true })
	if f.given && f.provider == "" {
		return f, errors.New("--provider is required with flags")
	}
	return f, nil
}

// runConfigure implements `goose-acp configure`.
func runConfigure(env *environment, args []string) int {
	f, err := parseConfigureFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(env.stdout, configureUsage)
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(env.stderr, "Error: %v\n\n%s", err, configureUsage)
		return exitUsage
	}
	if !f.given {
		// The terminal UI is the helper's (goose-acp-configure): it is
		// not linked into the agent every editor starts.
		if _, ok := cliconfig.TerminalStdin(env.stdin); !ok {
			return cliconfig.RefuseWithoutTerminal(env.stderr)
		}
		return runConfigureHelper(env)
	}
	s, closeLog, code := cliconfig.OpenSetup(env.opts.logLevel, env.opts.logFile, env.stderr, env.getenv)
	if code != exitOK {
		return code
	}
	defer closeLog()
	return configureFromFlags(env, s, f)
}

// configureFromFlags is the non-interactive form.
func configureFromFlags(env *environment, s *setup.Setup, f configureFlags) int {
	c, err := choiceFromFlags(env, s, f)
	if err != nil {
		fmt.Fprintln(env.stderr, "Error:", err)
		return exitUsage
	}
	if err := s.Validate(c); err != nil {
		fmt.Fprintln(env.stderr, "Error:", err)
		return exitUsage
	}
	saved, err := s.Configure(env.ctx, c, f.skipTest)
	if err != nil {
		fmt.Fprintln(env.stderr, "Error:", err)
		return exitFailed
	}
	cliconfig.PrintSaved(env.stdout, c, saved)
	if fields, err := s.Fields(c.Provider); err == nil {
		if key := apiKeyField(fields); key != "" && c.Values[key] == "" && env.getenv(key) != "" {
			fmt.Fprintf(env.stderr, "Note: %s was read from this shell's environment and not stored; editors started without it will not see it (add --api-key-env %s to store it).\n", key, key)
		}
	}
	return exitOK
}

// choiceFromFlags maps the flags onto the provider's own setting names.
func choiceFromFlags(env *environment, s *setup.Setup, f configureFlags) (setup.Choice, error) {
	c := setup.Choice{Provider: f.provider, Model: f.model, Values: map[string]string{}}
	fields, err := s.Fields(f.provider)
	if err != nil {
		return c, err
	}
	if f.apiKeyEnv != "" {
		key := apiKeyField(fields)
		if key == "" {
			return c, fmt.Errorf("%s takes no API key; drop --api-key-env", f.provider)
		}
		v := env.getenv(f.apiKeyEnv)
		if v == "" {
			return c, fmt.Errorf("--api-key-env %s: %s is not set in the environment", f.apiKeyEnv, f.apiKeyEnv)
		}
		c.Values[key] = v
	}
	if f.host != "" {
		key := hostField(fields)
		if key == "" {
			return c, fmt.Errorf("%s has no host setting; drop --host", f.provider)
		}
		c.Values[key] = f.host
	}
	for _, kv := range f.set {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return c, fmt.Errorf("--set %q: want KEY=VALUE", kv)
		}
		c.Values[k] = v
	}
	if c.Model == "" {
		return c, errors.New("--model is required with flags")
	}
	return c, nil
}

// apiKeyField is the provider's API key: its first secret setting.
func apiKeyField(fields []setup.Field) string {
	for _, f := range fields {
		if f.Secret {
			return f.Name
		}
	}
	return ""
}

// hostField is the provider's host or endpoint setting.
func hostField(fields []setup.Field) string {
	for _, f := range fields {
		if cliconfig.IsHostKey(f.Name) {
			return f.Name
		}
	}
	return ""
}
