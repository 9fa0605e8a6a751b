package deeplink

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

type recorder struct {
	events []Event
	fail   bool
}

func (r *recorder) sink(ev Event) error {
	if r.fail {
		return errors.New("window gone: secret-token")
	}
	r.events = append(r.events, ev)
	return nil
}

func (r *recorder) names() string {
	var out []string
	for _, e := range r.events {
		s := string(e.Name)
		if e.Message != "" {
			s += ":" + e.Message
		} else if e.Result != nil && e.Result.Route == RouteSessions {
			s += ":" + e.Result.ShareToken
		}
		out = append(out, s)
	}
	return strings.Join(out, ",")
}

func TestNormalize(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "r.yaml")
	os.WriteFile(good, []byte("title: T\ndescription: D\nprompt: hi\n"), 0o644)
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("title: T\n"), 0o644)
	tests := []struct {
		name  string
		entry Entry
		args  []string
		want  string
		code  Code
	}{
		{"argv picks first goose link", EntryArgv, []string{"/app/Goose", "--flag", "goose://sessions/a", "goose://sessions/b"}, "goose://sessions/a", ""},
		{"argv scheme in any case", EntryArgv, []string{"/app/Goose", "--flag", "GOOSE://x", "goose://sessions/a"}, "GOOSE://x", ""},
		{"argv goose: without slashes", EntryArgv, []string{"/app/Goose", "goose:extension?name=x"}, "goose:extension?name=x", ""},
		{"argv none", EntryArgv, []string{"/app/Goose"}, "", CodeInvalidScheme},
		{"second instance", EntrySecondInstance, []string{"goose", "goose://bot?config=x"}, "goose://bot?config=x", ""},
		{"open-url", EntryOpenURL, []string{"goose://extension?name=x"}, "goose://extension?name=x", ""},
		{"open-url two", EntryOpenURL, []string{"a", "b"}, "", CodeParseFailed},
		{"open-file link", EntryOpenFile, []string{"goose://sessions/z"}, "goose://sessions/z", ""},
		{"open-file recipe", EntryOpenFile, []string{good}, "goose://recipe?config=eyJ2ZXJzaW9uIjoiMS4wLjAiLCJ0aXRsZSI6IlQiLCJkZXNjcmlwdGlvbiI6IkQiLCJwcm9tcHQiOiJoaSJ9", ""},
		{"open-file invalid recipe", EntryOpenFile, []string{bad}, "", CodeInvalidPayload},
		{"open-file missing", EntryOpenFile, []string{filepath.Join(dir, "nope.json")}, "", CodeParseFailed},
		{"open-file other", EntryOpenFile, []string{"/tmp/a.txt"}, "", CodeUnsupportedRoute},
		{"unknown entry", Entry("dock"), []string{"goose://x"}, "", CodeParseFailed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Normalize(tc.entry, tc.args, os.ReadFile)
			if tc.code != "" {
				if err == nil || err.Code != tc.code {
					t.Fatalf("err = %v, want %s", err, tc.code)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %q, %v", got, err)
			}
		})
	}
}

func TestRouterBuffersUntilReady(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1000, 0)}
	rec := &recorder{}
	r := NewRouter(RouterOptions{Sink: rec.sink, Now: clock.now})

	steps := []struct {
		entry Entry
		args  []string
		want  Status
	}{
		{EntryArgv, []string{"app", "goose://sessions/one"}, StatusBuffered},
		{EntryOpenURL, []string{"goose://extension?name=x&cmd=npx"}, StatusBuffered},
		{EntrySecondInstance, []string{"app", "goose://sessions/one"}, StatusDuplicate},
		{EntryOpenURL, []string{"goose://recipe?config=" + workedConfig}, StatusDispatched},
		{EntryOpenURL, []string{"goose://nope"}, StatusRejected},
	}
	for i, s := range steps {
		if _, st := r.Deliver(s.entry, s.args); st != s.want {
			t.Fatalf("step %d: status %s, want %s", i, st, s.want)
		}
	}
	if err := r.SetInitialMessage("hello"); err != nil {
		t.Fatal(err)
	}
	if got := rec.names(); got != "open-recipe" {
		t.Fatalf("before ready: %s", got)
	}
	if err := r.RendererReady(); err != nil {
		t.Fatal(err)
	}
	if got := rec.names(); got != "open-recipe,set-initial-message:hello,open-shared-session:one,add-extension" {
		t.Fatalf("after ready: %s", got)
	}
	if rec.events[3].Link != "goose://extension?name=x&cmd=npx" {
		t.Fatalf("add-extension payload = %q", rec.events[3].Link)
	}

	// Ready: dispatched at once; repeats within the window are dropped.
	clock.t = clock.t.Add(time.Second)
	if _, st := r.Deliver(EntryOpenURL, []string{"goose://sessions/one"}); st != StatusDuplicate {
		t.Fatalf("repeat status %s", st)
	}
	clock.t = clock.t.Add(11 * time.Second)
	if _, st := r.Deliver(EntryOpenURL, []string{"goose://sessions/one"}); st != StatusDispatched {
		t.Fatalf("after window status %s", st)
	}
	r.RendererGone()
	if _, st := r.Deliver(EntryOpenURL, []string{"goose://sessions/two"}); st != StatusBuffered {
		t.Fatalf("after gone status %s", st)
	}
}

func TestRouterPolicyFunc(t *testing.T) {
	rec := &recorder{}
	calls := 0
	r := NewRouter(RouterOptions{Sink: rec.sink, PolicyFunc: func() Policy {
		calls++
		return Policy{Allowlist: []string{"uvx ok"}}
	}})
	r.RendererReady()
	if res, st := r.Deliver(EntryOpenURL, []string{"goose://extension?name=a&cmd=uvx&arg=evil"}); st != StatusRejected || res.Outcome != ExtensionBlocked {
		t.Fatalf("got %s %s", st, res.Outcome)
	}
	if _, st := r.Deliver(EntryOpenURL, []string{"goose://extension?name=a&cmd=uvx&arg=ok"}); st != StatusDispatched {
		t.Fatalf("got %s", st)
	}
	r.Deliver(EntryOpenURL, []string{"goose://sessions/x"})
	if calls != 2 {
		t.Fatalf("policy consulted %d times, want 2 (extension links only)", calls)
	}
}

func TestRouterDispatchFailure(t *testing.T) {
	rec := &recorder{fail: true}
	r := NewRouter(RouterOptions{Sink: rec.sink})
	res, st := r.Deliver(EntryOpenURL, []string{"goose://recipe?config=" + workedConfig})
	if st != StatusRejected || res.Error == nil || res.Error.Code != CodeDispatchFailed || strings.Contains(res.Error.Message, "secret") {
		t.Fatalf("got %s %+v", st, res.Error)
	}
	r.Deliver(EntryOpenURL, []string{"goose://sessions/a"})
	err := r.RendererReady()
	var de *Error
	if !errors.As(err, &de) || de.Code != CodeDispatchFailed {
		t.Fatalf("ready err = %v", err)
	}
	// A failed dispatch is not remembered, so the link can be retried.
	rec.fail = false
	if _, st := r.Deliver(EntryOpenURL, []string{"goose://sessions/a"}); st != StatusDispatched {
		t.Fatalf("retry status %s", st)
	}
}

func TestLoadPolicy(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "allow.yaml")
	os.WriteFile(file, []byte("extensions:\n  - id: slack\n    command: uvx mcp_slack\n  - id: gh\n    command: npx -y @modelcontextprotocol/server-github\n"), 0o644)
	badFile := filepath.Join(dir, "bad.yaml")
	os.WriteFile(badFile, []byte("extensions: nope\n"), 0o644)
	fetch := func(ctx context.Context, url string) ([]byte, error) {
		if url == "https://corp.example/allow.yaml" {
			return []byte("extensions:\n  - command: docker run mcp\n"), nil
		}
		return nil, errors.New("404")
	}
	tests := []struct {
		name, source string
		want         []string
		wantErr      bool
	}{
		{"none", "", nil, false},
		{"file", file, []string{"uvx mcp_slack", "npx -y @modelcontextprotocol/server-github"}, false},
		{"https", "https://corp.example/allow.yaml", []string{"docker run mcp"}, false},
		{"https failure", "https://corp.example/missing", nil, true},
		{"http refused", "http://corp.example/allow.yaml", nil, true},
		{"bad structure", badFile, nil, true},
		{"missing file", filepath.Join(dir, "nope"), nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := LoadPolicy(context.Background(), tc.source, false, fetch, os.ReadFile)
			if (p.LoadErr != nil) != tc.wantErr || strings.Join(p.Allowlist, "|") != strings.Join(tc.want, "|") {
				t.Fatalf("got %+v", p)
			}
		})
	}
	if p := LoadPolicy(context.Background(), "http://x/a", false, fetch, os.ReadFile); !errors.Is(p.LoadErr, ErrAllowlistHTTPS) {
		t.Fatalf("http err = %v", p.LoadErr)
	}
}

// TestEveryEntryClassifiesAlike: one pipeline. The same link
// gets the same classification (and error code) from argv,
// second-instance, open-url and open-file, odd scheme spellings included.
func TestEveryEntryClassifiesAlike(t *testing.T) {
	links := []string{
		"goose://sessions/tok",
		"GOOSE://sessions/tok",
		"Goose://extension?name=x&cmd=npx",
		"goose:extension?name=x&cmd=npx",
		"goose:sessions/tok",
		"GOOSE://settings",
		"goose://sessions/?x=1",
		"goose://extension?name=x&cmd=npx.cmd&arg=--call=evil",
	}
	for _, link := range links {
		want := Parse(link, Policy{})
		for _, entry := range Entries {
			args := []string{link}
			if entry == EntryArgv || entry == EntrySecondInstance {
				args = []string{"/app/Goose", "--flag", link}
			}
			r := NewRouter(RouterOptions{Sink: func(Event) error { return nil }})
			got, _ := r.Deliver(entry, args)
			if got.OK != want.OK || got.Route != want.Route || got.Dispatch != want.Dispatch ||
				(got.Error == nil) != (want.Error == nil) || (got.Error != nil && got.Error.Code != want.Error.Code) {
				t.Errorf("%s via %s: got %+v (%v), want %+v (%v)", link, entry, got, got.Error, want, want.Error)
			}
		}
	}
}
