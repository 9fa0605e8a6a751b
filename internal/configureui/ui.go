package configureui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/charmbracelet/huh"

	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/setup"
	"github.com/goose-acp/goose-acp/internal/cliconfig"
)

// unlistedModel is the model list's "type a name" entry.
const unlistedModel = "\x00unlisted"

// Options are what the interactive configure runs with.
type Options struct {
	Ctx context.Context
	// In is the terminal (stdin); Out and Err are stdout and stderr.
	In       *os.File
	Out, Err io.Writer
	Getenv   func(string) string
	// Setup decides and writes (cliconfig.OpenSetup).
	Setup *setup.Setup
	// Agent is the goose-acp editors should start, printed at the end
	// ("" prints nothing).
	Agent string
}

// ui is the interactive `goose-acp configure`: huh forms on the terminal;
// every decision and write is core/setup's.
type ui struct {
	o          Options
	s          *setup.Setup
	accessible bool
}

// Run asks for provider, settings and model, tests them and saves; it
// returns the exit code (cliconfig's).
func Run(o Options) int {
	u := &ui{o: o, s: o.Setup,
		// Plain prompts, no full-screen widgets: for screen readers and
		// terminals that cannot draw them.
		accessible: o.Getenv("ACCESSIBLE") != "" || o.Getenv("TERM") == "dumb"}
	fmt.Fprintln(o.Out, "goose-acp configure: set up the AI provider. Nothing is saved until the connection test passes; Ctrl-C cancels.")
	c, err := u.ask()
	if isAborted(err) {
		fmt.Fprintln(o.Out, "Cancelled; nothing was saved.")
		return cliconfig.ExitInterrupt
	}
	if err != nil {
		fmt.Fprintln(o.Err, "Error:", err)
		return cliconfig.ExitFailed
	}
	fmt.Fprintf(o.Out, "Testing %s with one short request…\n", c.Model)
	if err := u.s.Check(o.Ctx, c); err != nil {
		fmt.Fprintf(o.Err, "✗ %v\nNothing was saved. Check the key and host, then run goose-acp configure again.\n", err)
		return cliconfig.ExitFailed
	}
	saved, err := u.s.Save(c)
	if err != nil {
		fmt.Fprintln(o.Err, "Error:", err)
		return cliconfig.ExitFailed
	}
	fmt.Fprintln(o.Out, "✓ Connection works.")
	cliconfig.PrintSaved(o.Out, c, saved)
	if o.Agent != "" {
		fmt.Fprintf(o.Out, "Next: point your editor's agent settings at %s\n", o.Agent)
	}
	return cliconfig.ExitOK
}

// isAborted reports a form the user left with Ctrl-C or Esc.
func isAborted(err error) bool { return errors.Is(err, huh.ErrUserAborted) }

// ask walks the user through provider, settings and model.
func (u *ui) ask() (setup.Choice, error) {
	md, err := u.pickProvider()
	if err != nil {
		return setup.Choice{}, err
	}
	c := setup.Choice{Provider: md.Name, Values: map[string]string{}}
	fields, err := u.s.Fields(md.Name)
	if err != nil {
		return c, err
	}
	for _, f := range promptedFields(fields) {
		if err := u.askField(md, f, c.Values); err != nil {
			return c, err
		}
	}
	c.Model, err = u.pickModel(md, c)
	return c, err
}

func (u *ui) run(fields ...huh.Field) error {
	return huh.NewForm(huh.NewGroup(fields...)).
		WithInput(u.o.In).WithOutput(u.o.Out).WithAccessible(u.accessible).
		RunWithContext(u.o.Ctx)
}

func (u *ui) pickProvider() (provider.Metadata, error) {
	mds := u.s.Providers()
	current, _, _ := u.s.ProviderFor()
	opts := make([]huh.Option[string], len(mds))
	for i, md := range mds {
		opts[i] = huh.NewOption(md.DisplayName+" ("+md.Name+")", md.Name)
	}
	name := current
	err := u.run(huh.NewSelect[string]().Title("Which model provider should we use?").
		Description("Type / to filter.").Options(opts...).Height(12).Value(&name))
	if err != nil {
		return provider.Metadata{}, err
	}
	return u.s.Lookup(name)
}

// promptedFields are the settings configure asks for: the API key (the
// first secret), host and endpoint settings, and required settings with no
// default. Ollama thus asks for its host only.
func promptedFields(fields []setup.Field) []setup.Field {
	var out []setup.Field
	secretSeen := false
	for _, f := range fields {
		switch {
		case f.Secret && !secretSeen:
			secretSeen = true
			out = append(out, f)
		case !f.Secret && (cliconfig.IsHostKey(f.Name) || (f.Required && f.Default == nil)):
			out = append(out, f)
		}
	}
	return out
}

func (u *ui) askField(md provider.Metadata, f setup.Field, values map[string]string) error {
	if f.Secret {
		return u.askSecret(md, f, values)
	}
	v := f.Value
	err := u.run(huh.NewInput().Title(f.Name).Description(fieldHelp(md, f)).Value(&v).Validate(nonEmpty(f.Name)))
	if err != nil {
		return err
	}
	if v = strings.TrimSpace(v); v != f.Value {
		values[f.Name] = v
	}
	return nil
}

func (u *ui) askSecret(md provider.Metadata, f setup.Field, values map[string]string) error {
	if v := u.o.Getenv(f.Name); f.Source == setup.SourceEnv && v != "" {
		// As goose does: offer to store it, so an editor started without
		// this variable can use the key too.
		save := true
		err := u.run(huh.NewConfirm().Title(fmt.Sprintf("%s is set in the environment. Save it to the secret store?", f.Name)).
			Description("Editors usually start goose-acp without your shell's variables.").Value(&save))
		if err == nil && save {
			values[f.Name] = v
		}
		return err
	}
	if f.Source != setup.SourceNone {
		keep := true
		err := u.run(huh.NewConfirm().Title(fmt.Sprintf("%s is already set (%s). Keep it?", f.Name, f.Source)).
			Affirmative("Keep").Negative("Replace").Value(&keep))
		if err != nil || keep {
			return err
		}
	}
	var v string
	err := u.run(huh.NewInput().Title(fmt.Sprintf("%s needs %s", md.DisplayName, f.Name)).
		Description("Paste the key; it is stored in the OS keyring (or secrets.yaml).").
		EchoMode(huh.EchoModePassword).Value(&v).Validate(nonEmpty(f.Name)))
	if err == nil {
		values[f.Name] = strings.TrimSpace(v)
	}
	return err
}

func fieldHelp(md provider.Metadata, f setup.Field) string {
	switch {
	case f.Source == setup.SourceDefault:
		return fmt.Sprintf("%s default; Enter keeps it.", md.DisplayName)
	case f.Source != setup.SourceNone:
		return fmt.Sprintf("Now set in the %s; Enter keeps it.", f.Source)
	}
	return "Required."
}

func nonEmpty(name string) func(string) error {
	return func(s string) error {
		if strings.TrimSpace(s) == "" {
			return fmt.Errorf("%s cannot be empty", name)
		}
		return nil
	}
}

// pickModel offers the provider's live model list, or asks for a name
// when the list cannot be fetched.
func (u *ui) pickModel(md provider.Metadata, c setup.Choice) (string, error) {
	fmt.Fprintf(u.o.Out, "Fetching the model list from %s…\n", md.DisplayName)
	models, err := u.s.Models(u.o.Ctx, c)
	if err != nil {
		fmt.Fprintf(u.o.Out, "Could not list models (%v); type the model name.\n", err)
		return u.typeModel(md)
	}
	choice := md.DefaultModel
	if !slices.Contains(models, choice) {
		choice = models[0]
	}
	opts := make([]huh.Option[string], 0, len(models)+1)
	for _, m := range models {
		opts = append(opts, huh.NewOption(m, m))
	}
	opts = append(opts, huh.NewOption("Enter a model not listed…", unlistedModel))
	err = u.run(huh.NewSelect[string]().Title("Select a model:").Description("Type / to filter.").
		Options(opts...).Height(12).Value(&choice))
	if err != nil || choice != unlistedModel {
		return choice, err
	}
	return u.typeModel(md)
}

func (u *ui) typeModel(md provider.Metadata) (string, error) {
	m := md.DefaultModel
	err := u.run(huh.NewInput().Title("Enter the model name:").Value(&m).Validate(nonEmpty("the model name")))
	return strings.TrimSpace(m), err
}
