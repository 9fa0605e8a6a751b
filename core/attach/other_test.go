package attach

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/pathpolicy"
)

// Links that are not file:// become notes that say what was attached and
// why its content is not there.
func TestOtherSchemesBecomeNotes(t *testing.T) {
	pol := pathpolicy.New(pathpolicy.Options{WorkingDir: t.TempDir(), ConfigDir: t.TempDir()})
	cases := map[string]string{
		"zed:///agent/terminal?id=1": "[Terminal](zed:///agent/terminal?id=1) was not attached: goose-acp cannot open zed:// links, so its content is not available",
		"untitled:Untitled-1":        "[Terminal](untitled:Untitled-1) was not attached: goose-acp cannot open untitled: links, so its content is not available",
		"https://example.com/x":      "[Terminal](https://example.com/x) was not attached: http(s) links are not fetched (set GOOSE_ACP_FETCH_LINKS=true to allow it)",
		"notes.md":                   "[Terminal](notes.md) was not attached: it is not a URI goose-acp can open, so its content is not available",
	}
	for uri, want := range cases {
		got := Attach(context.Background(), pol, "Terminal", uri, Options{})
		if got.Text != want || got.Note != want {
			t.Errorf("Attach(%s) = %+v, want note %q", uri, got, want)
		}
	}
}

func TestFetchAllowedLinks(t *testing.T) {
	pol := pathpolicy.New(pathpolicy.Options{WorkingDir: t.TempDir(), ConfigDir: t.TempDir()})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/page":
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.Write([]byte("hello page"))
		case "/big":
			w.Header().Set("Content-Type", "text/plain")
			w.Write([]byte(strings.Repeat("a", MaxLinkedFileBytes+10)))
		case "/png":
			w.Header().Set("Content-Type", "image/png")
			w.Write([]byte("\x89PNG"))
		case "/slow":
			<-r.Context().Done()
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	o := Options{FetchHTTP: true}
	if got := Attach(context.Background(), pol, "p", srv.URL+"/page", o); got.Note != "" || got.Text != "\n\n# "+srv.URL+"/page\n```\nhello page\n```" {
		t.Errorf("page = %+v", got)
	}
	if got := Attach(context.Background(), pol, "b", srv.URL+"/big", o); got.Note != "" || !strings.HasSuffix(got.Text, "\n[truncated]\n```") || len(got.Text) > MaxLinkedFileBytes+200 {
		t.Errorf("big page: %d bytes, note %q", len(got.Text), got.Note)
	}
	if got := Attach(context.Background(), pol, "i", srv.URL+"/png", o); got.Note != "[i]("+srv.URL+"/png) was not attached: it is image/png, not text" {
		t.Errorf("png = %+v", got)
	}
	if got := Attach(context.Background(), pol, "m", srv.URL+"/missing", o); got.Note != "[m]("+srv.URL+"/missing) was not attached: fetching it failed: HTTP 404 Not Found" {
		t.Errorf("404 = %+v", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	got := Attach(ctx, pol, "s", srv.URL+"/slow", o)
	if !strings.Contains(got.Note, "was not attached: fetching it failed: ") || !strings.Contains(got.Note, "context canceled") || time.Since(start) > 5*time.Second {
		t.Errorf("cancelled fetch = %+v after %s", got, time.Since(start))
	}
}
