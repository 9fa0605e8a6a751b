package anthropic

import (
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// feed runs raw Messages API events through a fresh stream state.
func feed(t *testing.T, events ...string) (*streamState, []provider.Chunk, error) {
	t.Helper()
	s := newStreamState(1)
	var out []provider.Chunk
	for _, raw := range events {
		chunks, err := s.handleRaw([]byte(raw))
		out = append(out, chunks...)
		if err != nil {
			return s, out, err
		}
	}
	return s, out, nil
}

const msgStart = `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"usage":{"input_tokens":12,"cache_creation_input_tokens":12,"cache_read_input_tokens":0,"output_tokens":1}}}`

func TestUnclosedToolUseIsReportedAsTruncated(t *testing.T) {
	for _, tt := range []struct {
		stop, guidance string
	}{
		{"", "A tool call was not completed before the stream ended. Try resending your message or breaking the task into smaller steps."},
		{"max_tokens", "The model's response was truncated — it hit the output token limit while generating this tool call. Try increasing max_tokens for this provider or breaking the task into smaller steps."},
	} {
		events := []string{msgStart,
			`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_9","name":"developer__text_editor","input":{}}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"path\":\"/tmp/a\",\"file_text\":\"abc"}}`,
		}
		if tt.stop != "" {
			events = append(events, `{"type":"message_delta","delta":{"stop_reason":"`+tt.stop+`"},"usage":{"output_tokens":4096}}`)
		}
		s, _, err := feed(t, events...)
		if err != nil {
			t.Fatal(err)
		}
		fin := s.finish()
		want := conversation.ToolRequestError("toolu_9", tt.guidance+"\nReceived 33 characters of arguments; cut off at: …{\"path\":\"/tmp/a\",\"file_text\":\"abc")
		if len(fin) != 2 || providertest.MustJSON(t, fin[0].Message.Content[0]) != providertest.MustJSON(t, want) || fin[0].Message.IDOrEmpty() != "msg_1" {
			t.Errorf("stop %q: finish = %s\nwant first %s", tt.stop, providertest.MustJSON(t, fin), providertest.MustJSON(t, want))
		}
	}
}

func TestMessageDeltaUsageMerge(t *testing.T) {
	tests := []struct {
		name, delta string
		in, out     int
	}{
		{"output only keeps start input and caches", `{"output_tokens":15}`, 24, 15},
		{"input without caches keeps start caches", `{"input_tokens":20,"output_tokens":15}`, 32, 15},
		{"input with caches replaces them", `{"input_tokens":20,"cache_read_input_tokens":5,"cache_creation_input_tokens":0,"output_tokens":15}`, 25, 15},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _, err := feed(t, msgStart, `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":`+tt.delta+`}`)
			if err != nil {
				t.Fatal(err)
			}
			u := s.usageChunk().Usage.Usage
			if *u.InputTokens != tt.in || *u.OutputTokens != tt.out || *u.TotalTokens != tt.in+tt.out {
				t.Errorf("usage = %s, want %d/%d", providertest.MustJSON(t, u), tt.in, tt.out)
			}
		})
	}
}

func TestStopDetailsForwardedAsText(t *testing.T) {
	_, chunks, err := feed(t, msgStart, `{"type":"message_delta","delta":{"stop_reason":"pause_turn","stop_details":{"type":"pause","reason":"long"}},"usage":{"output_tokens":1}}`)
	if err != nil {
		t.Fatal(err)
	}
	if len(chunks) != 1 || !strings.HasPrefix(chunks[0].Message.AsText(), "The provider ended the response with: {") {
		t.Errorf("chunks = %s", providertest.MustJSON(t, chunks))
	}
}

func TestEmptyThinkingBlockYieldsNothing(t *testing.T) {
	_, chunks, err := feed(t, msgStart,
		`{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"s"}}`,
		`{"type":"content_block_stop","index":0}`)
	if err != nil || len(chunks) != 0 {
		t.Errorf("chunks = %s, err %v; want none", providertest.MustJSON(t, chunks), err)
	}
}
