//go:build !windows

package extension

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/config"
)

// newShared returns a registry closed when the test ends (after the
// managers, whose cleanups run first).
func newShared(t *testing.T) *Shared {
	t.Helper()
	s := NewShared()
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// sharedStdio is the test server under name, logging its spawns to log.
func sharedStdio(name, log string) config.ExtensionConfig {
	cfg := stdioConfig(name)
	cfg.Envs[spawnLogEnv] = log
	return cfg
}

// spawns lists the pids of the test servers started with log.
func spawns(t *testing.T, log string) []string {
	t.Helper()
	b, err := os.ReadFile(log)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}

func callText(t *testing.T, m *Manager, callID, tool string, args map[string]any) string {
	t.Helper()
	res, err := m.Call(context.Background(), callID, tool, args)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if res.IsError || len(res.Content) == 0 {
		t.Fatalf("%s: %+v", tool, res)
	}
	return res.Content[0].Text
}

func pidOf(t *testing.T, m *Manager, key string) int {
	t.Helper()
	pid, err := strconv.Atoi(callText(t, m, "pid", key+"__pid", nil))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

func waitGone(t *testing.T, pid int) {
	t.Helper()
	waitFor(t, func() bool { return !alive(pid) })
}

func (r *recorder) notesOf(method string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, s := range r.notes {
		if strings.Contains(s, " "+method+" ") {
			out = append(out, s)
		}
	}
	return out
}

func TestSharedStdioOneProcess(t *testing.T) {
	s := newShared(t)
	wd, log := t.TempDir(), filepath.Join(t.TempDir(), "spawns")
	rec1, rec2 := &recorder{}, &recorder{}
	m1 := newManager(t, Options{Shared: s, WorkingDir: wd, Hooks: rec1.hooks(), SessionID: "s1"})
	m2 := newManager(t, Options{Shared: s, WorkingDir: wd, Hooks: rec2.hooks(), SessionID: "s2"})
	// Added at the same time under different names: the second joins the
	// first's connect.
	var wg sync.WaitGroup
	errs := make([]error, 2)
	wg.Go(func() { errs[0] = m1.Add(context.Background(), sharedStdio("srv", log)) })
	wg.Go(func() { errs[1] = m2.Add(context.Background(), sharedStdio("Other Name", log)) })
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if got := spawns(t, log); len(got) != 1 || s.Len() != 1 {
		t.Fatalf("spawned %v, %d connections", got, s.Len())
	}
	pid := pidOf(t, m1, "srv")
	if pid2 := pidOf(t, m2, "othername"); pid2 != pid || strconv.Itoa(pid) != spawns(t, log)[0] {
		t.Fatalf("pids %d and %d, spawned %v", pid, pid2, spawns(t, log))
	}
	// Each session keeps its own names and _meta.
	if got := callText(t, m2, "c2", "othername__meta", nil); got != `{"auth":"","cid":"c2","progress":"c2","sid":"s2","wd":"`+wd+`"}` {
		t.Fatalf("meta = %s", got)
	}
	if toolNames(m1.Tools(context.Background()))[:5] != "srv__" || toolNames(m2.Tools(context.Background()))[:11] != "othername__" {
		t.Fatal("tool names not per manager")
	}

	// Concurrent calls with the same call id from both sessions: pair
	// returns only once both run, and each call's progress reaches only
	// its own session.
	tokens := make([]string, 2)
	wg.Go(func() { tokens[0] = callText(t, m1, "same", "srv__pair", nil) })
	wg.Go(func() { tokens[1] = callText(t, m2, "same", "othername__pair", nil) })
	wg.Wait()
	if tokens[0] == tokens[1] || !slices.Contains(tokens, "same") {
		t.Fatalf("progress tokens %q", tokens)
	}
	waitFor(t, func() bool {
		return len(rec1.notesOf("notifications/progress")) == 1 && len(rec2.notesOf("notifications/progress")) == 1
	})
	for i, rec := range []*recorder{rec1, rec2} {
		n := rec.notesOf("notifications/progress")[0]
		if !strings.HasPrefix(n, "same notifications/progress ") || !strings.Contains(n, `"progressToken":"`+tokens[i]+`"`) {
			t.Errorf("session %d got %s", i+1, n)
		}
	}
	// A progress notification of one session's call stays there.
	callText(t, m1, "only-m1", "srv__notify", nil)
	waitFor(t, func() bool { return len(rec1.notesOf("notifications/progress")) == 2 })
	time.Sleep(50 * time.Millisecond)
	if n := rec2.notesOf("notifications/progress"); len(n) != 1 {
		t.Fatalf("session 2 got %q", n)
	}
	if n := rec1.notesOf("notifications/progress")[1]; !strings.HasPrefix(n, "only-m1 ") {
		t.Fatalf("session 1 got %s", n)
	}

	// tools/list_changed reaches both sessions.
	v1, v2 := m1.Version(), m2.Version()
	callText(t, m1, "g", "srv__grow", nil)
	waitFor(t, func() bool { return m1.Version() > v1 && m2.Version() > v2 })
	if !strings.Contains(toolNames(m1.Tools(context.Background())), "srv__grown") || !strings.Contains(toolNames(m2.Tools(context.Background())), "othername__grown") {
		t.Fatal("the new tool is missing")
	}

	// Closing one session keeps the process for the other.
	if err := m1.Close(); err != nil {
		t.Fatal(err)
	}
	if got := pidOf(t, m2, "othername"); got != pid || !alive(pid) {
		t.Fatalf("pid %d after the first close, want %d", got, pid)
	}
	if err := m2.Remove("Other Name"); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid)
	if s.Len() != 0 || len(spawns(t, log)) != 1 {
		t.Fatalf("%d connections, spawned %v", s.Len(), spawns(t, log))
	}
}

func TestSharedKeyIsTheResolvedConnection(t *testing.T) {
	s := newShared(t)
	wd1, wd2, log := t.TempDir(), t.TempDir(), filepath.Join(t.TempDir(), "spawns")
	secret := func(v string) func(string) (string, bool) {
		return func(k string) (string, bool) { return v, k == "TOKEN" }
	}
	withEnv := sharedStdio("a", log)
	withEnv.Envs["TOKEN"] = "v"
	withKey := sharedStdio("b", log)
	withKey.EnvKeys = []string{"TOKEN"}
	cases := []struct {
		name string
		opts Options
		cfg  config.ExtensionConfig
	}{
		{"base", Options{WorkingDir: wd1}, withEnv},
		{"same env through env_keys", Options{WorkingDir: wd1, Secret: secret("v")}, withKey},
		{"other working dir", Options{WorkingDir: wd2}, withEnv},
		{"other secret", Options{WorkingDir: wd1, Secret: secret("w")}, withKey},
		{"other timeout", Options{WorkingDir: wd1, Secret: secret("v")}, func() config.ExtensionConfig {
			c := withKey
			c.Timeout = new(int64)
			*c.Timeout = 60
			return c
		}()},
	}
	pids := map[string]int{}
	for _, c := range cases {
		c.opts.Shared = s
		m := newManager(t, c.opts)
		if err := m.Add(context.Background(), c.cfg); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		pids[c.name] = pidOf(t, m, Normalize(c.cfg.Name))
	}
	if pids["same env through env_keys"] != pids["base"] {
		t.Errorf("equal resolved env did not share: %v", pids)
	}
	distinct := map[int]bool{}
	for _, p := range pids {
		distinct[p] = true
	}
	if len(distinct) != 4 || len(spawns(t, log)) != 4 || s.Len() != 4 {
		t.Fatalf("pids %v, spawned %v, %d connections", pids, spawns(t, log), s.Len())
	}
}

func TestWithoutSharedEveryManagerSpawns(t *testing.T) {
	log := filepath.Join(t.TempDir(), "spawns")
	wd := t.TempDir()
	m1 := newManager(t, Options{WorkingDir: wd})
	m2 := newManager(t, Options{WorkingDir: wd})
	for _, m := range []*Manager{m1, m2} {
		if err := m.Add(context.Background(), sharedStdio("srv", log)); err != nil {
			t.Fatal(err)
		}
	}
	p1, p2 := pidOf(t, m1, "srv"), pidOf(t, m2, "srv")
	if p1 == p2 || len(spawns(t, log)) != 2 {
		t.Fatalf("pids %d %d, spawned %v", p1, p2, spawns(t, log))
	}
	_ = m1.Close()
	waitGone(t, p1)
	if got := pidOf(t, m2, "srv"); got != p2 {
		t.Fatalf("pid %d, want %d", got, p2)
	}
}

func TestSharedReconnectsAfterTheProcessDied(t *testing.T) {
	s := newShared(t)
	log := filepath.Join(t.TempDir(), "spawns")
	m1 := newManager(t, Options{Shared: s})
	if err := m1.Add(context.Background(), sharedStdio("srv", log)); err != nil {
		t.Fatal(err)
	}
	pid := pidOf(t, m1, "srv")
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// The session watcher notices the end of the child's stdout.
	waitFor(t, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		for c := range s.all {
			if !c.dead.Load() {
				return false
			}
		}
		return true
	})
	if _, err := m1.Call(context.Background(), "c", "srv__pid", nil); err == nil {
		t.Fatal("a call to the dead server succeeded")
	}
	m2 := newManager(t, Options{Shared: s})
	if err := m2.Add(context.Background(), sharedStdio("srv", log)); err != nil {
		t.Fatal(err)
	}
	if got := pidOf(t, m2, "srv"); got == pid || len(spawns(t, log)) != 2 {
		t.Fatalf("pid %d (dead one %d), spawned %v", got, pid, spawns(t, log))
	}
	// The dead connection is gone once its last session lets go.
	_ = m1.Close()
	if s.Len() != 1 {
		t.Fatalf("%d connections", s.Len())
	}
}

func TestSharedFailedConnectIsNotCached(t *testing.T) {
	s := newShared(t)
	dir := t.TempDir()
	log, fail := filepath.Join(dir, "spawns"), filepath.Join(dir, "fail")
	if err := os.WriteFile(fail, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := sharedStdio("srv", log)
	cfg.Envs[failIfEnv] = fail
	m1 := newManager(t, Options{Shared: s})
	if err := m1.Add(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "failing on purpose") {
		t.Fatalf("err = %v", err)
	}
	if s.Len() != 0 {
		t.Fatalf("%d connections after a failed connect", s.Len())
	}
	if err := os.Remove(fail); err != nil {
		t.Fatal(err)
	}
	m2 := newManager(t, Options{Shared: s})
	if err := m2.Add(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if got := spawns(t, log); len(got) != 2 {
		t.Fatalf("spawned %v", got)
	}
}

// The connect belongs to every session waiting for it: the first giving
// up neither fails the other nor spawns a second process.
func TestSharedConnectOutlivesItsFirstCaller(t *testing.T) {
	s := newShared(t)
	log := filepath.Join(t.TempDir(), "spawns")
	cfg := sharedStdio("srv", log)
	cfg.Envs[delayEnv] = "1s"
	m1 := newManager(t, Options{Shared: s})
	m2 := newManager(t, Options{Shared: s})
	ctx, cancel := context.WithTimeout(context.Background(), 400*time.Millisecond)
	defer cancel()
	var wg sync.WaitGroup
	var err1, err2 error
	wg.Go(func() { err1 = m1.Add(ctx, cfg) })
	time.Sleep(20 * time.Millisecond)
	wg.Go(func() { err2 = m2.Add(context.Background(), cfg) })
	wg.Wait()
	if !errors.Is(err1, context.DeadlineExceeded) || err2 != nil {
		t.Fatalf("errors %v, %v", err1, err2)
	}
	if m1.Has("srv") || !m2.Has("srv") || len(spawns(t, log)) != 1 {
		t.Fatalf("spawned %v", spawns(t, log))
	}
	pid := pidOf(t, m2, "srv")
	_ = m2.Close()
	waitGone(t, pid)
}

func TestSharedElicitationAndSamplingReachTheCallingSession(t *testing.T) {
	s := newShared(t)
	log := filepath.Join(t.TempDir(), "spawns")
	recs := []*recorder{{}, {}}
	var ms []*Manager
	for i, rec := range recs {
		h := rec.hooks()
		h.Sample = func(_ context.Context, ext string, _ *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Content: &mcp.TextContent{Text: fmt.Sprintf("sampled by session %d for %s", i+1, ext)}, Model: "m", Role: "assistant"}, nil
		}
		m := newManager(t, Options{Shared: s, Hooks: h})
		if err := m.Add(context.Background(), sharedStdio(fmt.Sprintf("srv%d", i+1), log)); err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	if len(spawns(t, log)) != 1 {
		t.Fatalf("spawned %v", spawns(t, log))
	}
	// By the call id in _meta.
	if got := callText(t, ms[1], "e2", "srv2__ask", map[string]any{"meta": true}); got != `accept {"check":true,"name":"Ada Lovelace"}` {
		t.Fatalf("ask = %s", got)
	}
	// By the only call running.
	if got := callText(t, ms[0], "e1", "srv1__ask", nil); !strings.HasPrefix(got, "accept ") {
		t.Fatalf("ask = %s", got)
	}
	for i, want := range []string{"e1", "e2"} {
		recs[i].mu.Lock()
		got := recs[i].elicit
		recs[i].mu.Unlock()
		if len(got) != 1 || got[0].CallID != want || got[0].Extension != fmt.Sprintf("srv%d", i+1) || got[0].Message != "Your name?" {
			t.Fatalf("session %d elicitations %+v", i+1, got)
		}
	}
	// Two sessions' calls running and nothing naming either: nobody is asked.
	results := make([]string, 2)
	var wg sync.WaitGroup
	for i, m := range ms {
		wg.Go(func() {
			results[i] = callText(t, m, fmt.Sprint("p", i), fmt.Sprintf("srv%d__ask", i+1), map[string]any{"pair": true})
		})
	}
	wg.Wait()
	for _, r := range results {
		if !strings.Contains(r, "elicit failed") || !strings.Contains(r, ErrElicitationUnavailable.Error()) {
			t.Fatalf("ask = %s", r)
		}
	}
	for i := range ms {
		if got := callText(t, ms[i], "x", fmt.Sprintf("srv%d__sample", i+1), nil); got != fmt.Sprintf("sampled by session %d for srv%d", i+1, i+1) {
			t.Fatalf("sample = %s", got)
		}
	}
}

// sessionCounter wraps a streamable HTTP or SSE handler serving server,
// counting the client sessions opened: streamable POSTs without a session
// id (initialize) or SSE GETs.
type sessionCounter struct {
	mu     sync.Mutex
	opened int
	server *mcp.Server
	h      http.Handler
}

func newSessionCounter(sse bool) *sessionCounter {
	c := &sessionCounter{server: testServer()}
	get := func(*http.Request) *mcp.Server { return c.server }
	if sse {
		c.h = mcp.NewSSEHandler(get, nil)
	} else {
		c.h = mcp.NewStreamableHTTPHandler(get, nil)
	}
	return c
}

func (c *sessionCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if (r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" && r.URL.Query().Get("sessionid") == "") ||
		(r.Method == http.MethodGet && r.Header.Get("Mcp-Session-Id") == "") {
		c.mu.Lock()
		c.opened++
		c.mu.Unlock()
	}
	c.h.ServeHTTP(w, r)
}

func (c *sessionCounter) counts() (opened, open int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for range c.server.Sessions() {
		open++
	}
	return c.opened, open
}

func TestSharedHTTP(t *testing.T) {
	web := newSessionCounter(false)
	srv := httptest.NewServer(web)
	t.Cleanup(srv.Close)
	legacy := newSessionCounter(true)
	sse := httptest.NewServer(legacy)
	t.Cleanup(sse.Close)
	s := newShared(t)
	getenv := func(k string) string { return map[string]string{"HOME_TOKEN": "env-tok"}[k] }
	webCfg := config.ExtensionConfig{Type: config.ExtensionStreamableHTTP, Name: "web", URI: srv.URL, Envs: map[string]string{"TOKEN": "abc"}, Headers: map[string]string{"Authorization": "Bearer ${TOKEN}/$HOME_TOKEN"}}
	sseCfg := config.ExtensionConfig{Type: config.ExtensionSSE, Name: "legacy", URI: sse.URL}
	recs := []*recorder{{}, {}}
	var ms []*Manager
	for _, rec := range recs {
		m := newManager(t, Options{Shared: s, Getenv: getenv, Hooks: rec.hooks()})
		for _, r := range m.AddAll(context.Background(), []config.ExtensionConfig{webCfg, sseCfg}) {
			if !r.Success {
				t.Fatalf("%s: %s", r.Name, r.Error)
			}
		}
		ms = append(ms, m)
	}
	if opened, open := web.counts(); opened != 1 || open != 1 {
		t.Fatalf("streamable sessions opened %d, open %d", opened, open)
	}
	if opened, _ := legacy.counts(); opened != 1 {
		t.Fatalf("sse sessions opened %d", opened)
	}
	for _, m := range ms {
		if got := callText(t, m, "c", "web__meta", nil); !strings.Contains(got, `"auth":"Bearer abc/env-tok"`) {
			t.Fatalf("meta = %s", got)
		}
		if got := callText(t, m, "c", "legacy__echo", map[string]any{"a": 1}); got != `echo:{"a":1}` {
			t.Fatalf("echo = %s", got)
		}
	}
	callText(t, ms[1], "n2", "web__notify", nil)
	waitFor(t, func() bool { return len(recs[1].notesOf("notifications/progress")) == 1 })
	time.Sleep(50 * time.Millisecond)
	if n := recs[0].notesOf("notifications/progress"); len(n) != 0 {
		t.Fatalf("session 1 got %q", n)
	}
	// Other resolved headers are another connection.
	other := newManager(t, Options{Shared: s, Getenv: func(string) string { return "other" }})
	if err := other.Add(context.Background(), webCfg); err != nil {
		t.Fatal(err)
	}
	if opened, open := web.counts(); opened != 2 || open != 2 {
		t.Fatalf("streamable sessions opened %d, open %d", opened, open)
	}
	_ = other.Close()
	_ = ms[0].Close()
	callText(t, ms[1], "c", "web__echo", nil)
	_ = ms[1].Close()
	waitFor(t, func() bool { _, open := web.counts(); return open == 0 })
	if s.Len() != 0 {
		t.Fatalf("%d connections", s.Len())
	}
}

func TestSharedClose(t *testing.T) {
	s := NewShared()
	log := filepath.Join(t.TempDir(), "spawns")
	m := newManager(t, Options{Shared: s})
	if err := m.Add(context.Background(), sharedStdio("srv", log)); err != nil {
		t.Fatal(err)
	}
	pid := pidOf(t, m, "srv")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid)
	err := newManager(t, Options{Shared: s}).Add(context.Background(), sharedStdio("srv", log))
	if !errors.Is(err, ErrClosed) {
		t.Fatalf("err = %v", err)
	}
	// Builtins are never shared and still connect.
	if err := m.Add(context.Background(), config.ExtensionConfig{Type: config.ExtensionBuiltin, Name: "t"}); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkStdioAdd measures a session's Add of a stdio extension that
// another session already runs: joining the shared connection, or
// spawning a process of its own.
func BenchmarkStdioAdd(b *testing.B) {
	for _, shared := range []bool{true, false} {
		b.Run(map[bool]string{true: "shared", false: "own"}[shared], func(b *testing.B) {
			var s *Shared
			if shared {
				s = NewShared()
				defer s.Close()
			}
			cfg := stdioConfig("srv")
			holder := New(Options{Shared: s})
			defer holder.Close()
			if err := holder.Add(context.Background(), cfg); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				m := New(Options{Shared: s})
				if err := m.Add(context.Background(), cfg); err != nil {
					b.Fatal(err)
				}
				_ = m.Close()
			}
		})
	}
}
