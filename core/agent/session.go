package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"sync"
	"sync/atomic"

	"github.com/goose-acp/goose-acp/core/checkpoint"
	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/permission"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/session"
)

// Recipe is what the loop needs from a recipe (core/recipe decodes the
// file; adapters fill this).
type Recipe struct {
	Title        string
	Instructions string
	// ResponseSchema, when set, adds the final_output tool.
	ResponseSchema json.RawMessage
	MaxTurns       int
	Extensions     []config.ExtensionConfig
	// Retry, when set with max_retries > 0, runs the recipe's success
	// checks whenever the model stops calling tools (goose's retry logic).
	Retry *recipe.RetryConfig
	// SubRecipes become subrecipe__create_task_<name> tools; relative
	// paths resolve against Dir (default: the session's working dir).
	SubRecipes []recipe.SubRecipe
	Dir        string
}

// StartOptions configure a new or resumed session.
type StartOptions struct {
	WorkingDir string
	Type       session.Type
	Name       string
	// Extensions are added on top of the configured ones (e.g. an
	// editor's MCP servers).
	Extensions []config.ExtensionConfig
	// UseConfiguredExtensions loads the enabled extensions of config.yaml
	// (and the default platform extensions).
	UseConfiguredExtensions bool
	Mode                    *string
	Provider, Model         string
	Recipe                  *Recipe
	// Builtins override Options.Builtins for this session (e.g. a
	// developer server bound to an editor's fs and terminal).
	Builtins map[string]extension.BuiltinFactory
	// MaxTurns overrides GOOSE_MAX_TURNS / the recipe (0: default 1000).
	MaxTurns int
	// Temperature (a recipe's settings.temperature) goes into the model
	// config the provider is built with; nil keeps the configured one.
	Temperature *float64
	// StoredRecipe is kept on a new session's row (goose's
	// session.recipe) with RecipeValues as its user_recipe_values, so a
	// later resume renders it again (see UseRecipe).
	StoredRecipe *recipe.Recipe
	RecipeValues []recipe.Param
	// ScheduleID marks a new session as a scheduled job's run.
	ScheduleID string
	// Holder, when set, holds the session once it is loaded (lease.go):
	// it stays loaded until the holder lets go.
	Holder Holder
	// ElicitURL: the client opening the session can send its user to a
	// URL, so the session's MCP servers may ask in URL mode (hooks.go);
	// its subagents inherit it.
	ElicitURL bool

	// inherit is a sub-recipe session's parent provider, used as is.
	inherit provider.Provider
	// checkpoints is a child session's view of its parent's checkpoints:
	// its file changes belong to the parent's turn, so the parent's
	// /rewind restores them too.
	checkpoints *checkpoint.Book
	// emptyAt is the store revision at which a session StartSession has
	// just created has no messages (convcache.go).
	emptyAt *uint64
	// chosen is the mode and provider StartSession chose and stored with
	// the new row (session_start.go); nil: load chooses them.
	chosen *startChoice
	// ConnectInBackground returns the session before its extensions have
	// connected: they connect in the background, its first turn waits for
	// them, and ExtensionResults reports their outcomes.
	ConnectInBackground bool
	// MaxToolRepetitions limits identical consecutive tool calls (goose's
	// max_tool_repetitions; 0 falls back to GOOSE_MAX_TOOL_REPETITIONS,
	// unset means no limit).
	MaxToolRepetitions int
}

// sessionState is a loaded session: its extensions, provider and mode,
// and the waits of its running turn.
type sessionState struct {
	a   *Agent
	id  string
	typ session.Type // as stored; never changes
	mgr *extension.Manager
	// connect is the extensions' connect (connect.go).
	connect *connecting

	busy atomic.Bool

	// holders are the faces that have the session open (lease.go); guarded
	// by the agent's mu.
	holders map[Holder]struct{}

	mu           sync.Mutex
	workingDir   string
	mode         permission.Mode
	provider     provider.Provider
	providerErr  error
	providerName string
	model        model.Config
	recipe       *Recipe
	maxTurns     int
	tokens       session.TokenCounts
	turn         *turn // the running turn, for out-of-band events
	repetition   *permission.RepetitionInspector
	final        *finalOutputTool
	// subHints are the dynamic subdirectory hints (subhints.go).
	subHints subdirHints
	// lastModelChange is the last ModelChangeEvent sent (lead/worker).
	lastModelChange ModelChangeEvent
	// builtins are the session's builtin factories (sub-recipe sessions
	// reuse them); subRecipes are its recipe's sub-recipe tools by name;
	// children are the running sub-recipe sessions.
	builtins   map[string]extension.BuiltinFactory
	subRecipes map[string]*subRecipeTool
	children   map[string]bool
	// callTool runs an extension tool (the manager's Call; benchmarks
	// swap in an instant tool to measure the loop alone).
	callTool func(ctx context.Context, id, name string, args map[string]any) (conversation.CallToolResult, error)

	// prompt is what a client set on the system prompt (prompt_desktop.go).
	prompt sessionPrompt
	// steer is the running turn's run id and steered input (steer.go).
	steer steerQueue
	// calls are the running tool calls, for CancelToolCall (callcancel.go).
	calls runningCalls

	// checkpoints are the file states /rewind restores (rewind.go).
	checkpoints *checkpoint.Book

	// plugins are the session's plugins and their hooks (plugins.go).
	plugins *sessionPlugins

	confirms  waitSet[permission.Decision]
	frontends waitSet[frontendResult]
	elicits   waitSet[extension.ElicitResponse]
	// elicitURL is StartOptions.ElicitURL; urlFlows are the URL-mode
	// elicitations the session's user was sent to (guarded by mu).
	elicitURL bool
	urlFlows  map[string]bool
}

// wd is the session's working dir.
func (s *sessionState) wd() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.workingDir
}

func (s *sessionState) snapshot() (provider.Provider, error, permission.Mode, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.provider, s.providerErr, s.mode, s.workingDir
}

// close stops a connect still running (and waits for it, so nothing is
// added or saved after), then disconnects the extensions.
func (s *sessionState) close() {
	s.connect.cancel()
	s.connect.abandon() // a connect that never started ends here
	<-s.connect.ready
	_ = s.mgr.Close()
}

// DefaultSessionName is the title of a session nobody has named yet.
const DefaultSessionName = "New Chat"

// StartSession creates a session, connects its extensions and returns it
// with each extension's load result. Extension failures never fail the
// session.
func (a *Agent) StartSession(ctx context.Context, opts StartOptions) (*session.Session, []extension.Result, error) {
	typ := opts.Type
	if typ == "" {
		typ = session.TypeUser
	}
	name := opts.Name
	if name == "" {
		// goose's default title; not user-set, so naming replaces it.
		name = DefaultSessionName
	}
	// An extension goose-acp cannot run is refused before the session
	// exists, never as a failure inside it.
	for _, cfg := range opts.Extensions {
		if err := config.CheckAvailable(cfg); err != nil {
			return nil, nil, err
		}
	}
	ns := session.NewSession{WorkingDir: opts.WorkingDir, Name: name, SessionType: typ}
	if opts.ConnectInBackground {
		// Its mode, provider and model are chosen first and written with
		// its row: one write before the answer instead of two.
		opts.chosen = a.chooseStart(ctx, opts)
		opts.chosen.fill(&ns)
	}
	// Before the row: in a fresh process the store may still be opening,
	// and what needs no session id is done meanwhile.
	cfgs := a.exts.forStart(opts)
	sess, err := a.opts.Store.Create(ctx, ns)
	if err != nil {
		return nil, nil, fmt.Errorf("creating session: %w", err)
	}
	opts.emptyAt = a.freshRevision(sess.ID)
	if err := a.Recipes().recordStart(ctx, &sess, opts); err != nil {
		return nil, nil, err
	}
	return a.load(ctx, sess, opts, cfgs, false)
}

// ResumeSession loads a stored session with the extensions it had (plus
// opts.Extensions) and, unless opts brings a recipe, the recipe stored on
// it rendered with its stored values. Loading an already loaded session
// returns it as is.
func (a *Agent) ResumeSession(ctx context.Context, id string, opts StartOptions) (*session.Session, []extension.Result, error) {
	if s := a.Sessions().holdLoaded(id, opts.Holder); s != nil {
		if opts.WorkingDir != "" {
			_ = a.Sessions().UpdateWorkingDir(ctx, s.id, opts.WorkingDir)
		}
		sess, err := a.opts.Store.Get(ctx, id, false)
		return &sess, []extension.Result{}, err // nothing new connected
	}
	sess, err := a.sessionRow(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	a.Recipes().resumeRecipe(sess, &opts)
	cfgs, ok := savedExtensions(sess.ExtensionData)
	if !ok {
		cfgs = a.exts.forStart(opts)
	} else {
		cfgs = mergeConfigs(cfgs, opts.Extensions)
	}
	if opts.WorkingDir == "" {
		opts.WorkingDir = sess.WorkingDir
	} else if opts.WorkingDir != sess.WorkingDir {
		wd := opts.WorkingDir
		if err := a.opts.Store.Update(ctx, id, session.Update{WorkingDir: &wd}); err != nil {
			return nil, nil, err
		}
		sess.WorkingDir = wd
	}
	return a.load(ctx, sess, opts, cfgs, true)
}

// load makes a stored session live: sess is its stored row, as just
// created or read. A resumed session keeps its saved mode, provider and
// model; a new one takes them from opts and config.
func (a *Agent) load(ctx context.Context, sess session.Session, opts StartOptions, cfgs []config.ExtensionConfig, resume bool) (*session.Session, []extension.Result, error) {
	id := sess.ID
	var err error
	s := &sessionState{a: a, id: id, typ: sess.SessionType, connect: newConnecting(), workingDir: sess.WorkingDir, recipe: opts.Recipe,
		tokens: tokensOf(sess), repetition: &permission.RepetitionInspector{Max: opts.MaxToolRepetitions}, elicitURL: opts.ElicitURL}
	if s.repetition.Max <= 0 {
		s.repetition.Max = a.cfg.int("GOOSE_MAX_TOOL_REPETITIONS", 0)
	}
	s.holders = map[Holder]struct{}{}
	s.confirms.init()
	s.frontends.init()
	s.elicits.init()
	saved := sess
	if !resume {
		saved.GooseMode, saved.ProviderName, saved.ModelConfig = "", nil, nil
	}
	if opts.chosen != nil {
		s.mode = opts.chosen.mode
	} else {
		s.mode = a.initialMode(opts.Mode, saved.GooseMode)
	}
	s.maxTurns = a.maxTurns(opts)
	if opts.Recipe != nil && len(opts.Recipe.ResponseSchema) > 0 {
		if s.final, err = newFinalOutputTool(opts.Recipe.ResponseSchema); err != nil {
			return nil, nil, err
		}
	}
	s.builtins = a.opts.Builtins
	if opts.Builtins != nil {
		s.builtins = maps.Clone(a.opts.Builtins)
		if s.builtins == nil {
			s.builtins = map[string]extension.BuiltinFactory{}
		}
		maps.Copy(s.builtins, opts.Builtins)
	}
	if opts.Recipe != nil && len(opts.Recipe.SubRecipes) > 0 {
		dir := opts.Recipe.Dir
		if dir == "" {
			dir = sess.WorkingDir
		}
		s.subRecipes = a.sub.subRecipeTools(opts.Recipe.SubRecipes, dir)
	}
	s.checkpoints = opts.checkpoints
	if s.checkpoints == nil {
		s.checkpoints = checkpoint.New(checkpoint.Dir(a.opts.DataDir, id))
	}
	s.mgr = extension.New(extension.Options{
		SessionID: id, WorkingDir: sess.WorkingDir, Builtins: s.builtins, Platforms: a.platforms(s),
		Getenv: a.opts.Getenv, Secret: a.opts.Config.Secret, Config: a.opts.Config.Get, Logger: a.log, TempDir: a.opts.TempDir,
		ClientVersion: a.opts.ClientVersion, Hooks: s.hooks(), Checkpoints: s.checkpoints, Shared: a.shared,
		ElicitURL: opts.ElicitURL,
	})
	s.callTool = s.mgr.Call
	if opts.chosen != nil {
		s.mu.Lock()
		err := s.applyProvider(opts.chosen.provider)
		s.mu.Unlock()
		if err != nil {
			a.log.Warn("no provider for session", "session", s.id, "error", err)
		}
	} else {
		a.selectProvider(ctx, s, saved, opts)
	}
	s.plugins = pluginsFor(a, sess)
	cfgs = s.plugins.withServers(a, cfgs, opts.UseConfiguredExtensions)
	results, err := a.connectExtensions(ctx, s, cfgs, opts.ConnectInBackground)
	if err != nil {
		s.close()
		return nil, nil, err
	}
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		s.close()
		return nil, nil, ErrAgentClosed
	}
	if old, ok := a.sessions[id]; ok {
		if opts.Holder != nil {
			old.holders[opts.Holder] = struct{}{}
		}
		a.mu.Unlock()
		s.close()
		sess, err := a.opts.Store.Get(ctx, old.id, false)
		return &sess, results, err
	}
	if opts.Holder != nil {
		s.holders[opts.Holder] = struct{}{}
	}
	a.sessions[id] = s
	a.mu.Unlock()
	s.plugins.start(a, s)
	if c := a.convCache(); c != nil {
		c.track(id, opts.emptyAt)
	}
	if !resume && opts.ConnectInBackground {
		// A new session's row is what Create returned: no need to read it
		// back (its extension list is saved once the extensions have
		// connected). Its mode, provider and model were stored with it
		// (StartSession), as goose stores them before it answers: clients
		// read them right away (Desktop's session/info).
		out := sess
		out.Conversation = []conversation.Message{}
		return &out, results, nil
	}
	// A resumed session's messages stay in the store: callers that show
	// them read them (a long session's decode is the costly part).
	out, err := a.opts.Store.Get(ctx, id, !resume)
	if err != nil {
		return nil, nil, err
	}
	return &out, results, nil
}

func (a *Agent) initialMode(override *string, saved string) permission.Mode {
	for _, v := range []*string{override, &saved} {
		if v != nil && *v != "" {
			if m, err := permission.ParseMode(*v); err == nil {
				return m
			}
		}
	}
	if v, ok := a.cfg.lookup("GOOSE_MODE"); ok {
		if m, err := permission.ParseMode(v); err == nil {
			return m
		}
	}
	return permission.DefaultMode
}

// DefaultMaxTurns is goose's DEFAULT_MAX_TURNS.
const DefaultMaxTurns = 1000

func (a *Agent) maxTurns(opts StartOptions) int {
	if opts.MaxTurns > 0 {
		return opts.MaxTurns
	}
	if opts.Recipe != nil && opts.Recipe.MaxTurns > 0 {
		return opts.Recipe.MaxTurns
	}
	return a.cfg.int("GOOSE_MAX_TURNS", DefaultMaxTurns)
}

func (a *Agent) selectProvider(ctx context.Context, s *sessionState, sess session.Session, opts StartOptions) {
	c := a.chooseProvider(ctx, sess, opts)
	s.mu.Lock()
	err := s.applyProvider(c)
	s.mu.Unlock()
	if err != nil {
		a.log.Warn("no provider for session", "session", s.id, "error", err)
	}
}

// chooseProvider builds the provider a session starts with: opts's, else
// the one stored on sess, else the configured one.
func (a *Agent) chooseProvider(ctx context.Context, sess session.Session, opts StartOptions) providerChoice {
	if opts.inherit != nil {
		return providerChoice{p: opts.inherit, name: opts.inherit.Metadata().Name, model: opts.inherit.ModelConfig()}
	}
	name, modelName := opts.Provider, opts.Model
	if name == "" && sess.ProviderName != nil {
		name = *sess.ProviderName
	}
	if name == "" {
		name, _ = a.cfg.lookup("GOOSE_PROVIDER")
	}
	cfg := model.Config{}
	if sess.ModelConfig != nil && opts.Model == "" {
		cfg = *sess.ModelConfig
	}
	if modelName == "" && cfg.ModelName == "" {
		modelName, _ = a.cfg.lookup("GOOSE_MODEL")
	}
	if modelName != "" {
		cfg.ModelName = modelName
	}
	if opts.Temperature != nil {
		temp := *opts.Temperature
		cfg.Temperature = &temp
	}
	return a.buildProvider(ctx, name, cfg)
}

func (a *Agent) setProvider(ctx context.Context, s *sessionState, name string, cfg model.Config) error {
	c := a.buildProvider(ctx, name, cfg)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.applyProvider(c)
}

// CloseSession stops the session's extensions and forgets it; a running
// turn is cancelled by its own context (the adapter cancels it).
func (a *Agent) CloseSession(id string) error {
	a.mu.Lock()
	s, ok := a.sessions[id]
	delete(a.sessions, id)
	a.mu.Unlock()
	if !ok {
		return fmt.Errorf("%w: %s", ErrSessionNotLoaded, id)
	}
	s.unload()
	return nil
}

func tokensOf(s session.Session) session.TokenCounts {
	return session.TokenCounts{Total: s.TotalTokens, Input: s.InputTokens, Output: s.OutputTokens,
		AccumulatedTotal: s.AccumulatedTotalTokens, AccumulatedInput: s.AccumulatedInputTokens, AccumulatedOutput: s.AccumulatedOutputTokens}
}
