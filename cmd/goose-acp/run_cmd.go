package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/session"
)

const runUsage = `Usage:
  goose-acp run -t TEXT [flags]
  goose-acp run -i FILE|- [flags]
  goose-acp run --recipe FILE [--params key=value ...] [flags]

Runs one prompt (or recipe) in a new session without an editor, streaming the
assistant's reply to stdout and tool calls to stderr, then exits.

Input (one of; -i wins over -t, -t over --recipe, as in goose):
  -i, --instructions FILE  read the prompt from FILE ("-" for stdin)
  -t, --text TEXT          the prompt text
      --recipe FILE        a recipe (YAML or JSON); its prompt is sent and its
                           instructions, extensions, settings and response
                           schema configure the session
      --params KEY=VALUE   a recipe parameter (repeatable)
      --system TEXT        extra system instructions (with -t or -i -)
      --explain            print the recipe's title, description and parameters
      --render-recipe      print the rendered recipe as YAML instead of running it

Session:
  -n, --name NAME          name of the session
      --no-session         delete the session when the run ends
      --max-turns N        stop after N model turns without user input
      --provider NAME      provider for this run (default: recipe, then GOOSE_PROVIDER)
      --model NAME         model for this run (default: recipe, then GOOSE_MODEL)
  -q, --quiet              print only the model's reply (no tool lines or recipe info)
      --output-format FMT  text (default), json (one document at the end) or
                           stream-json (one JSON event per line), as goose's

Output: the reply goes to stdout, tool calls (with their arguments) and a
one-line result to stderr. In a terminal they are coloured, the model's
thinking is shown dimmed and tool approvals (GOOSE_MODE=approve) are asked
inline; logs go to <state>/logs/cli/<date>/ with only warnings on stderr
(--log-level or --log-file restore logging to stderr or that file).

When stdin or stdout is not a terminal, approvals cannot be asked: any the
run's GOOSE_MODE asks for is answered "deny" with a line on stderr (set
GOOSE_MODE=auto to let tools run). Elicitations are declined.

Exit status: 0 when the turn finished; 1 on a provider error, a recipe error
(e.g. a missing required parameter), a turn limit reached, or a recipe whose
response schema was never satisfied through final_output; 2 on usage errors;
130 when interrupted (Ctrl-C cancels the turn).
`

// Exit codes of `goose-acp run`.
const (
	exitOK        = 0
	exitFailed    = 1
	exitUsage     = 2
	exitInterrupt = 130
)

// runFlags are the parsed `goose-acp run` flags.
type runFlags struct {
	instructions, text, system, recipe string
	params                             paramFlags
	explain, renderRecipe              bool
	name                               string
	noSession                          bool
	maxTurns                           int
	provider, model                    string
	quiet                              bool
	outputFormat                       string
}

// errNoInput is goose's text when no input flag is given.
var errNoInput = errors.New("Must provide either --instructions (-i), --text (-t), or --recipe. Use -i - for stdin.")

func parseRunFlags(args []string) (runFlags, error) {
	var f runFlags
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	for _, n := range []string{"i", "instructions"} {
		fs.StringVar(&f.instructions, n, "", "")
	}
	for _, n := range []string{"t", "text"} {
		fs.StringVar(&f.text, n, "", "")
	}
	for _, n := range []string{"n", "name"} {
		fs.StringVar(&f.name, n, "", "")
	}
	for _, n := range []string{"q", "quiet"} {
		fs.BoolVar(&f.quiet, n, false, "")
	}
	fs.StringVar(&f.system, "system", "", "")
	fs.StringVar(&f.recipe, "recipe", "", "")
	fs.Var(&f.params, "params", "")
	fs.BoolVar(&f.explain, "explain", false, "")
	fs.BoolVar(&f.renderRecipe, "render-recipe", false, "")
	fs.BoolVar(&f.noSession, "no-session", false, "")
	fs.IntVar(&f.maxTurns, "max-turns", 0, "")
	fs.StringVar(&f.provider, "provider", "", "")
	fs.StringVar(&f.model, "model", "", "")
	fs.StringVar(&f.outputFormat, "output-format", "", "")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	if fs.NArg() > 0 {
		return f, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if !validOutputFormat(f.outputFormat) {
		return f, fmt.Errorf("--output-format must be text, json or stream-json, not %q", f.outputFormat)
	}
	if f.maxTurns < 0 {
		return f, fmt.Errorf("--max-turns must be positive")
	}
	if f.instructions == "" && f.text == "" && f.recipe == "" {
		return f, errNoInput
	}
	return f, nil
}

// runHeadless implements `goose-acp run`.
func runHeadless(env *environment, args []string) int {
	f, err := parseRunFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(env.stderr, runUsage)
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(env.stderr, "Error: %v\n\n%s", err, runUsage)
		return exitUsage
	}
	in, code, done := resolveRunInput(env, f)
	if done {
		return code
	}
	log, closeLog, err := newRunLogger(env)
	if err != nil {
		fmt.Fprintln(env.stderr, "Error:", err)
		return exitUsage
	}
	defer closeLog()
	rt, err := openRuntime(env.ctx, env, log)
	if err != nil {
		fmt.Fprintln(env.stderr, "Error:", err)
		return exitFailed
	}
	defer rt.Close()
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(env.stderr, "Error:", err)
		return exitFailed
	}
	h := &headlessRun{
		agent: rt.agent, prompt: in.prompt, recipe: in.recipe,
		start: in.startOptions(wd, f),
		out:   newRunOutput(env, f.outputFormat), diag: env.stderr, quiet: f.quiet,
	}
	res, err := h.run(env.ctx)
	if f.noSession && res.SessionID != "" {
		if derr := rt.agent.Sessions().Delete(context.WithoutCancel(env.ctx), res.SessionID); derr != nil {
			fmt.Fprintln(env.stderr, "Error: removing the session:", derr)
		}
	}
	return h.out.(*runOutput).finish(rt.store, res, err, env.stderr)
}

// exitCode reports err on stderr and maps it to the exit status.
func exitCode(stderr io.Writer, err error) int {
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errInterrupted), errors.Is(err, context.Canceled):
		fmt.Fprintln(stderr, "Interrupted.")
		return exitInterrupt
	default:
		fmt.Fprintln(stderr, "Error:", err)
		return exitFailed
	}
}

// runInput is what a run sends: the prompt and, for recipes, the rendered
// recipe.
type runInput struct {
	prompt string
	system string
	recipe *recipe.Recipe
	params []recipe.Param
}

// resolveRunInput reads the prompt from -i, -t or --recipe (goose's
// precedence). done reports that the command is over (explain, render, or
// an error already printed) with code.
func resolveRunInput(env *environment, f runFlags) (in runInput, code int, done bool) {
	switch {
	case f.instructions == "-":
		b, err := io.ReadAll(env.stdin)
		if err != nil {
			fmt.Fprintln(env.stderr, "Error: reading stdin:", err)
			return in, exitFailed, true
		}
		in.prompt, in.system = string(b), f.system
	case f.instructions != "":
		b, err := os.ReadFile(f.instructions)
		if err != nil {
			fmt.Fprintf(env.stderr, "Instruction file not found — did you mean to use goose-acp run --text?\n%v\n", err)
			return in, exitFailed, true
		}
		in.prompt = string(b)
	case f.text != "":
		in.prompt, in.system = f.text, f.system
	default:
		return loadRunRecipe(env, f)
	}
	return in, 0, false
}

// loadRunRecipe renders --recipe with --params, as goose's
// extract_recipe_info_from_cli does.
func loadRunRecipe(env *environment, f runFlags) (in runInput, code int, done bool) {
	params, err := recipe.ParseParams(f.params)
	if err != nil {
		fmt.Fprintln(env.stderr, "Error:", err)
		return in, exitUsage, true
	}
	if f.explain {
		return in, explainRecipe(env, f.recipe), true
	}
	r, err := recipe.LoadFile(f.recipe, params, terminalPrompt(env.stdin, env.stderr))
	var missing *recipe.MissingParamsError
	if errors.As(err, &missing) {
		fmt.Fprintf(env.stderr, "Error: Please provide the following parameters in the command line: %s\n", missingParamsCommandLine(missing.Parameters))
		return in, exitFailed, true
	}
	if err != nil {
		fmt.Fprintln(env.stderr, "Error:", err)
		return in, exitFailed, true
	}
	if f.renderRecipe {
		y, err := recipe.ToYAML(r)
		if err != nil {
			fmt.Fprintln(env.stderr, "Error:", err)
			return in, exitFailed, true
		}
		fmt.Fprintln(env.stdout, y)
		return in, exitOK, true
	}
	if !f.quiet {
		printRecipeInfo(env.stderr, r, params)
	}
	in.recipe, in.params = r, params
	if r.Prompt != nil && strings.TrimSpace(*r.Prompt) != "" {
		in.prompt = *r.Prompt
	}
	if in.prompt == "" {
		fmt.Fprintln(env.stderr, "Error: no text provided for prompt in headless mode")
		return in, exitFailed, true
	}
	return in, 0, false
}

// startOptions configures the run's session: the recipe's instructions,
// extensions (which replace the configured ones, as goose's
// extensions_override), settings and response schema; flags win over the
// recipe's settings.
func (in runInput) startOptions(wd string, f runFlags) agent.StartOptions {
	opts := agent.StartOptions{WorkingDir: wd, Type: session.TypeUser, Name: f.name,
		Provider: f.provider, Model: f.model, MaxTurns: f.maxTurns, UseConfiguredExtensions: true}
	if in.system != "" {
		opts.Recipe = &agent.Recipe{Instructions: in.system}
	}
	if r := in.recipe; r != nil {
		opts.UseRecipe(r, in.params)
		opts.UseConfiguredExtensions = len(r.Extensions) == 0
		applyRecipeSettings(&opts, r)
	}
	return opts
}

// applyRecipeSettings fills the provider and model the options do not set
// from the recipe's settings (the run's flags win; UseRecipe already took
// its temperature).
func applyRecipeSettings(opts *agent.StartOptions, r *recipe.Recipe) {
	s := r.Settings
	if s == nil {
		return
	}
	if opts.Provider == "" && s.GooseProvider != nil {
		opts.Provider = *s.GooseProvider
	}
	if opts.Model == "" && s.GooseModel != nil {
		opts.Model = *s.GooseModel
	}
}

// missingParamsCommandLine is goose's hint: "--params k=your_value …".
func missingParamsCommandLine(keys []string) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = "--params " + k + "=your_value"
	}
	return strings.Join(parts, " ")
}

// printRecipeInfo is goose's print_recipe_info (on stderr).
func printRecipeInfo(w io.Writer, r *recipe.Recipe, params []recipe.Param) {
	fmt.Fprintf(w, "Loading recipe: %s\nDescription: %s\n", r.Title, r.Description)
	if len(params) > 0 {
		fmt.Fprintln(w, "Parameters used to load this recipe:")
		for _, p := range params {
			fmt.Fprintf(w, "   %s: %s\n", p.Key, p.Value)
		}
	}
	fmt.Fprintln(w)
}

// explainRecipe prints a recipe's title, description and parameters
// without rendering it (goose run --explain).
func explainRecipe(env *environment, path string) int {
	stdout, stderr := env.stdout, env.stderr
	content, dir, err := readRecipeInput(path, env.stdin)
	if err == nil {
		var r *recipe.Recipe
		if r, err = recipe.ValidateTemplate(content, dir); err == nil {
			fmt.Fprintf(stdout, "Title: %s\nDescription: %s\n", r.Title, r.Description)
			if len(r.Parameters) > 0 {
				fmt.Fprintln(stdout, "Parameters:")
			}
			for _, p := range r.Parameters {
				line := fmt.Sprintf("   %s (%s, %s)", p.Key, p.InputType, p.Requirement)
				if p.Default != nil {
					line += " default: " + *p.Default
				}
				if p.Description != "" {
					line += " — " + p.Description
				}
				fmt.Fprintln(stdout, line)
			}
			return exitOK
		}
	}
	fmt.Fprintln(stderr, "Error:", err)
	return exitFailed
}

// terminalPrompt asks for user_prompt parameters when stdin is a terminal;
// otherwise (pipes, scheduled jobs) it is nil and such parameters are
// reported missing.
func terminalPrompt(stdin io.Reader, stderr io.Writer) recipe.PromptFunc {
	f, ok := stdin.(*os.File)
	if !ok {
		return nil
	}
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	rd := bufio.NewReader(f)
	return func(key, description string) (string, error) {
		fmt.Fprintf(stderr, "Please enter %s (%s): ", key, description)
		line, err := rd.ReadString('\n')
		if err != nil && line == "" {
			return "", fmt.Errorf("reading %s: %w", key, err)
		}
		return strings.TrimRight(line, "\r\n"), nil
	}
}
