package platform

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/extension/inproc"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/session"
)

// Summon is goose's summon platform extension (load, delegate).
const Summon = "summon"

// ErrNoAgent is returned by summon and summarize without AgentHooks.
var ErrNoAgent = errors.New("no agent to run subagents in this process")

// AgentHooks is what summon and summarize need from the agent loop.
type AgentHooks interface {
	// SubRecipes are the sub_recipes of the session's recipe.
	SubRecipes(sessionID string) []recipe.SubRecipe
	// Delegate runs a subagent for the parent session's tool call callID
	// and returns the text the parent's model reads.
	Delegate(ctx context.Context, parentID, callID string, p DelegateParams) (string, error)
	// Complete makes one LLM call with the session's provider.
	Complete(ctx context.Context, sessionID, system, user string) (string, error)
}

// DelegateParams are delegate's arguments (goose's DelegateParams).
type DelegateParams struct {
	Instructions *string        `json:"instructions"`
	Source       *string        `json:"source"`
	Parameters   map[string]any `json:"parameters"`
	Extensions   *[]string      `json:"extensions"`
	Provider     *string        `json:"provider"`
	Model        *string        `json:"model"`
	Temperature  *float64       `json:"temperature"`
	MaxTurns     *int           `json:"max_turns"`
	Context      *string        `json:"context"`
	WorkingDir   *string        `json:"working_dir"`
}

// Validate is goose's validate_delegate_params.
func (p DelegateParams) Validate() error {
	if p.Instructions == nil && p.Source == nil {
		return errors.New("Must provide 'instructions' or 'source' (or both)")
	}
	if p.Parameters != nil && p.Source == nil {
		return errors.New("'parameters' can only be used with 'source'")
	}
	if p.MaxTurns != nil && *p.MaxTurns < 1 {
		return errors.New("'max_turns' must be at least 1")
	}
	return nil
}

// Tool names as the model sees them (our tools carry the extension prefix).
const (
	LoadTool     = "load"
	DelegateTool = "delegate"
)

const loadDescription = "Load knowledge into your current context or discover available sources.\n\n" +
	"Call with no arguments to list all available sources (subrecipes, recipes, agents).\n" +
	"Call with a source name to load its content into your context.\n\n" +
	"Examples:\n" +
	"- load() → Lists available sources\n" +
	"- load(source: \"deploy\") → Loads the deploy recipe"

const loadSchema = `{"type":"object","properties":{"source":{"type":"string","description":"Name of the source to load. If omitted, lists all available sources."}}}`

const delegateDescription = "Delegate a task to a subagent that runs independently with its own context.\n\n" +
	"Modes:\n" +
	"1. Ad-hoc: Provide `instructions` for a custom task\n" +
	"2. Source-based: Provide `source` name to run a subrecipe, recipe, or agent\n" +
	"3. Combined: Pair a source with a task (e.g., source: \"deploy\", instructions: \"deploy to staging\")\n\n" +
	"Effective Delegation:\n" +
	"- Delegates know only instructions + source content\n" +
	"- Delegates cannot coordinate. Same-file work = conflicts.\n" +
	"- You get a delegate's result back once it finishes.\n\n" +
	"Research (read-only): delegates explore and report back.\n" +
	"Work (writes): partition files strictly - no two delegates touch the same file."

const delegateSchema = `{"type":"object","properties":{` +
	`"instructions":{"type":"string","description":"Task instructions. Required for ad-hoc tasks."},` +
	`"source":{"type":"string","description":"Name of a recipe or agent to run."},` +
	`"parameters":{"type":"object","additionalProperties":true,"description":"Parameters for the source (only valid with source)."},` +
	`"extensions":{"type":"array","items":{"type":"string"},"description":"Extensions to enable. Omit to inherit all, empty array for none."},` +
	`"provider":{"type":"string","description":"Override LLM provider."},` +
	`"model":{"type":"string","description":"Override model."},` +
	`"temperature":{"type":"number","description":"Override temperature."},` +
	`"max_turns":{"type":"integer","minimum":1,"description":"Maximum turns for this delegate. Overrides recipe settings.max_turns and GOOSE_SUBAGENT_MAX_TURNS."},` +
	`"context":{"type":"string","description":"Reference context to inject into the delegate's system prompt. Use for background information, file contents, or constraints the delegate needs but that aren't part of the task instructions."},` +
	`"working_dir":{"type":"string","description":"Working directory for the delegate. Must be within the parent session's working directory. Defaults to the parent's working directory."}}}`

// SessionSources discovers the sources of a session's working dir.
func (d Deps) SessionSources(sessionID, workingDir string) []Source {
	o := SourceDirs{WorkingDir: workingDir, Home: d.Home, ConfigDir: d.ConfigDir, RecipePath: d.Getenv("GOOSE_RECIPE_PATH")}
	if d.Agent != nil {
		o.SubRecipes = d.Agent.SubRecipes(sessionID)
	}
	return DiscoverSources(o)
}

// The summon servers, one per process each: with delegate for user
// sessions, without for subagent sessions (goose hides delegate there: no
// nested delegation). Their instructions name the session's sources, so
// they come with each session's Platform instead of the server's
// initialize answer; the tools find the session by their request's server
// session.
var (
	summonServer         = newSharedServer(Summon, func(sh *sharedServer) *inproc.Server { return buildSummon(sh, true) })
	summonSubagentServer = newSharedServer(Summon, func(sh *sharedServer) *inproc.Server { return buildSummon(sh, false) })
)

// workingDir is the session's current working dir, else the one it
// started with.
func (b *binding) workingDir() string {
	if b.env.Manager != nil && b.env.Manager.WorkingDir() != "" {
		return b.env.Manager.WorkingDir()
	}
	return b.env.WorkingDir
}

func buildSummon(sh *sharedServer, withDelegate bool) *inproc.Server {
	s := newServer(Summon, "Summon", "")
	s.AddTool(&mcp.Tool{Name: LoadTool, Description: loadDescription, InputSchema: json.RawMessage(loadSchema)},
		sh.handle(func(ctx context.Context, b *binding, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var p struct {
				Source *string `json:"source"`
			}
			_ = decode(req, &p)
			sources := b.d.SessionSources(b.env.SessionID, b.workingDir())
			if p.Source == nil {
				return textResult(ListSources(sources)), nil
			}
			text, err := LoadSource(sources, *p.Source)
			if err != nil {
				return errorResult("%s", err.Error()), nil
			}
			return textResult(text), nil
		}))
	if withDelegate {
		s.AddTool(&mcp.Tool{Name: DelegateTool, Description: delegateDescription, InputSchema: json.RawMessage(delegateSchema)},
			sh.handle(func(ctx context.Context, b *binding, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				var p DelegateParams
				if err := decode(req, &p); err != nil {
					return errorResult("Invalid parameters: %v", err), nil
				}
				callID, _ := req.Params.Meta[extension.MetaToolCallID].(string)
				text, err := b.d.delegate(ctx, b.env.SessionID, callID, p)
				if err != nil {
					return errorResult("%s", err.Error()), nil
				}
				return textResult(text), nil
			}))
	}
	return s
}

func (d Deps) summon(ctx context.Context, env extension.Env) (extension.Platform, error) {
	b := &binding{d: d, env: env}
	sh := summonServer
	typ := d.SessionType
	if typ == "" {
		if sess, err := d.Store.Get(ctx, env.SessionID, false); err == nil {
			typ = sess.SessionType
		}
	}
	if typ == session.TypeSubAgent {
		sh = summonSubagentServer
	}
	p := sh.platform(b)
	p.Instructions = SummonInstructions(d.SessionSources(env.SessionID, b.workingDir()))
	return p, nil
}

func (d Deps) delegate(ctx context.Context, parentID, callID string, p DelegateParams) (string, error) {
	if err := p.Validate(); err != nil {
		return "", err
	}
	if d.Agent == nil {
		return "", ErrNoAgent
	}
	return d.Agent.Delegate(ctx, parentID, callID, p)
}

// ListSources is load's answer without a source.
func ListSources(sources []Source) string {
	if len(sources) == 0 {
		return "No sources available for load/delegate.\n\n" +
			"Sources are discovered from:\n" +
			"• Current recipe's sub_recipes\n" +
			"• .agents/recipes/, .agents/agents/ (project-level)\n" +
			"• ~/.agents/agents/ (global)\n" +
			"• GOOSE_RECIPE_PATH directories"
	}
	var b strings.Builder
	b.WriteString("Available sources for load/delegate:\n")
	for _, kind := range []string{KindSubrecipe, KindRecipe, KindAgent} {
		first := true
		for _, s := range sources {
			if s.Kind != kind {
				continue
			}
			if first {
				fmt.Fprintf(&b, "\n%s:\n", kindPlural(kind))
				first = false
			}
			fmt.Fprintf(&b, "• %s - %s\n", s.Name, truncateDescription(s.Description))
		}
	}
	b.WriteString("\nUse load(source: \"name\") to load into context.\n")
	b.WriteString("Use delegate(source: \"name\") to run as subagent.")
	return b.String()
}

// FindSource returns the named source.
func FindSource(sources []Source, name string) (Source, bool) {
	for _, s := range sources {
		if s.Name == name {
			return s, true
		}
	}
	return Source{}, false
}

// LoadSource is load's answer for one source, or goose's not-found error.
func LoadSource(sources []Source, name string) (string, error) {
	s, ok := FindSource(sources, name)
	if !ok {
		names := make([]string, len(sources))
		for i, c := range sources {
			names[i] = c.Name
		}
		similar := similarNames(names, name)
		if len(similar) == 0 {
			return "", fmt.Errorf("Source '%s' not found. Use load() to see available sources.", name)
		}
		return "", fmt.Errorf("Source '%s' not found. Did you mean: %s?", name, strings.Join(similar, ", "))
	}
	content := s.Content
	if s.Kind == KindSubrecipe && content == "" {
		var err error
		if content, err = SubRecipeContent(s.Name, s.Path); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("# Loaded: %s (%s)\n\n%s\n\n---\nThis knowledge is now available in your context.", s.Name, s.Kind, content), nil
}

// SummonInstructions is goose's system-prompt block naming the subagents.
func SummonInstructions(sources []Source) string {
	if len(sources) == 0 {
		return ""
	}
	names := make([]string, len(sources))
	var b strings.Builder
	b.WriteString("\n\nThe following named subagents are available in this session and can be invoked through the `delegate` tool " +
		"(run as a subagent) or the `load` tool (read their instructions into your own context):\n")
	kind := ""
	for i, s := range sources {
		names[i] = s.Name
		if s.Kind != kind {
			fmt.Fprintf(&b, "\n%s:", kindPlural(s.Kind))
			kind = s.Kind
		}
		fmt.Fprintf(&b, "\n• %s — %s", s.Name, truncateDescription(s.Description))
	}
	fmt.Fprintf(&b, "\n\nWhen to call a subagent (one of [%s]):\n"+
		"• `@<name>` in the user's message — always call that subagent.\n"+
		"• The user mentions a subagent by name without `@` — infer from context whether they want it invoked, and if so, call it.\n"+
		"• The user's request strongly matches a subagent's description — call it.\n\n"+
		"Calling a subagent normally means `delegate(source: \"<name>\", instructions: ...)`, which runs it as an isolated subagent "+
		"and returns its result. Use `load(source: \"<name>\")` instead if you only want to read the subagent's instructions into your own context.",
		strings.Join(names, ", "))
	return b.String()
}
