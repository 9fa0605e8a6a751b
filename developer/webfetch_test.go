package developer

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// webServer serves the bodies web_fetch's tests fetch.
func webServer(t *testing.T) *httptest.Server {
	t.Helper()
	bin := []byte{0x89, 'P', 'N', 'G', 0, 1, 2, 0xff, 0xfe}
	mux := http.NewServeMux()
	mux.HandleFunc("/text", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "hello world\naccept=%s\nua=%s", r.Header.Get("Accept"), r.Header.Get("User-Agent"))
	})
	mux.HandleFunc("/json", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte(`{"ok":true,"n":[1,2]}`)) })
	mux.HandleFunc("/badjson", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("not json")) })
	mux.HandleFunc("/bin", func(w http.ResponseWriter, _ *http.Request) { w.Write(bin) })
	mux.HandleFunc("/big", func(w http.ResponseWriter, _ *http.Request) { w.Write(bytes.Repeat([]byte("x"), webInlineLimit+1)) })
	mux.HandleFunc("/bigjson", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, `{"pad":%q}`, strings.Repeat("y", webInlineLimit))
	})
	mux.HandleFunc("/missing", http.NotFound)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

var savedRE = regexp.MustCompile(`^Content saved to: (.+) \((\d+) bytes\)$`)

// savedFile returns the temp file a result reports, removed at test end.
func savedFile(t *testing.T, res *mcp.CallToolResult) (string, []byte) {
	t.Helper()
	m := savedRE.FindStringSubmatch(strings.Join(texts(res), ""))
	if res.IsError || m == nil {
		t.Fatalf("want a saved-file result, got error=%v %q", res.IsError, texts(res))
	}
	t.Cleanup(func() { os.Remove(m[1]) })
	data, err := os.ReadFile(m[1])
	if err != nil {
		t.Fatal(err)
	}
	if m[2] != fmt.Sprint(len(data)) {
		t.Fatalf("reported %s bytes, file has %d", m[2], len(data))
	}
	return m[1], data
}

func TestWebFetchInlineAndSaved(t *testing.T) {
	srv := webServer(t)
	h := newHarness(t, Options{Surface: Editor})
	fetch := func(path, saveAs string) *mcp.CallToolResult {
		args := map[string]any{"url": srv.URL + path}
		if saveAs != "" {
			args["save_as"] = saveAs
		}
		return h.mustCall(t, "web_fetch", args)
	}

	res := fetch("/text", "")
	want := "hello world\naccept=" + webAccept + "\nua=" + imageUserAgent
	if res.IsError || strings.Join(texts(res), "") != want {
		t.Fatalf("text: %v %q", res.IsError, texts(res))
	}
	if res := fetch("/json", "json"); res.IsError || texts(res)[0] != `{"ok":true,"n":[1,2]}` {
		t.Fatalf("json: %v %q", res.IsError, texts(res))
	}

	path, data := savedFile(t, fetch("/bin", "binary"))
	if !strings.HasPrefix(path, os.TempDir()) || !strings.HasSuffix(path, ".bin") || !bytes.Contains(data, []byte("PNG\x00")) {
		t.Fatalf("binary saved to %s: %q", path, data)
	}
	// A binary body asked for as text is saved, never inlined as U+FFFD.
	if path, data := savedFile(t, fetch("/bin", "")); !strings.HasSuffix(path, ".bin") || len(data) != 9 {
		t.Fatalf("binary as text: %s %q", path, data)
	}
	if path, data := savedFile(t, fetch("/big", "text")); !strings.HasSuffix(path, ".txt") || len(data) != webInlineLimit+1 {
		t.Fatalf("large text: %s, %d bytes", path, len(data))
	}
	if path, data := savedFile(t, fetch("/bigjson", "json")); !strings.HasSuffix(path, ".json") || len(data) != webInlineLimit+10 {
		t.Fatalf("large json: %s, %d bytes", path, len(data))
	}
}

func TestWebFetchErrors(t *testing.T) {
	srv := webServer(t)
	h := newHarness(t, Options{Surface: Editor})
	// A port nothing listens on: the offline / unreachable case.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String() + "/page"
	ln.Close()

	for _, tc := range []struct {
		args map[string]any
		want string // exact, or a prefix when it ends in "…"
	}{
		{map[string]any{"url": srv.URL + "/missing"}, "HTTP request failed with status: 404 Not Found"},
		{map[string]any{"url": srv.URL + "/badjson", "save_as": "json"}, "Invalid JSON response: invalid character 'o' in literal null (expecting 'u')"},
		{map[string]any{"url": dead}, "Failed to fetch URL: error sending request for url (" + dead + "): …"},
		{map[string]any{"url": "  "}, "URL cannot be empty."},
		{map[string]any{"url": "file:///etc/passwd"}, "URL must start with http:// or https://, got: file:///etc/passwd"},
		{map[string]any{}, "Error: Failed to parse arguments: missing field `url`"},
		{map[string]any{"url": srv.URL, "save_as": "xml"}, "Error: Failed to parse arguments: unknown variant `xml`, expected one of `text`, `json`, `binary`"},
	} {
		res := h.mustCall(t, "web_fetch", tc.args)
		got := strings.Join(texts(res), "")
		prefix, isPrefix := strings.CutSuffix(tc.want, "…")
		if !res.IsError || (isPrefix && !strings.HasPrefix(got, prefix)) || (!isPrefix && got != tc.want) {
			t.Errorf("%v: error=%v %q, want %q", tc.args, res.IsError, got, tc.want)
		}
	}
}

// TestWebFetchCancel: cancelling the call ends the request at once (the
// server sees its request context end), not after the 30 s timeout.
func TestWebFetchCancel(t *testing.T) {
	started, ended := make(chan struct{}), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-r.Context().Done()
		close(ended)
	}))
	defer srv.Close()
	h := newHarness(t, Options{Surface: Editor})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := h.cs.CallTool(ctx, &mcp.CallToolParams{Name: "web_fetch", Arguments: map[string]any{"url": srv.URL}})
		done <- err
	}()
	<-started
	cancel()
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the request kept running after the call was cancelled")
	}
	if err := <-done; err == nil {
		t.Fatal("cancelled call returned no error")
	}
}

func TestValidJSONStreams(t *testing.T) {
	for in, ok := range map[string]bool{`{"a":[1,{"b":null}]}`: true, `[1,2] `: true, `"s"`: true, `{"a":1} x`: false, ``: false, `{"a":`: false} {
		if err := validJSON(strings.NewReader(in)); (err == nil) != ok {
			t.Errorf("validJSON(%q) = %v, want ok=%v", in, err, ok)
		}
	}
}
