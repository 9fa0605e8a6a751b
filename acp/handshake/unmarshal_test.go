package handshake

import (
	"bufio"
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// requestCorpus is testdata/initialize_requests.txt: editors' exact
// initialize params (Zed, agent-shell, codecompanion, the SDKs, Desktop)
// and the shapes encoding/json reads its own way (case, duplicates, nulls,
// escapes, wrong types).
func requestCorpus(t testing.TB) [][]byte {
	f, err := os.Open("testdata/initialize_requests.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]byte
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		out = append(out, []byte(sc.Text()))
	}
	return out
}

// sameAsEncodingJSON fails when InitializeRequest's decoding of b differs
// from encoding/json's own (value or error).
func sameAsEncodingJSON(t *testing.T, b []byte) {
	t.Helper()
	var got InitializeRequest
	gotErr := json.Unmarshal(b, &got)
	var want plainRequest
	wantErr := json.Unmarshal(b, &want)
	if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
		t.Fatalf("%s: error %v, encoding/json %v", b, gotErr, wantErr)
	}
	if !reflect.DeepEqual(got, InitializeRequest(want)) {
		t.Fatalf("%s:\n got %#v\nwant %#v", b, got, InitializeRequest(want))
	}
}

func TestInitializeRequestDecodesAsEncodingJSON(t *testing.T) {
	for _, b := range requestCorpus(t) {
		sameAsEncodingJSON(t, b)
	}
}

// The editors' requests (the corpus's first 12 lines) take the fast path,
// the point of it; names known only up to case, known names twice and
// nulls (lines 15-23) go to encoding/json.
func TestEditorsRequestsTakeTheFastPath(t *testing.T) {
	for i, b := range requestCorpus(t) {
		line := i + 1
		var r InitializeRequest
		fast := decodeRequest(b, &r)
		switch {
		case line <= 12 && !fast:
			t.Errorf("line %d %s left the fast path", line, b)
		case line >= 15 && line <= 23 && fast:
			t.Errorf("line %d %s took the fast path", line, b)
		}
	}
}

func TestInitializeRequestFastValues(t *testing.T) {
	var r InitializeRequest
	zed := requestCorpus(t)[0]
	if !decodeRequest(zed, &r) {
		t.Fatal("Zed's request left the fast path")
	}
	if r.ProtocolVersion != 1 || !r.ClientCapabilities.FS.ReadTextFile || !r.ClientCapabilities.Terminal ||
		!r.ClientCapabilities.Auth.Terminal || r.ClientCapabilities.Meta["terminal-auth"] != true ||
		r.ClientInfo == nil || r.ClientInfo.Title != "Zed" || r.ClientInfo.Version != "0.230.0" {
		t.Fatalf("decoded %#v", r)
	}
}

func FuzzInitializeRequestDecodesAsEncodingJSON(f *testing.F) {
	for _, b := range requestCorpus(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		sameAsEncodingJSON(t, b)
	})
}
