package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/recipe"
)

// Defaults goose gives a recipe created from a chat when the model names
// none.
const (
	CreatedRecipeTitle       = "Custom recipe from chat"
	CreatedRecipeDescription = "a custom recipe instance from this chat session"
	createdRecipeVersion     = "1.0.0"
)

// ErrRecipeResponse is returned when the model's answer to the recipe
// prompt has the wrong shape (goose's texts follow it).
var ErrRecipeResponse = errors.New("invalid recipe response")

var (
	fencedBlock = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("(?s)```[^\\n]*\\n(.*?)\\n```") })
	bulletMark  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[•\-*\d]+\.?\s*`) })
)

// Create is goose's create_recipe: the session's agent-visible
// conversation plus the recipe.md prompt, sent with the session's system
// prompt and tools in one Complete; the answer's instructions and
// activities (JSON, possibly fenced, or goose's text fallback) become a
// recipe with the session's extensions, provider settings and author
// ($USER). The session must be loaded.
func (svc Recipes) Create(ctx context.Context, sessionID string) (*recipe.Recipe, error) {
	s, err := svc.a.session(sessionID)
	if err != nil {
		return nil, err
	}
	prov, perr, mode, wd := s.snapshot()
	if prov == nil {
		if perr == nil {
			perr = ErrNoProvider
		}
		return nil, perr
	}
	sess, err := svc.a.opts.Store.Get(ctx, sessionID, true)
	if err != nil {
		return nil, err
	}
	prompt, err := svc.a.renderPrompt(TemplateRecipe, nil)
	if err != nil {
		return nil, err
	}
	msgs := withoutTurnContext(conversation.Conversation(sess.Conversation).AgentVisible())
	msgs = append(msgs, conversation.UserText(svc.a.now().Unix(), strings.TrimSpace(prompt)))
	msgs, _ = conversation.Fix(msgs)
	tools := s.mgr.Tools(ctx)
	ptools := make([]provider.Tool, len(tools))
	for i, t := range tools {
		ptools[i] = t.ProviderTool()
	}
	system := svc.a.systemPrompt(ctx, s, mode, wd)
	reply, _, err := prov.Complete(ctx, provider.Request{System: system, Messages: msgs, Tools: ptools})
	if err != nil {
		return nil, fmt.Errorf("creating recipe: %w", err)
	}
	parsed, err := parseRecipeAnswer(reply.AsText())
	if err != nil {
		return nil, err
	}
	return svc.buildCreatedRecipe(s, prov, parsed), nil
}

type recipeAnswer struct {
	title, description, instructions string
	activities                       []string
}

// parseRecipeAnswer reads the model's answer as goose does: JSON (inside
// a ``` fence if there is one) with instructions and activities, else
// the text after "instructions:" and the bullet lines after "activities:".
func parseRecipeAnswer(content string) (recipeAnswer, error) {
	clean := content
	if m := fencedBlock().FindStringSubmatch(content); m != nil {
		clean = m[1]
	}
	clean = strings.TrimSpace(clean)
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(clean), &obj) != nil {
		return parseRecipeText(content), nil
	}
	out := recipeAnswer{title: CreatedRecipeTitle, description: CreatedRecipeDescription}
	raw, ok := obj["instructions"]
	if !ok {
		return out, fmt.Errorf("%w: Missing 'instructions' in json response", ErrRecipeResponse)
	}
	if json.Unmarshal(raw, &out.instructions) != nil {
		return out, fmt.Errorf("%w: instructions' is not a string", ErrRecipeResponse)
	}
	raw, ok = obj["activities"]
	if !ok {
		return out, fmt.Errorf("%w: Missing 'activities' in json response", ErrRecipeResponse)
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return out, fmt.Errorf("%w: 'activities' is not an array'", ErrRecipeResponse)
	}
	for _, item := range list {
		var s string
		if json.Unmarshal(item, &s) != nil {
			return out, fmt.Errorf("%w: 'activities' array element is not a string", ErrRecipeResponse)
		}
		out.activities = append(out.activities, s)
	}
	var str string
	if v, ok := obj["title"]; ok && json.Unmarshal(v, &str) == nil {
		out.title = str
	}
	if v, ok := obj["description"]; ok && json.Unmarshal(v, &str) == nil {
		out.description = str
	}
	return out, nil
}

func parseRecipeText(content string) recipeAnswer {
	after := content
	if _, rest, ok := strings.Cut(content, "instructions:"); ok {
		after = rest
	}
	instr, acts, _ := strings.Cut(after, "activities:")
	out := recipeAnswer{title: CreatedRecipeTitle, description: CreatedRecipeDescription}
	out.instructions = strings.TrimSpace(strings.TrimRightFunc(instr, func(r rune) bool { return r == '#' || r == ' ' || r == '\n' || r == '\t' || r == '\r' }))
	for _, line := range strings.Split(strings.TrimSpace(acts), "\n") {
		if l := strings.TrimSpace(bulletMark().ReplaceAllString(line, "")); l != "" {
			out.activities = append(out.activities, l)
		}
	}
	return out
}

func (svc Recipes) buildCreatedRecipe(s *sessionState, prov provider.Provider, p recipeAnswer) *recipe.Recipe {
	s.mu.Lock()
	provName, cfg := s.providerName, s.model
	s.mu.Unlock()
	if provName == "" {
		provName = prov.Metadata().Name
	}
	if cfg.ModelName == "" {
		cfg = prov.ModelConfig()
	}
	temp := 0.0
	if cfg.Temperature != nil {
		temp = *cfg.Temperature
	}
	model := cfg.ModelName
	instructions := p.instructions
	r := &recipe.Recipe{
		Version:      createdRecipeVersion,
		Title:        p.title,
		Description:  p.description,
		Instructions: &instructions,
		Activities:   p.activities,
		Extensions:   s.mgr.Configs(),
		Settings:     &recipe.Settings{GooseProvider: &provName, GooseModel: &model, Temperature: &temp},
		Author:       &recipe.Author{},
	}
	user := svc.a.opts.Getenv("USER")
	if user == "" {
		user = svc.a.opts.Getenv("USERNAME")
	}
	if user != "" {
		r.Author.Contact = &user
	}
	return r
}
