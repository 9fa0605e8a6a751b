package earlystore

import (
	"context"
	"log/slog"
	"os"
	"sync"

	"github.com/goose-acp/goose-acp/core/session/sqlite"
	"github.com/goose-acp/goose-acp/internal/deepstack"
)

// Store is an existing sessions.db opening in the background from the
// start of an ACP process. The open (a sandboxed SQLite's first
// connection and the schema check; for a file not up to date, a write
// and, without a kept write-ahead log, its first frame's sync) takes 1-4
// ms of a fresh process; started when the editor's
// initialize arrived, an editor's first session/new, sent as soon as
// initialize is answered, waited for most of it. Started before the
// process builds its logger and reads its configuration, it is mostly
// done before the editor asks. A database that does not exist yet is
// still created only when the editor's initialize arrives: an editor that
// connects and leaves creates nothing.
type Store struct {
	path string
	done chan struct{}
	// logs holds what the open logged before the process's logger
	// existed; the store logs to that logger once it is handed over.
	logs *heldLogs

	store *sqlite.Store
	err   error
	// warmed is closed once the open's store has warmed a first turn's
	// statements (sqlite.Store.Warm), or the open failed, or the store was
	// closed unused.
	warmed chan struct{}
	// answered is closed by SessionAnswered, unused by CloseUnused: the
	// warming waits for one of them.
	answered, unused         chan struct{}
	answeredOnce, unusedOnce sync.Once

	mu    sync.Mutex
	log   *slog.Logger
	taken bool
}

// Start starts opening the sessions.db at path when it already exists;
// nil otherwise.
func Start(ctx context.Context, path string) *Store {
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	e := newStore(path)
	open := openStore
	go func() {
		deepstack.Reserve() // the open runs SQLite: one stack copy, not four
		defer close(e.warmed)
		st, err := open(ctx, path, sqlite.Options{Logger: slog.New(e.logs)})
		e.store, e.err = st, err
		close(e.done)
		if err == nil {
			e.warmWhenAnswered(st)
		}
	}()
	return e
}

// openStore is sqlite.Open; tests hold an open back with it.
var openStore = sqlite.Open

func newStore(path string) *Store {
	return &Store{path: path, done: make(chan struct{}), warmed: make(chan struct{}), logs: newHeldLogs(),
		answered: make(chan struct{}), unused: make(chan struct{})}
}

// warmWhenAnswered has the store warm a first turn's statements
// (sqlite.Store.Warm) once the editor has its first session's answer
// (SessionAnswered): beside the first prompt, which runs them, while the
// editor reads that answer and sends its prompt. Started when the new
// session's INSERT committed, the warming's ~1.5 ms of CPU ran beside
// session/new's answer on a two-core machine (30 alternating fresh
// processes, two sets: session/new 3.46 → 3.17 and 4.37 → 3.42 ms with
// it after the answer; first prompt 5.33 → 5.33 and 5.18 → 5.95). A store
// closed unused never warms.
func (e *Store) warmWhenAnswered(st *sqlite.Store) {
	select {
	case <-e.answered:
		<-st.Warm()
	case <-e.unused:
	}
}

// SessionAnswered tells the store the editor has its first session/new,
// session/load or session/resume answer: the warming starts (once).
func (e *Store) SessionAnswered() {
	if e == nil {
		return
	}
	e.answeredOnce.Do(func() { close(e.answered) })
}

// Done is closed once the open, and the warming that follows the first
// session's answer, has finished (at once for a nil Store).
func (e *Store) Done() <-chan struct{} {
	if e == nil {
		return closed
	}
	return e.warmed
}

var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// LogTo is the process's logger, once built: the open's records go to it.
func (e *Store) LogTo(log *slog.Logger) {
	if e == nil {
		return
	}
	e.mu.Lock()
	e.log = log
	e.mu.Unlock()
}

// Take waits for the early open of path and hands over its store (or its
// error); nil, nil when there is none for path.
func (e *Store) Take(path string) (*sqlite.Store, error) {
	if e == nil || e.path != path {
		return nil, nil
	}
	<-e.done
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.taken {
		return nil, nil
	}
	e.taken = true
	e.handOverLogs()
	return e.store, e.err
}

// CloseUnused waits for the early open and closes its store if nobody
// took it (the editor left before asking for a session).
func (e *Store) CloseUnused() {
	if e == nil {
		return
	}
	<-e.done
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.taken {
		return
	}
	e.taken = true
	e.handOverLogs()
	e.unusedOnce.Do(func() { close(e.unused) })
	if e.store != nil {
		_ = e.store.Close()
	}
}

// handOverLogs replays the open's records to the process's logger and
// makes it the store's (e.mu held, the open done).
func (e *Store) handOverLogs() {
	if e.log == nil {
		return
	}
	e.logs.replay(e.log)
	if e.store != nil {
		e.store.SetLogger(e.log)
	}
}

// heldLogs is a slog.Handler that keeps records until replay.
type heldLogs struct {
	held  *heldRecords
	attrs []slog.Attr
}

type heldRecords struct {
	mu   sync.Mutex
	recs []slog.Record
}

func newHeldLogs() *heldLogs { return &heldLogs{held: &heldRecords{}} }

func (h *heldLogs) Enabled(context.Context, slog.Level) bool { return true }

func (h *heldLogs) Handle(_ context.Context, r slog.Record) error {
	r = r.Clone()
	r.AddAttrs(h.attrs...)
	h.held.mu.Lock()
	defer h.held.mu.Unlock()
	h.held.recs = append(h.held.recs, r)
	return nil
}

func (h *heldLogs) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &heldLogs{held: h.held, attrs: append(append([]slog.Attr{}, h.attrs...), attrs...)}
}

func (h *heldLogs) WithGroup(string) slog.Handler { return h }

// replay sends the held records to log's handler, once.
func (h *heldLogs) replay(log *slog.Logger) {
	h.held.mu.Lock()
	recs := h.held.recs
	h.held.recs = nil
	h.held.mu.Unlock()
	ctx := context.Background()
	for _, r := range recs {
		if log.Handler().Enabled(ctx, r.Level) {
			_ = log.Handler().Handle(ctx, r)
		}
	}
}
