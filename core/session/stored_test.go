package session

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// TestDecodeTextOnlyMatchesGeneralDecoder: the fast path must give exactly
// what the general decoder gives, and step aside for anything else.
func TestDecodeTextOnlyMatchesGeneralDecoder(t *testing.T) {
	for _, tc := range []struct {
		in   string
		fast bool
	}{
		{`[{"type":"text","text":"hi"}]`, true},
		{`[{"type":"text","text":"a"},{"text":"b\nc \u00e9","type":"text"}]`, true},
		{`[]`, true},
		{`[{"type":"text","text":"a","annotations":{"audience":["user"]}}]`, false},
		{`[{"type":"text","text":"a","_meta":{"k":1}}]`, false},
		{`[{"type":"text"}]`, false},
		{`[{"type":"thinking","thinking":"t","signature":"s"}]`, false},
		{`[{"type":"text","text":"a"}] trailing`, false},
		{`[{"type":"text","text":"a"}][]`, false},
		{`{"type":"text","text":"a"}`, false},
		{`[{"type":"text","text":"half`, false},
		{`[{"type":"text","text":"a\"}]`, false},
		{`[{"type":"text","text":"a\\"}]`, true},
		{`[{"type":"text","text":"a"},{"type":"text","text":"b"}]`, true},
		{`[{"type":"text","text":"a","x":"b"}]`, false},
		{`[{"type":"text","text":"\u00e9\n\t"}]`, true},
		{"[{\"type\":\"text\",\"text\":\"tab\there\"}]", false},
		{"[{\"type\":\"text\",\"text\":\"bad \xff utf8\"}]", true},
		{`[{"type":"text","text":"plain école"}]`, true},
	} {
		got, ok := decodeTextOnly(tc.in)
		if ok != tc.fast {
			t.Errorf("%s: fast path %v, want %v", tc.in, ok, tc.fast)
			continue
		}
		if !ok {
			continue
		}
		var want []conversation.Content
		if err := json.Unmarshal([]byte(tc.in), &want); err != nil {
			t.Fatalf("%s: general decoder: %v", tc.in, err)
		}
		if !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("%s: fast %#v, general %#v", tc.in, got, want)
		}
	}
}

func TestDecodeMetadata(t *testing.T) {
	hidden := conversation.Metadata{UserVisible: false, AgentVisible: true}
	for in, want := range map[string]conversation.Metadata{
		`{"userVisible":false,"agentVisible":true}`:      hidden,
		`{ "agentVisible": true, "userVisible": false }`: hidden,
		`{"userVisible":false}`:                          hidden,
		`not json`:                                       conversation.VisibleToAll(),
		`{}`:                                             conversation.VisibleToAll(),
		// goose 1.54's per-turn context message
		`{"userVisible":false,"agentVisible":true,"turnContext":true}`: {AgentVisible: true, TurnContext: true},
	} {
		if got := decodeMetadata(&in); got != want {
			t.Errorf("%s: %+v, want %+v", in, got, want)
		}
	}
	if got := decodeMetadata(nil); got != conversation.VisibleToAll() {
		t.Errorf("NULL metadata: %+v", got)
	}
}
