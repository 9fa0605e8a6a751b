package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/session"
)

// SubRecipeToolPrefix names a recipe's sub-recipe tools (goose's
// subrecipe__create_task_<name>).
const SubRecipeToolPrefix = "subrecipe__create_task_"

// DefaultSubagentMaxTurns bounds a sub-recipe run (GOOSE_SUBAGENT_MAX_TURNS).
const DefaultSubagentMaxTurns = 25

// SubagentSessionPrefix names a sub-recipe session after its parent.
const SubagentSessionPrefix = "Subagent task for: "

// ErrSubRecipe wraps failures to build or run a sub-recipe task.
var ErrSubRecipe = errors.New("sub-recipe failed")

// subRecipeTool is one of the session recipe's sub_recipes as a tool.
type subRecipeTool struct {
	sub  recipe.SubRecipe
	info extension.Tool
	// seq serialises runs when sequential_when_repeated is set, also
	// across calls the model makes in parallel.
	seq sync.Mutex
}

// subRecipeTools builds the tools of a recipe's sub_recipes; relative paths
// resolve against dir. A sub-recipe whose file cannot be read is skipped
// with a warning (goose refuses the whole recipe at load time).
func (sa subagents) subRecipeTools(subs []recipe.SubRecipe, dir string) map[string]*subRecipeTool {
	out := map[string]*subRecipeTool{}
	for _, sub := range subs {
		if sub.Path != "" && !filepath.IsAbs(sub.Path) && dir != "" {
			sub.Path = filepath.Join(dir, sub.Path)
		}
		schema, err := subRecipeSchema(sub)
		if err != nil {
			sa.a.log.Warn("sub-recipe not available", "name", sub.Name, "error", err)
			continue
		}
		ro, destructive, idem, open := false, true, false, true
		name := SubRecipeToolPrefix + sub.Name
		out[name] = &subRecipeTool{sub: sub, info: extension.Tool{
			Name:        name,
			Description: subRecipeDescription(sub),
			InputSchema: schema,
			Annotations: &provider.ToolAnnotations{Title: "create multiple sub recipe tasks for " + sub.Name,
				ReadOnlyHint: &ro, DestructiveHint: &destructive, IdempotentHint: &idem, OpenWorldHint: &open},
		}}
	}
	return out
}

// subRecipeDescription is goose's text, except that calling the tool runs
// the tasks at once (goose hands their ids to a separate executor tool).
func subRecipeDescription(sub recipe.SubRecipe) string {
	d := fmt.Sprintf("Create one or more tasks to run the '%s' sub recipe. "+
		"Provide an array of parameter sets in the 'task_parameters' field:\n"+
		"- For a single task: provide an array with one parameter set\n"+
		"- For multiple tasks: provide an array with multiple parameter sets, each with different values\n\n"+
		"Each task will run the same sub recipe but with different parameter values. "+
		"This is useful when you need to execute the same sub recipe multiple times with varying inputs. "+
		"The tasks run when this tool is called and their final answers are returned.", sub.Name)
	if sub.SequentialWhenRepeated {
		d += " [run sequentially, not in parallel]"
	}
	if sub.Description != nil && strings.TrimSpace(*sub.Description) != "" {
		d += "\n\n" + *sub.Description
	}
	return d
}

// subRecipeSchema is goose's input schema: task_parameters items carry the
// sub-recipe's parameters that values does not already fix.
func subRecipeSchema(sub recipe.SubRecipe) (json.RawMessage, error) {
	b, err := os.ReadFile(sub.Path)
	if err != nil {
		return nil, fmt.Errorf("Failed to read recipe file %s: %w", sub.Path, err)
	}
	r, err := recipe.FromContent(string(b))
	if err != nil {
		return nil, err
	}
	props := map[string]any{}
	required := []string{}
	for _, p := range r.Parameters {
		if _, fixed := sub.Values[p.Key]; fixed {
			continue
		}
		props[p.Key] = map[string]any{"type": string(p.InputType), "description": p.Description}
		if p.Requirement != recipe.Optional {
			required = append(required, p.Key)
		}
	}
	schema := map[string]any{"type": "object", "properties": map[string]any{}}
	if len(props) > 0 {
		schema["properties"] = map[string]any{"task_parameters": map[string]any{
			"type": "array",
			"description": "Array of parameter sets for creating tasks. For a single task, provide an array with one element. " +
				"For multiple tasks, provide an array with multiple elements, each with different parameter values. " +
				"If there is no parameter set, provide an empty array.",
			"items": map[string]any{"type": "object", "properties": props, "required": required},
		}}
	}
	return json.Marshal(schema)
}

// taskParams is goose's prepare_command_params: each parameter set over
// the sub-recipe's values (non-strings as JSON); none means one task.
func taskParams(sub recipe.SubRecipe, args map[string]any) [][]recipe.Param {
	sets, _ := args["task_parameters"].([]any)
	if len(sets) == 0 {
		sets = []any{map[string]any{}}
	}
	out := make([][]recipe.Param, 0, len(sets))
	for _, set := range sets {
		values := map[string]string{}
		for k, v := range sub.Values {
			values[k] = v
		}
		if m, ok := set.(map[string]any); ok {
			for k, v := range m {
				values[k] = stringifyParam(v)
			}
		}
		out = append(out, paramsByKey(values))
	}
	return out
}

func stringifyParam(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// runSubRecipeTool runs every task of one call: one after another when
// there is one task or sequential_when_repeated is set, else in parallel.
// The result has each task's final text, in order.
func (t *turn) runSubRecipeTool(ctx context.Context, tool *subRecipeTool, args map[string]any) toolResult {
	sets := taskParams(tool.sub, args)
	texts := make([]string, len(sets))
	errs := make([]error, len(sets))
	run := func(i int) { texts[i], errs[i] = t.a.sub.runSubRecipe(ctx, t.s, tool.sub, sets[i]) }
	if len(sets) == 1 || tool.sub.SequentialWhenRepeated {
		if tool.sub.SequentialWhenRepeated {
			tool.seq.Lock()
			defer tool.seq.Unlock()
		}
		for i := range sets {
			run(i)
		}
	} else {
		var wg sync.WaitGroup
		for i := range sets {
			wg.Go(func() { run(i) })
		}
		wg.Wait()
	}
	if ctx.Err() != nil {
		return conversation.Err[conversation.CallToolResult](CancelledToolText)
	}
	if err := errors.Join(errs...); err != nil {
		return conversation.Err[conversation.CallToolResult](err.Error())
	}
	res := conversation.CallToolResult{}
	for _, txt := range texts {
		res.Content = append(res.Content, conversation.TextBlock(txt))
	}
	return conversation.Ok(res)
}

// runSubRecipe builds the sub-recipe with params and runs it in a new
// sub_agent session that shares the parent's provider, working directory,
// builtins and mode (the recipe's extensions, else the parent's). Its
// tool confirmations and elicitations reach the parent's client, which
// answers them with the parent's session id. It returns the last
// assistant text.
func (sa subagents) runSubRecipe(ctx context.Context, parent *sessionState, sub recipe.SubRecipe, params []recipe.Param) (string, error) {
	rec, err := recipe.LoadFile(sub.Path, params, nil)
	if err != nil {
		return "", fmt.Errorf("%w: %s: %w", ErrSubRecipe, sub.Name, err)
	}
	text, err := rec.PromptText()
	if err != nil {
		return "", fmt.Errorf("%w: %s: %w", ErrSubRecipe, sub.Name, err)
	}
	prov, _, mode, wd := parent.snapshot()
	modeName := string(mode)
	parent.mu.Lock()
	builtins := parent.builtins
	parent.mu.Unlock()
	opts := StartOptions{
		WorkingDir: wd, Type: session.TypeSubAgent, Name: SubagentSessionPrefix + parent.id,
		Mode: &modeName, Builtins: builtins, Recipe: subAgentRecipe(rec, text),
		MaxTurns: sa.a.cfg.int("GOOSE_SUBAGENT_MAX_TURNS", DefaultSubagentMaxTurns), inherit: prov,
		checkpoints: parent.checkpoints.Shared(), ElicitURL: parent.elicitURL,
	}
	if rec.Settings != nil {
		opts.Temperature = rec.Settings.Temperature
		if rec.Settings.MaxTurns != nil && *rec.Settings.MaxTurns > 0 {
			opts.MaxTurns = *rec.Settings.MaxTurns
		}
	}
	opts.Extensions = rec.Extensions
	if len(opts.Extensions) == 0 {
		opts.Extensions = parent.mgr.Configs()
	}
	sess, _, err := sa.a.StartSession(ctx, opts)
	if err != nil {
		return "", fmt.Errorf("%w: %s: %w", ErrSubRecipe, sub.Name, err)
	}
	defer sa.a.CloseSession(sess.ID)
	parent.addChild(sess.ID)
	defer parent.removeChild(sess.ID)
	out, err := sa.a.Reply(ctx, sess.ID, conversation.UserText(sa.a.now().Unix(), text), func(ev Event) {
		if me, ok := ev.(MessageEvent); ok && needsClient(me.Message) {
			parent.outOfBand(ev)
		}
	})
	if err == nil && out.Err != nil {
		err = out.Err
	}
	if err != nil {
		return "", fmt.Errorf("%w: %s: %w", ErrSubRecipe, sub.Name, err)
	}
	return sa.lastAssistantText(context.WithoutCancel(ctx), sess.ID)
}

// subAgentRecipe keeps the instructions in the system prompt unless they
// are the user message already (a recipe without a prompt).
// A sub-recipe's own sub_recipes are not offered (subagents cannot create
// subagents); its extensions come in through StartOptions.Extensions.
func subAgentRecipe(r *recipe.Recipe, message string) *Recipe {
	out := RecipeFrom(r)
	out.SubRecipes, out.Extensions = nil, nil
	if out.Instructions == message {
		out.Instructions = ""
	}
	return out
}

// needsClient reports an actionRequired message (a confirmation or an
// elicitation) the user must answer.
func needsClient(m conversation.Message) bool {
	for _, c := range m.Content {
		if c.ActionRequired != nil {
			return true
		}
	}
	return false
}

func (sa subagents) lastAssistantText(ctx context.Context, id string) (string, error) {
	sess, err := sa.a.opts.Store.Get(ctx, id, true)
	if err != nil {
		return "", err
	}
	for i := len(sess.Conversation) - 1; i >= 0; i-- {
		m := sess.Conversation[i]
		if m.Role == conversation.RoleAssistant {
			if txt := strings.TrimSpace(m.AsText()); txt != "" {
				return txt, nil
			}
		}
	}
	return "No text content in last message", nil
}

func (s *sessionState) addChild(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.children == nil {
		s.children = map[string]bool{}
	}
	s.children[id] = true
}

func (s *sessionState) removeChild(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.children, id)
}

// childSessions are the running sub-recipe sessions, for answers the
// client sends with the parent's id.
func (sa subagents) childSessions(s *sessionState) []*sessionState {
	s.mu.Lock()
	ids := make([]string, 0, len(s.children))
	for id := range s.children {
		ids = append(ids, id)
	}
	s.mu.Unlock()
	var out []*sessionState
	for _, id := range ids {
		if c, err := sa.a.session(id); err == nil {
			out = append(out, c)
		}
	}
	return out
}

// withoutSummon drops goose's summon platform extension, which goose adds
// to recipes with sub_recipes: the agent serves the sub-recipe tools
// itself and has no summon platform to load.
func withoutSummon(cfgs []config.ExtensionConfig) []config.ExtensionConfig {
	out := cfgs[:0:0]
	for _, c := range cfgs {
		if c.Type == config.ExtensionPlatform && c.Name == "summon" {
			continue
		}
		out = append(out, c)
	}
	return out
}

// subRecipeInfos lists the session's sub-recipe tools by name.
func (s *sessionState) subRecipeInfos() []extension.Tool {
	out := make([]extension.Tool, 0, len(s.subRecipes))
	for _, t := range s.subRecipes {
		out = append(out, t.info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
