package conversation

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// encodeLikeStore is how core/session writes rows: an Encoder with HTML
// escaping off (marshalNoEscape there).
func encodeLikeStore(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// goose's serde_json writes <, > and & as they are; so do Marshal and any
// Encoder with SetEscapeHTML(false), down through every nested MarshalJSON.
func TestGoldenHTMLMessageIsGooseBytes(t *testing.T) {
	m := goldenHTMLMessage()
	wire := checkGolden(t, "message_html", m)
	for _, want := range []string{
		`{"type":"text","text":"<tag> & \"quotes\""}`,
		`"arguments":{"command":"grep '<a href=' index.html && echo \"ok\" > out"}`,
		`"text":"<a href=\"x\">&amp;</a>\n"`,
	} {
		if !bytes.Contains(wire, []byte(want)) {
			t.Errorf("golden lacks %s", want)
		}
	}
	if bytes.Contains(wire, []byte(`\u00`)) {
		t.Fatalf("HTML-escaped: %s", wire)
	}
	if got := encodeLikeStore(t, m); !bytes.Equal(got, wire) {
		t.Fatalf("store encoder:\ngot  %s\nwant %s", got, wire)
	}
	content, err := Marshal(m.Content)
	if err != nil {
		t.Fatal(err)
	}
	if got := encodeLikeStore(t, m.Content); !bytes.Equal(got, content) {
		t.Fatalf("content list: store encoder %s, Marshal %s", got, content)
	}

	var back Message
	if err := json.Unmarshal(wire, &back); err != nil {
		t.Fatal(err)
	}
	if again, _ := Marshal(back); !bytes.Equal(again, wire) {
		t.Fatalf("round trip:\ngot  %s\nwant %s", again, wire)
	}
	if err := validate(t, componentSchema(t, false, "Message"), wire); err != nil {
		t.Fatalf("Message schema: %v", err)
	}
}

// Plain json.Marshal cannot be told not to escape what MarshalJSON returns:
// it writes \u003c etc., which is the same JSON value.
func TestPlainJSONMarshalEscapesButMeansTheSame(t *testing.T) {
	m := goldenHTMLMessage()
	plain, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	goose, _ := Marshal(m)
	if !bytes.Contains(plain, []byte(`\u003ctag\u003e \u0026`)) {
		t.Fatalf("json.Marshal no longer escapes; Marshal may be unnecessary: %s", plain)
	}
	var a, b any
	if err := json.Unmarshal(plain, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(goose, &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("values differ:\n%s\n%s", plain, goose)
	}
}

// encoding/json always escapes U+2028 and U+2029; serde_json does not.
// An escaped backslash followed by "u2028" is text and stays as it is.
func TestMarshalWritesLineSeparatorsRaw(t *testing.T) {
	tests := []struct {
		text, want string
	}{
		{"a\u2028b\u2029c", "{\"type\":\"text\",\"text\":\"a\u2028b\u2029c\"}"},
		{`literal \u2028`, `{"type":"text","text":"literal \\u2028"}`},
		{"\\\u2028", "{\"type\":\"text\",\"text\":\"\\\\\u2028\"}"},
		{"tab\tnl\nbell\x07ff\f", `{"type":"text","text":"tab\tnl\nbell\u0007ff\f"}`},
	}
	for _, tt := range tests {
		got, err := Marshal(Text(tt.text))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tt.want {
			t.Errorf("%q:\ngot  %s\nwant %s", tt.text, got, tt.want)
		}
		var back Content
		if err := json.Unmarshal(got, &back); err != nil || back.Text == nil || back.Text.Text != tt.text {
			t.Errorf("%q: decoded %+v, %v", tt.text, back.Text, err)
		}
	}
}

func TestMarshalReportsEncodeErrors(t *testing.T) {
	_, err := Marshal(Content{Type: "video"})
	if err == nil || !strings.Contains(err.Error(), `unknown content type "video"`) {
		t.Fatalf("err = %v", err)
	}
}
