package conversation

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fastSlowCases are inputs where the key scan must agree with full
// decoding: odd spacing, escapes, case-folded keys, braces inside strings,
// duplicate keys, wrong tag types and broken JSON.
var fastSlowCases = []string{
	`{"type":"text","text":"hi"}`,
	" {\n\t\"type\" : \"text\" ,\r\n \"text\" : \"hi\" } ",
	`{"text":"a \"quoted\" } { [ brace","type":"text"}`,
	`{"type":"text","text":"back\\slash\\"}`,
	`{"type":"te\u0078t","text":"escaped tag"}`,
	`{"typ\u0065":"text","text":"escaped key"}`,
	`{"Type":"text","text":"case-folded tag key"}`,
	`{"TYPE":"thinking","thinking":"x","signature":"s"}`,
	`{"type":"text","Text":"case-folded required key"}`,
	`{"type":"text","te\u0078t":"escaped required key"}`,
	`{"type":"image","data":"x"}`,
	`{"type":"image","mimeType":"image/png","data":"x","extra":{"a":[1,{"b":"}"}]}}`,
	`{"type":"text","type":"thinking","thinking":"dup","signature":""}`,
	`{"type":"thinking","type":5,"thinking":"x","signature":""}`,
	`{"type":5}`,
	`{"type":null,"text":"x"}`,
	`{"type":"text"`,
	`{"type":"text","text":"x"} trailing`,
	`{"type":"text","text":}`,
	`{"type":"text","text":tru}`,
	`{"type":"text","text":"x",}`,
	`{}`,
	`[]`,
	`"text"`,
	`null`,
	``,
	`{"type":"toolRequest","id":"t","toolCall":{"status":"success","value":{"name":"x","arguments":[1,2]}}}`,
	`{"type":"toolRequest","id":"t","toolCall":{"status":"error","error":"bad","value":{"name":5}}}`,
	`{"type":"toolRequest","id":"t","toolCall":{"status":"success","value":null}}`,
	`{"type":"toolRequest","id":"t","toolCall":{"status":"success"}}`,
	`{"type":"toolRequest","id":"t","toolCall":{"status":"pending","value":{}}}`,
	`{"type":"toolResponse","id":"t","toolResult":{"status":"success","value":{"content":[{"type":"text","text":"}\""}],"isError":true}}}`,
	`{"type":"actionRequired","data":{"actionType":"elicitation","id":"e","message":"m","requested_schema":{}}}`,
	`{"type":"actionRequired","data":{"ActionType":"elicitationResponse","id":"e","user_data":1}}`,
	`{"type":"actionRequired","data":{"actionType":"toolConfirmation","id":"e","toolName":"x","arguments":{},"prompt":null}}`,
	`{"type":"conversationCompacted","msg":"old"}`,
	`{"type":"reasoning","text":"legacy"}`,
	`{"type":"systemNotification","notificationType":"inlineMessage","msg":"<b>&</b>"}`,
	`{"type":"text","text":"line\nbreak \u00e9 \ud83d\ude00 \"q\""}`,
	"{\"type\":\"text\",\"text\":\"raw\x01control\"}",
	"{\"type\":\"text\",\"text\":\"bad \xff utf8\"}",
	`{"type":"text","text":"x","annotations":{"audience":["user"]}}`,
	`{"type":"text","text":"first","text":"second"}`,
	`{"type":"text","text":5,"text":"second"}`,
	`{"type":"text","text":"first","text":null}`,
	`{"type":"text","text":"x"}}`,
	`{"type":"text","text":"x"`,
	`{"type":"text","text":"bad \escape"}`,
}

// decodeBoth decodes in with the key-scan path and with the general path.
// Only errors are compared for bad input: what a failed decode leaves
// behind is unspecified on both paths.
func decodeBoth(in []byte) (fast, slow string, fastErr, slowErr error) {
	var f, s Content
	fastErr = f.UnmarshalJSON(in)
	slowErr = s.unmarshalSlow(in)
	fb, _ := Marshal(f)
	sb, _ := Marshal(s)
	return string(fb), string(sb), fastErr, slowErr
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func TestKeyScanAgreesWithFullDecode(t *testing.T) {
	for _, in := range fastSlowCases {
		fast, slow, fastErr, slowErr := decodeBoth([]byte(in))
		if errText(fastErr) != errText(slowErr) || (fastErr == nil && fast != slow) {
			t.Errorf("%s:\nfast %s (%v)\nslow %s (%v)", in, fast, fastErr, slow, slowErr)
		}
	}
}

// The one-pass Result and ToolCall decoders must agree with the two-pass
// forms they fall back to.
func TestOnePassResultAgreesWithTwoPass(t *testing.T) {
	for _, in := range []string{
		`{"status":"success","value":{"name":"x","arguments":{"a":1}}}`,
		`{"status":"success","value":{"name":"x","arguments":"raw"}}`,
		`{"status":"success","value":{"name":"x","arguments":null}}`,
		`{"status":"success","value":{"name":"x"}}`,
		`{"status":"success","value":{"name":"x","arguments":{}}}`,
		`{"status":"success","value":null}`,
		`{"status":"success"}`,
		`{"status":"error","error":"boom","value":{"name":7}}`,
		`{"status":"error","error":7}`,
		`{"status":"pending"}`,
		`{"value":{"name":"x"}}`,
		`null`,
		`[]`,
	} {
		var one, two Result[ToolCall]
		errOne := json.Unmarshal([]byte(in), &one)
		errTwo := two.unmarshalTwoPass([]byte(in))
		if errText(errOne) != errText(errTwo) || (errOne == nil && !jsonEqual(t, one, two)) {
			t.Errorf("%s:\none %s (%v)\ntwo %s (%v)", in, mustJSON(t, one), errOne, mustJSON(t, two), errTwo)
		}
	}
}

func TestScanObjectReadsKeys(t *testing.T) {
	obj, ok := scanObject([]byte(`{"id":"x","toolCall":{"id":"inner","text":"y"},"note":"text"}`), tagKeyType)
	if !ok || obj.tag != "" {
		t.Fatalf("ok=%v tag=%q", ok, obj.tag)
	}
	if !obj.keys.has("id") || !obj.keys.has("toolCall") || obj.keys.has("text") {
		t.Fatalf("keys = %b: nested or value text counted as a key", obj.keys)
	}
}

// FuzzKeyScanAgreesWithFullDecode: for any input, the key-scan path and
// the general path give the same value and the same error.
func FuzzKeyScanAgreesWithFullDecode(f *testing.F) {
	for _, in := range fastSlowCases {
		f.Add([]byte(in))
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "golden", "*.json"))
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil && !strings.Contains(file, "message") {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		fast, slow, fastErr, slowErr := decodeBoth(in)
		if errText(fastErr) != errText(slowErr) || (fastErr == nil && fast != slow) {
			t.Fatalf("%q:\nfast %s (%v)\nslow %s (%v)", in, fast, fastErr, slow, slowErr)
		}
		var one, two Result[CallToolResult]
		errOne := one.UnmarshalJSON(in)
		errTwo := two.unmarshalTwoPass(in)
		a, _ := Marshal(one)
		b, _ := Marshal(two)
		if errText(errOne) != errText(errTwo) || (errOne == nil && !bytes.Equal(a, b)) {
			t.Fatalf("%q: result one-pass %s (%v), two-pass %s (%v)", in, a, errOne, b, errTwo)
		}
	})
}
