package conversation

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDecodeRejectsUnknownShapes(t *testing.T) {
	tests := []struct {
		in, wantErr string
	}{
		{`{"type":"video","url":"x"}`, `conversation: unknown content type "video"`},
		{`{"text":"no type"}`, `conversation: unknown content type ""`},
		{`null`, `conversation: unknown content type ""`},
		{`{"type":"actionRequired","data":{"actionType":"approve","id":"1"}}`, `conversation: unknown action type "approve"`},
		{`{"type":"toolResponse","id":"1","toolResult":{"status":"pending"}}`, `tool result status must be "success" or "error"`},
		{`{"type":"text","text":5}`, `cannot unmarshal number`},
		{`[1,2]`, `cannot unmarshal array`},
		{`{"type":"actionRequired"}`, `conversation: actionRequired content is missing "data"`},
		{`{"type":"toolRequest","id":"t1"}`, `conversation: toolRequest content is missing "toolCall"`},
		{`{"type":"thinking","thinking":"x"}`, `conversation: thinking content is missing "signature"`},
	}
	for _, tt := range tests {
		var c Content
		err := json.Unmarshal([]byte(tt.in), &c)
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%s: err = %v, want %q", tt.in, err, tt.wantErr)
		}
	}
	var m Message
	err := json.Unmarshal([]byte(`{"role":"user","created":1,"content":[{"type":"text","text":"ok"},{"type":"hologram"}]}`), &m)
	if err == nil || !strings.Contains(err.Error(), `unknown content type "hologram"`) {
		t.Fatalf("message err = %v", err)
	}
}

// Shapes exactly as goose writes them re-encode to the
// same bytes.
func TestGooseWireSamplesAreByteStable(t *testing.T) {
	for _, s := range []string{
		`{"type":"text","text":"hi"}`,
		`{"type":"image","data":"iVBOR","mimeType":"image/png"}`,
		`{"type":"toolRequest","id":"toolu_1","toolCall":{"status":"success","value":{"name":"developer__shell","arguments":{"command":"ls"}}}}`,
		`{"type":"toolResponse","id":"toolu_1","toolResult":{"status":"success","value":{"content":[{"type":"text","text":"a.txt\n"}],"isError":false}}}`,
		`{"type":"toolResponse","id":"toolu_1","toolResult":{"status":"error","error":"boom"}}`,
		`{"type":"actionRequired","data":{"actionType":"elicitationResponse","id":"e1","user_data":{"ok":true}}}`,
	} {
		var c Content
		if err := json.Unmarshal([]byte(s), &c); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if got := mustJSON(t, c); got != s {
			t.Errorf("re-encoded\n got %s\nwant %s", got, s)
		}
	}
}

func TestDecodeNormalisesLegacyForms(t *testing.T) {
	var m Message
	in := `{"id":null,"role":"assistant","created":5,"content":[` +
		`{"type":"conversationCompacted","msg":"old"},` +
		`{"type":"toolRequest","id":"t","toolCall":{"status":"success","value":{"name":"x","arguments":"raw"}}}]}`
	if err := json.Unmarshal([]byte(in), &m); err != nil {
		t.Fatal(err)
	}
	want := `{"id":null,"role":"assistant","created":5,"content":[` +
		`{"type":"toolRequest","id":"t","toolCall":{"status":"success","value":{"name":"x","arguments":{"value":"raw"}}}}],` +
		`"metadata":{"userVisible":true,"agentVisible":true}}`
	if got := mustJSON(t, m); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

// FuzzContentRoundTrip: whatever decodes must encode, and encoding is a
// fixed point (decode(encode(x)) encodes to the same bytes).
func FuzzContentRoundTrip(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "golden", "*.json"))
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil && !strings.Contains(file, "message") {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"type":"actionRequired","data":{}}`))
	f.Add([]byte(`{"type":"toolRequest"}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		var c Content
		if err := json.Unmarshal(in, &c); err != nil || c.Type == "" {
			return
		}
		first, err := json.Marshal(c)
		if err != nil {
			t.Fatalf("decoded %s but cannot encode it: %v", in, err)
		}
		var back Content
		if err := json.Unmarshal(first, &back); err != nil {
			t.Fatalf("cannot decode own output %s: %v", first, err)
		}
		second, err := json.Marshal(back)
		if err != nil || !bytes.Equal(first, second) {
			t.Fatalf("not a fixed point:\n%s\n%s (%v)", first, second, err)
		}
	})
}
