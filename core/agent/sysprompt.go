package agent

import (
	"errors"
	"sort"
	"strings"
	"sync"

	"github.com/goose-acp/goose-acp/core/errkind"
)

// sessionPrompt is what a client set on a loaded session's system prompt
// (goose's override_system_prompt / extend_system_prompt): a replacement
// of the base prompt and keyed additional instructions. Like goose it
// lives with the loaded session and is not stored.
type sessionPrompt struct {
	mu       sync.Mutex
	override string
	extras   map[string]string
	// ver counts changes, so a running turn rebuilds its prompt.
	ver int64
}

func (p *sessionPrompt) version() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ver
}

func (p *sessionPrompt) base() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.override
}

// extraTexts are the keyed instructions in key order (stable prompts).
func (p *sessionPrompt) extraTexts() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	keys := make([]string, 0, len(p.extras))
	for k := range p.extras {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, sanitize(p.extras[k]))
	}
	return out
}

// ErrPromptKeyRequired: append mode names the instruction it sets.
var ErrPromptKeyRequired = errkind.New(errkind.Invalid, "key cannot be empty for append mode")

// SetSystemPrompt changes a loaded session's system prompt from its next
// provider call. mode "set" replaces goose's base prompt (blank text
// restores it); "append" sets the instruction under key in "Additional
// Instructions" (blank text removes it).
func (svc Sessions) SetSystemPrompt(sessionID, mode, key, text string) error {
	s, err := svc.a.session(sessionID)
	if err != nil {
		return err
	}
	p := &s.prompt
	p.mu.Lock()
	defer p.mu.Unlock()
	blank := strings.TrimSpace(text) == ""
	switch mode {
	case "set":
		if blank {
			text = ""
		}
		p.override = text
	case "append", "":
		key = strings.TrimSpace(key)
		if key == "" {
			return ErrPromptKeyRequired
		}
		if blank {
			delete(p.extras, key)
			break
		}
		if p.extras == nil {
			p.extras = map[string]string{}
		}
		p.extras[key] = text
	default:
		return errors.New("mode must be set or append")
	}
	p.ver++
	return nil
}
