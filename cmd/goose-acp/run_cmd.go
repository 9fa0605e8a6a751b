package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/permission"
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

Tool approvals cannot be asked headlessly: the run uses the configured
GOOSE_MODE, and any approval it asks for is answered "deny" with a line on
stderr (set GOOSE_MODE=auto to let tools run). Elicitations are declined.

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
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	if fs.NArg() > 0 {
		return f, fmt.Errorf("unexpected arguments %q", fs.Args())
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
	log, closeLog, err := newLogger(env.opts.logLevel, env.opts.logFile, env.stderr, env.getenv)
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
		agent: rt.agent, store: rt.store, prompt: in.prompt, recipe: in.recipe,
		start:  in.startOptions(wd, f),
		params: in.params, out: env.stdout, diag: env.stderr, quiet: f.quiet, getenv: env.getenv,
	}
	res, err := h.run(env.ctx)
	if f.noSession && res.SessionID != "" {
		_ = rt.agent.CloseSession(res.SessionID)
		if derr := rt.store.Delete(context.WithoutCancel(env.ctx), res.SessionID); derr != nil {
			fmt.Fprintln(env.stderr, "Error: removing the session:", derr)
		}
	}
	return exitCode(env.stderr, err)
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
		opts.Recipe = agentRecipe(r)
		opts.UseConfiguredExtensions = len(r.Extensions) == 0
		applyRecipeSettings(&opts, r)
	}
	return opts
}

// applyRecipeSettings fills the provider and model the options do not set
// from the recipe's settings.
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
	if opts.Temperature == nil && s.Temperature != nil {
		opts.Temperature = s.Temperature
	}
}

// agentRecipe is what the agent loop needs from a rendered recipe.
func agentRecipe(r *recipe.Recipe) *agent.Recipe {
	out := &agent.Recipe{Title: r.Title, ResponseSchema: r.ResponseSchema(), Extensions: r.Extensions, SubRecipes: r.SubRecipes}
	if r.Instructions != nil {
		out.Instructions = *r.Instructions
	}
	if r.Settings != nil && r.Settings.MaxTurns != nil {
		out.MaxTurns = *r.Settings.MaxTurns
	}
	return out
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

// replyPrinter streams a turn to the terminal: assistant text to out as it
// arrives, tool calls and notices to diag. It answers approval requests
// and elicitations with a refusal, since nobody can be asked.
type replyPrinter struct {
	agent     *agent.Agent
	sessionID string
	out, diag io.Writer
	quiet     bool

	lastID         string
	midLine        bool // out holds text not ended by a newline
	finalIDs       map[string]bool
	finalCollected bool
}

func (p *replyPrinter) handle(ev agent.Event) {
	if e, ok := ev.(agent.MessageEvent); ok {
		p.message(e.Message)
	}
}

func (p *replyPrinter) message(m conversation.Message) {
	for _, c := range m.Content {
		switch {
		case c.Text != nil && m.Role == conversation.RoleAssistant:
			p.text(m.IDOrEmpty(), c.Text.Text)
		case c.ToolRequest != nil:
			p.toolRequest(c.ToolRequest)
		case c.ToolResponse != nil:
			p.toolResponse(c.ToolResponse)
		case c.ActionRequired != nil:
			p.action(c.ActionRequired.Data)
		case c.SystemNotification != nil && c.SystemNotification.NotificationType != conversation.NotificationThinking:
			p.note("%s", c.SystemNotification.Msg)
		}
	}
}

func (p *replyPrinter) text(id, s string) {
	if s == "" {
		return
	}
	if id != p.lastID && p.midLine {
		p.endLine()
	}
	p.lastID = id
	io.WriteString(p.out, s)
	p.midLine = !strings.HasSuffix(s, "\n")
}

// endLine ends the current line of assistant text, so diagnostics and
// the shell prompt start on their own line.
func (p *replyPrinter) endLine() {
	if p.midLine {
		io.WriteString(p.out, "\n")
		p.midLine = false
	}
}

// toolLineWidth bounds one argument's value on a tool line.
const toolLineWidth = 100

func (p *replyPrinter) toolRequest(r *conversation.ToolRequest) {
	if r.ToolCall.Value == nil {
		p.note("─── invalid tool call: %s", r.ToolCall.Error)
		return
	}
	call := *r.ToolCall.Value
	if call.Name == agent.FinalOutputToolName {
		p.finalIDs[r.ID] = true
	}
	if p.quiet {
		return
	}
	p.endLine()
	fmt.Fprintf(p.diag, "─── %s ──────────────────────────\n", toolTitle(call.Name))
	keys := make([]string, 0, len(call.Arguments))
	for k := range call.Arguments {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(p.diag, "%s: %s\n", k, shortValue(call.Arguments[k]))
	}
}

func (p *replyPrinter) toolResponse(r *conversation.ToolResponse) {
	res := r.ToolResult
	failed := res.Value == nil || res.Value.IsError
	if p.finalIDs[r.ID] && !failed {
		p.finalCollected = true
	}
	if !failed || p.quiet {
		return
	}
	msg := res.Error
	if res.Value != nil {
		for _, c := range res.Value.Content {
			if c.Text != "" {
				msg = c.Text
				break
			}
		}
	}
	p.note("    error: %s", truncate(firstLine(msg), toolLineWidth))
}

// action refuses what a headless run cannot ask a person: tool approvals
// (deny once) and elicitations (decline). These lines are never quieted.
func (p *replyPrinter) action(d conversation.ActionData) {
	p.endLine()
	switch d.ActionType {
	case conversation.ActionToolConfirmation:
		err := p.agent.Confirm(p.sessionID, d.ID, permission.DenyOnce)
		fmt.Fprintf(p.diag, "Denied tool call %s: approvals cannot be asked in a headless run (set GOOSE_MODE=auto to allow tool calls)\n", toolTitle(d.ToolName))
		if err != nil {
			fmt.Fprintf(p.diag, "    (could not answer the approval request: %v)\n", err)
		}
	case conversation.ActionElicitation:
		_ = p.agent.SubmitElicitation(p.sessionID, d.ID, agent.ElicitDecline, nil)
		fmt.Fprintf(p.diag, "Declined a request for input (%s): a headless run cannot ask for input\n", truncate(firstLine(d.Message), toolLineWidth))
	}
}

func (p *replyPrinter) note(format string, args ...any) {
	if p.quiet {
		return
	}
	p.endLine()
	fmt.Fprintf(p.diag, format+"\n", args...)
}

// toolTitle is goose's "tool | extension" for a prefixed tool name.
func toolTitle(name string) string {
	if ext, tool, ok := strings.Cut(name, "__"); ok {
		return tool + " | " + ext
	}
	return name
}

// shortValue renders an argument on one line, truncated.
func shortValue(v any) string {
	s, ok := v.(string)
	if !ok {
		b, err := json.Marshal(v)
		if err != nil {
			s = fmt.Sprint(v)
		} else {
			s = string(b)
		}
	}
	s = strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ⏎ ")), " ")
	return truncate(s, toolLineWidth)
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// truncate cuts s to at most n runes, marking the cut.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
