package conversation

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
)

// PlaceholderUserText is the text of the user message goose puts into a
// conversation that repair left empty.
const PlaceholderUserText = "Hello"

// emptyToolResultText replaces a successful tool result that has nothing a
// provider could show (Anthropic rejects empty tool_result blocks).
const emptyToolResultText = "(empty result)"

// now stamps the placeholder message; a var so tests could pin it.
var now = time.Now

// tracked is a message in the repair pipeline with the index (among the
// agent-visible input messages) it started from, so the result can be put
// back between the invisible messages where it came from.
type tracked struct {
	msg    Message
	origin int
}

type fixStep func([]tracked) ([]tracked, []string)

// Fix is goose's fix_conversation: it repairs the agent-visible messages so
// a provider accepts them and returns the issues it fixed, in goose's exact
// wording. Invisible messages pass through untouched. The input is never
// modified; unchanged content items are shared with it, so treat them as
// read-only.
//
// Steps, in goose's order: merge adjacent assistant texts, trim trailing
// whitespace of assistant texts, drop empty messages, give empty tool results
// a placeholder, drop misplaced/orphaned tool requests and responses, merge
// consecutive messages of the same effective role (user, assistant, or
// "tool" for a user message carrying tool responses), drop a leading and a
// trailing assistant message, and add a "Hello" user message if nothing is
// left.
//
// Placement differs from goose on purpose: goose puts the i-th fixed message
// into the slot of the i-th visible input message, which shifts messages
// across invisible ones after a merge or removal, and drops the placeholder
// when the input had no visible message at all. We put each fixed message in
// the slot of the message it came from and append the placeholder at the end
// when there is no such slot.
func Fix(msgs []Message) ([]Message, []string) {
	var visible []tracked
	for _, m := range msgs {
		if m.Metadata.AgentVisible {
			m.Content = slices.Clone(m.Content)
			visible = append(visible, tracked{msg: m, origin: len(visible)})
		}
	}
	hadVisible := len(visible) > 0
	fixed, issues := fixMessages(visible)

	byOrigin := map[int][]Message{}
	for _, t := range fixed {
		byOrigin[t.origin] = append(byOrigin[t.origin], t.msg)
	}
	out := make([]Message, 0, len(msgs)+1)
	vi := 0
	for _, m := range msgs {
		if !m.Metadata.AgentVisible {
			out = append(out, m)
			continue
		}
		out = append(out, byOrigin[vi]...)
		vi++
	}
	if !hadVisible {
		out = append(out, byOrigin[placeholderOrigin]...)
	}
	return out, issues
}

// placeholderOrigin is the slot of the "Hello" message: the first visible
// message's, or the end when there was none.
const placeholderOrigin = 0

func fixMessages(msgs []tracked) ([]tracked, []string) {
	var issues []string
	for _, step := range []fixStep{
		mergeTextContentItems,
		trimAssistantTextWhitespace,
		removeEmptyMessages,
		fixEmptyToolResults,
		fixToolCalling,
		mergeConsecutiveMessages,
		fixLeadTrail,
		populateIfEmpty,
	} {
		var found []string
		msgs, found = step(msgs)
		issues = append(issues, found...)
	}
	return msgs, issues
}

func mergeTextContentItems(msgs []tracked) ([]tracked, []string) {
	var issues []string
	for i := range msgs {
		m := &msgs[i].msg
		if m.Role != RoleAssistant {
			continue
		}
		merged := make([]Content, 0, len(m.Content))
		for _, c := range m.Content {
			if n := len(merged); c.Text != nil && n > 0 && merged[n-1].Text != nil {
				t := *merged[n-1].Text
				t.Text += c.Text.Text
				merged[n-1].Text = &t
				continue
			}
			merged = append(merged, c)
		}
		if len(merged) != len(m.Content) {
			issues = append(issues, "Merged text content")
		}
		m.Content = merged
	}
	return msgs, issues
}

func trimAssistantTextWhitespace(msgs []tracked) ([]tracked, []string) {
	var issues []string
	for i := range msgs {
		m := &msgs[i].msg
		if m.Role != RoleAssistant {
			continue
		}
		for j, c := range m.Content {
			if c.Text == nil {
				continue
			}
			trimmed := strings.TrimRightFunc(c.Text.Text, unicode.IsSpace)
			if len(trimmed) != len(c.Text.Text) {
				issues = append(issues, "Trimmed trailing whitespace from assistant message")
				t := *c.Text
				t.Text = trimmed
				m.Content[j].Text = &t
			}
		}
	}
	return msgs, issues
}

// isEmptyMessage: no content, or only empty text items.
func isEmptyMessage(m Message) bool {
	for _, c := range m.Content {
		if c.Text == nil || c.Text.Text != "" {
			return false
		}
	}
	return true
}

func removeEmptyMessages(msgs []tracked) ([]tracked, []string) {
	var issues []string
	out := msgs[:0:0]
	for _, t := range msgs {
		if isEmptyMessage(t.msg) {
			issues = append(issues, "Removed empty message")
			continue
		}
		out = append(out, t)
	}
	return out, issues
}

func fixEmptyToolResults(msgs []tracked) ([]tracked, []string) {
	var issues []string
	for i := range msgs {
		m := &msgs[i].msg
		for j, c := range m.Content {
			r := c.ToolResponse
			if r == nil || r.ToolResult.Value == nil || hasToolResultContent(r.ToolResult.Value.Content) {
				continue
			}
			value := *r.ToolResult.Value
			value.Content = append(slices.Clone(value.Content), TextBlock(emptyToolResultText))
			resp := *r
			resp.ToolResult = Ok(value)
			m.Content[j].ToolResponse = &resp
			issues = append(issues, fmt.Sprintf("Added placeholder to empty tool result '%s'", r.ID))
		}
	}
	return msgs, issues
}

// hasToolResultContent: a non-empty text or resource, or any image.
func hasToolResultContent(content []ToolContent) bool {
	for _, c := range content {
		switch c.Type {
		case "text":
			if c.Text != "" {
				return true
			}
		case "image":
			return true
		case "resource":
			if c.Resource != nil && resourceHasText(c.Resource) {
				return true
			}
		}
	}
	return false
}

func resourceHasText(r *ResourceContents) bool {
	if r.Text != nil {
		return *r.Text != ""
	}
	if r.Blob == nil {
		return false
	}
	// goose decodes the blob; undecodable or binary blobs still render as a
	// non-empty description.
	b, err := base64.StdEncoding.DecodeString(*r.Blob)
	return err != nil || len(b) > 0
}

func fixToolCalling(msgs []tracked) ([]tracked, []string) {
	var issues []string
	pending := map[string]bool{}
	for i := range msgs {
		m := &msgs[i].msg
		kept := make([]Content, 0, len(m.Content))
		for _, c := range m.Content {
			drop, issue := misplacedContent(m.Role, c, pending)
			if issue != "" {
				issues = append(issues, issue)
			}
			if !drop {
				kept = append(kept, c)
			}
		}
		m.Content = kept
	}
	for i := range msgs {
		m := &msgs[i].msg
		if m.Role != RoleAssistant {
			continue
		}
		m.Content = slices.DeleteFunc(m.Content, func(c Content) bool {
			if c.ToolRequest != nil && pending[c.ToolRequest.ID] {
				issues = append(issues, fmt.Sprintf("Removed orphaned tool request '%s'", c.ToolRequest.ID))
				return true
			}
			return false
		})
	}
	msgs, empty := removeEmptyMessages(msgs)
	return msgs, append(issues, empty...)
}

// misplacedContent decides whether c must leave a message of role, tracking
// tool requests still waiting for a response in pending.
func misplacedContent(role Role, c Content, pending map[string]bool) (drop bool, issue string) {
	if role == RoleUser {
		switch {
		case c.ToolRequest != nil:
			return true, fmt.Sprintf("Removed tool request '%s' from user message", c.ToolRequest.ID)
		case c.ToolConfirmationRequest != nil:
			return true, fmt.Sprintf("Removed tool confirmation request '%s' from user message", c.ToolConfirmationRequest.ID)
		case c.Thinking != nil || c.RedactedThinking != nil:
			return true, "Removed thinking content from user message"
		case c.ToolResponse != nil:
			if pending[c.ToolResponse.ID] {
				delete(pending, c.ToolResponse.ID)
				return false, ""
			}
			return true, fmt.Sprintf("Removed orphaned tool response '%s'", c.ToolResponse.ID)
		}
		return false, ""
	}
	switch {
	case c.ToolResponse != nil:
		return true, fmt.Sprintf("Removed tool response '%s' from assistant message", c.ToolResponse.ID)
	case c.FrontendToolRequest != nil:
		return true, fmt.Sprintf("Removed frontend tool request '%s' from assistant message", c.FrontendToolRequest.ID)
	case c.ToolRequest != nil:
		pending[c.ToolRequest.ID] = true
	}
	return false, ""
}

// EffectiveRole is goose's effective_role: "tool" for a user message that
// carries tool responses, else the role.
func EffectiveRole(m Message) string {
	if m.Role == RoleUser && m.HasToolResponses() {
		return "tool"
	}
	return string(m.Role)
}

func mergeConsecutiveMessages(msgs []tracked) ([]tracked, []string) {
	var issues []string
	out := msgs[:0:0]
	for _, t := range msgs {
		if n := len(out); n > 0 {
			role := EffectiveRole(t.msg)
			if EffectiveRole(out[n-1].msg) == role {
				last := &out[n-1].msg
				last.Content = append(slices.Clip(last.Content), t.msg.Content...)
				issues = append(issues, fmt.Sprintf("Merged consecutive %s messages", role))
				continue
			}
		}
		out = append(out, t)
	}
	return out, issues
}

func fixLeadTrail(msgs []tracked) ([]tracked, []string) {
	var issues []string
	if len(msgs) > 0 && msgs[0].msg.Role == RoleAssistant {
		msgs = msgs[1:]
		issues = append(issues, "Removed leading assistant message")
	}
	if n := len(msgs); n > 0 && msgs[n-1].msg.Role == RoleAssistant {
		msgs = msgs[:n-1]
		issues = append(issues, "Removed trailing assistant message")
	}
	return msgs, issues
}

func populateIfEmpty(msgs []tracked) ([]tracked, []string) {
	if len(msgs) > 0 {
		return msgs, nil
	}
	placeholder := UserText(now().Unix(), PlaceholderUserText)
	return []tracked{{msg: placeholder, origin: placeholderOrigin}}, []string{"Added placeholder user message to empty conversation"}
}
