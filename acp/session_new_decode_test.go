package acp

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// session/new's params decode to what encoding/json's struct decoder
// gives, with its errors, whichever way they take.
func TestNewSessionParamsDecodeAsEncodingJSON(t *testing.T) {
	inputs := []string{
		`{"cwd":"/home/u/p","mcpServers":[]}`,
		`{"cwd":"/home/u/p","mcpServers":{}}`,
		`{"cwd":"/home/u/p","mcpServers":null}`,
		`{"cwd":"/home/u/p"}`,
		`{}`,
		`{"cwd":"/p","mcpServers":[{"name":"fs","command":"npx","args":["-y","x"],"env":[{"name":"A","value":"1"}]},{"type":"http","name":"h","url":"http://127.0.0.1:1/mcp","headers":[{"name":"X","value":"y"}]}]}`,
		`{"cwd":"/p","mcpServers":[],"additionalDirectories":["/a","/b"],"_meta":{"sessionTitle":" t ","n":1.5,"nested":{"a":[1,null,true]}}}`,
		`{"cwd":"/p","mcpServers":[],"additionalDirectories":null,"_meta":null}`,
		`{"cwd":"ünï \u00e9 \ud83e\udda2 <&>","mcpServers":[]}`,
		`{"cwd":"/p","mcpServers":[],"_meta":{"a":1},"_meta":{"b":2}}`,
		`{"cwd":"/a","cwd":"/b","mcpServers":[]}`,
		`{"CWD":"/p","mcpServers":[]}`,
		`{"c\u0077d":"/p","mcpServers":[]}`,
		`{"cwd":"/p","mcpServers":[],"extra":true}`,
		`{"cwd":5,"mcpServers":[]}`,
		`{"cwd":null,"mcpServers":[]}`,
		`{"cwd":"/p","mcpServers":5}`,
		`{"cwd":"/p","mcpServers":"x"}`,
		`{"cwd":"/p","mcpServers":[{"name":5}]}`,
		`{"cwd":"/p","mcpServers":[],"additionalDirectories":"/a"}`,
		`{"cwd":"/p","mcpServers":[],"additionalDirectories":[1]}`,
		`{"cwd":"/p","mcpServers":[],"_meta":[1]}`,
		`{"cwd":"/p","mcpServers":[],"_meta":"x"}`,
		`{"cwd":"cwd","mcpServers":[]}`,
		`[1,2]`, `"text"`, `42`, `true`,
	}
	for _, in := range inputs {
		var got, want NewSessionRequest
		gotErr := json.Unmarshal([]byte(in), &got)
		wantErr := decodeNewSessionJSON([]byte(in), &want)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %#v, %v\nwant %#v, %v", in, got, gotErr, want, wantErr)
		}
	}
	// The errors still name the type as before.
	var r NewSessionRequest
	if err := json.Unmarshal([]byte(`{"cwd":5}`), &r); err == nil || err.Error() != "json: cannot unmarshal number into Go struct field NewSessionRequest.cwd of type string" {
		t.Fatalf("error: %v", err)
	}
	if err := json.Unmarshal([]byte(`[1]`), &r); err == nil || err.Error() != "json: cannot unmarshal array into Go value of type acp.NewSessionRequest" {
		t.Fatalf("error: %v", err)
	}
}
