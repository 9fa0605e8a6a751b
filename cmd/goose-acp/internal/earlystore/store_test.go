package earlystore

import (
	"bytes"
	"log/slog"
	"testing"
)

// What the early open logs before the process has its logger reaches that
// logger when the store is handed over.
func TestEarlyOpenLogsReachTheLogger(t *testing.T) {
	h := newHeldLogs()
	slog.New(h).With("dir", "/d").Warn("could not make the sessions directory owner-only", "err", "denied")
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}}))
	e := &Store{logs: h, done: make(chan struct{}), path: "/x"}
	close(e.done)
	e.LogTo(log)
	if st, err := e.Take("/x"); st != nil || err != nil {
		t.Fatalf("take: %v %v", st, err)
	}
	want := "level=WARN msg=\"could not make the sessions directory owner-only\" err=denied dir=/d\n"
	if got := buf.String(); got != want {
		t.Fatalf("logged %q, want %q", got, want)
	}
	h.replay(log) // once
	if got := buf.String(); got != want {
		t.Fatalf("replayed twice: %q", got)
	}
}

func TestServesACPOnStdio(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{nil, true},
		{[]string{"acp"}, true},
		{[]string{"acp", "--with-builtin", "developer,todo"}, true},
		{[]string{"acp", "--with-builtin=todo"}, true},
		{[]string{"--log-level", "debug"}, true},
		{[]string{"--log-file=/tmp/x.log", "acp"}, true},
		{[]string{"--http", "127.0.0.1:3000"}, false},
		{[]string{"--log-level", "debug", "--http=127.0.0.1:3000"}, false},
		{[]string{"--log-level"}, false},
		{[]string{"--version"}, false},
		{[]string{"--help"}, false},
		{[]string{"serve"}, false},
		{[]string{"mcp", "developer"}, false},
		{[]string{"run", "-t", "hi"}, false},
		{[]string{"acp", "--help"}, false},
		{[]string{"-test.v", "-test.run=X"}, false},
		{[]string{"__proctree_supervisor"}, false},
	} {
		if got := servesACPOnStdio(tc.args); got != tc.want {
			t.Errorf("servesACPOnStdio(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}

// The open init started is handed over for its path only; another path
// closes it.
func TestAtStartIsForItsPathOnly(t *testing.T) {
	e := &Store{path: "/a", done: make(chan struct{}), logs: newHeldLogs()}
	close(e.done)
	atStart = e
	if got := AtStart("/b"); got != nil || atStart != nil || !e.taken {
		t.Fatalf("AtStart for another path: %v, left %v, closed %v", got, atStart, e.taken)
	}
	e2 := &Store{path: "/a", done: make(chan struct{}), logs: newHeldLogs()}
	atStart = e2
	if got := AtStart("/a"); got != e2 || atStart != nil {
		t.Fatalf("AtStart for its path: %v", got)
	}
}
