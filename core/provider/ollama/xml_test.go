package ollama

import (
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

func TestXMLToolCallFallback(t *testing.T) {
	tests := []struct {
		name string
		text []string
		want []conversation.Content
	}{
		{"qwen3-coder style calls", []string{"I'll look. ", "Then: <function=developer__shell>\n<parameter=command>\nls -la\n</parameter>\n</function>",
			"<function=todo__write><parameter=content>a</parameter><parameter=mode>x</parameter></function></tool_call>"},
			[]conversation.Content{
				conversation.Text("I'll look. "),
				conversation.Text("Then:"),
				conversation.ToolRequestContent("id-2", "developer__shell", map[string]any{"command": "ls -la"}),
				conversation.ToolRequestContent("id-3", "todo__write", map[string]any{"content": "a", "mode": "x"}),
			}},
		{"invalid function name", []string{"<function=bad name><parameter=a>1</parameter></function>"},
			[]conversation.Content{conversation.ToolRequestError("id-2", "The provided function name 'bad name' had invalid characters, it must match this regex [a-zA-Z0-9_-]+")}},
		{"marker split across chunks", []string{"ok <func", "tion=x><parameter=p>v</parameter></function>"},
			[]conversation.Content{conversation.Text("ok <func"), conversation.ToolRequestContent("id-2", "x", map[string]any{"p": "v"})}},
		{"unparsable stays text", []string{"a ", "literal <function= in prose"},
			[]conversation.Content{conversation.Text("a "), conversation.Text("literal <function= in prose")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := start(t, providertest.Turn{Text: tt.text})
			chunks, err := providertest.Drain(newProvider(t, srv, qwen, nil), providertest.UserRequest("go"))
			if err != nil {
				t.Fatal(err)
			}
			providertest.CheckContent(t, chunks, tt.want)
		})
	}
}
