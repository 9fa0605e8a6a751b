package ollama

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// Some models served by Ollama (notably qwen3-coder, given many tools)
// write tool calls as text — <function=name><parameter=k>v</parameter>
// </function> — instead of tool_calls. Like goose's ollama format, text is
// streamed until "<function=" appears, then held back; at the end of the
// reply the held text is parsed into tool requests (or, if nothing parses,
// released as text).

var (
	xmlFunction  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<function=([^>]+)>([\s\S]*?)</function>`) })
	xmlParameter = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<parameter=([^>]+)>([\s\S]*?)</parameter>`) })
	validName    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z0-9_-]+$`) })
)

const xmlMarker = "<function="

type xmlFallback struct {
	text     strings.Builder
	streamed int // bytes of text already passed through
	held     bool
}

// add records a content delta and returns the part to stream now.
func (x *xmlFallback) add(delta string) string {
	if delta == "" {
		return ""
	}
	x.text.WriteString(delta)
	if x.held {
		return ""
	}
	if strings.Contains(x.text.String(), xmlMarker) {
		x.held = true
		return ""
	}
	x.streamed = x.text.Len()
	return delta
}

// finish returns the held-back items: the unstreamed text before the first
// call and the parsed calls, or the held text as is when nothing parses.
func (x *xmlFallback) finish(newID func() string) []conversation.Content {
	if !x.held {
		return nil
	}
	all := x.text.String()
	calls := parseXMLToolCalls(all, newID)
	rest := all[x.streamed:]
	if len(calls) == 0 {
		return []conversation.Content{conversation.Text(rest)}
	}
	var out []conversation.Content
	// The marker may straddle what was already streamed.
	if idx := strings.Index(all, xmlMarker); idx > x.streamed {
		if prefix := strings.TrimSpace(all[x.streamed:idx]); prefix != "" {
			out = append(out, conversation.Text(prefix))
		}
	}
	return append(out, calls...)
}

// parseXMLToolCalls is goose's parse_xml_tool_calls: parameter values are
// strings; an invalid function name becomes a tool request error.
func parseXMLToolCalls(text string, newID func() string) []conversation.Content {
	var out []conversation.Content
	for _, m := range xmlFunction().FindAllStringSubmatch(text, -1) {
		name := strings.TrimSpace(m[1])
		args := map[string]any{}
		for _, p := range xmlParameter().FindAllStringSubmatch(m[2], -1) {
			args[strings.TrimSpace(p[1])] = strings.TrimSpace(p[2])
		}
		id := newID()
		if !validName().MatchString(name) {
			out = append(out, conversation.ToolRequestError(id, fmt.Sprintf(
				"The provided function name '%s' had invalid characters, it must match this regex [a-zA-Z0-9_-]+", name)))
			continue
		}
		out = append(out, conversation.ToolRequestContent(id, name, args))
	}
	return out
}
