package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/driver"

	"github.com/goose-acp/goose-acp/core/session"
)

// Options configure Open. The zero value is usable.
type Options struct {
	// Now is the clock for ids and timestamps; default time.Now.
	Now func() time.Time
	// Logger receives warnings about unreadable rows; default discards.
	Logger *slog.Logger
	// MaxOpenConns caps pooled connections (each is a sandboxed SQLite);
	// default 4.
	MaxOpenConns int
}

// Store is the sessions.db session.Store. It is safe for concurrent use,
// also by several processes sharing the file.
type Store struct {
	db *sql.DB
	// stmts keeps the store's statements prepared (stmtcache.go).
	stmts *stmtCache
	now   func() time.Time
	log   *slog.Logger
	// cols is sessionColumns for this file (with or without thread_id).
	cols string
	// revs counts each session's message writes (revision.go).
	revs session.Revisions
	// maxConns is the pool's size (releaseMemory restores it).
	maxConns int
	// writing is held by this process's write transaction (one slot).
	writing chan struct{}
}

var _ session.Store = (*Store)(nil)

// foldFunc is the SQL name of session.FoldText, registered on every
// connection so that SQL search folds case exactly as Go does.
const foldFunc = "goose_acp_fold"

// Open opens (creating if needed) the sessions.db at path, creating the
// schema or migrating it to v17. goose keeps it at <data>/sessions/sessions.db.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.MaxOpenConns <= 0 {
		opts.MaxOpenConns = 4
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("sessions db %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, fmt.Errorf("sessions db %s: %w", abs, err)
	}
	if err := ownerOnly(filepath.Dir(abs)); err != nil {
		// goose would stop here; a directory someone else owns is still usable.
		opts.Logger.Warn("could not make the sessions directory owner-only", "dir", filepath.Dir(abs), "err", err)
	}
	db, err := openDB(dsn(abs))
	if err != nil {
		return nil, fmt.Errorf("open sessions db %s: %w", abs, err)
	}
	db.SetMaxOpenConns(opts.MaxOpenConns)
	db.SetMaxIdleConns(opts.MaxOpenConns)
	writing := make(chan struct{}, 1)
	s := &Store{db: db, stmts: newStmtCache(db, writing), now: opts.Now, log: opts.Logger, maxConns: opts.MaxOpenConns, writing: writing}
	created, err := s.initSchema(ctx, abs)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open sessions db %s: %w", abs, err)
	}
	if created {
		// goose imports its pre-1.10 *.jsonl sessions once, when it
		// creates sessions.db beside them.
		s.importLegacy(ctx, filepath.Dir(abs))
	}
	// A new session's INSERT is the statement an editor's first request
	// after the open most likely runs: compiled here (34 µs warm in the
	// sandboxed SQLite, more in a fresh process), not in its session/new.
	if err := s.stmts.prepareNow(ctx, insertSessionSQL); err != nil {
		s.Close()
		return nil, fmt.Errorf("open sessions db %s: %w", abs, err)
	}
	return s, nil
}

// dsn builds the SQLite URI: WAL, goose's 30 s busy timeout, foreign keys on
// (sqlx's default, so goose has them), BEGIN IMMEDIATE for every
// transaction. synchronous=NORMAL keeps WAL commits safe against process
// crashes (only power loss can drop the newest commits) and saves an fsync
// per append. cache_size bounds each connection's page cache to 512 KiB
// (SQLite's default is 2 MB): every pooled connection is a sandboxed SQLite
// whose memory only grows, a long conversation's rows (8 MB for 8,000
// messages) stream past any cache this size once per load, and the
// index and session pages the other queries touch fit in 512 KiB. The
// OS page cache still holds the file. (Measured: 4-5 MiB less RSS after
// an 8,000-message session's resume and prompt, same times.)
func dsn(abs string) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // Windows drive paths: file:///C:/…
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(30000)")
	q.Add("_pragma", "journal_mode(wal)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(normal)")
	q.Add("_pragma", "cache_size(-512)")
	q.Set("_txlock", "immediate")
	u := url.URL{Scheme: "file", Path: p, RawQuery: q.Encode()}
	return u.String()
}

func registerFunctions(c *sqlite3.Conn) error {
	return c.CreateFunction(foldFunc, 1, sqlite3.DETERMINISTIC|sqlite3.INNOCUOUS,
		func(ctx sqlite3.Context, args ...sqlite3.Value) {
			if args[0].Type() == sqlite3.NULL {
				ctx.ResultNull()
				return
			}
			ctx.ResultText(session.FoldText(args[0].Text()))
		})
}

// initSchema creates or migrates the schema and reports whether the file
// was new. A schema newer than SchemaVersion is refused (ErrSchemaTooNew)
// and left as it is. A file already up to date is only read
// (openCurrent).
func (s *Store) initSchema(ctx context.Context, abs string) (bool, error) {
	if s.openCurrent(ctx, abs) {
		return false, nil
	}
	var created bool
	err := s.write(ctx, func(tx dbq) error {
		_, fresh, err := ensureSchema(ctx, tx.tx, s.stamp())
		if err != nil {
			return err
		}
		created = fresh
		if _, err := tx.tx.ExecContext(ctx, idFloorDDL); err != nil {
			return fmt.Errorf("create %s: %w", idFloorTable, err)
		}
		if err := startWAL(ctx, tx.tx); err != nil {
			return err
		}
		return s.readColumns(ctx, tx)
	})
	return created, err
}

// startWAL writes the database header's user_version back unchanged
// (goose does not use it), so this open's transaction writes a WAL frame.
// A write-ahead log that a checkpoint emptied starts over with its first
// frame, and SQLite syncs its new header then (fdatasync, 0.2-1 ms here).
// Done here, beside the editor's initialize, that sync is not the first
// session/new's: without it, the new session's commit paid it.
func startWAL(ctx context.Context, tx *sql.Tx) error {
	var v int64
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return fmt.Errorf("read user_version: %w", err)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v)); err != nil {
		return fmt.Errorf("write user_version: %w", err)
	}
	return nil
}

// readColumns fills cols: thread_id exists only in files that went through
// migration 10 (goose's v17 create_schema has none).
func (s *Store) readColumns(ctx context.Context, q querier) error {
	thread, err := hasColumn(ctx, q, "sessions", "thread_id")
	if err != nil {
		return err
	}
	s.setColumns(thread)
	return nil
}

// setColumns fills cols for a sessions table with or without thread_id.
func (s *Store) setColumns(thread bool) {
	col := "NULL"
	if thread {
		col = "s.thread_id"
	}
	s.cols = fmt.Sprintf(sessionColumns, col)
}

// SetLogger replaces Options.Logger; call it before the store is shared
// (a store opened before the process's logger existed).
func (s *Store) SetLogger(l *slog.Logger) {
	if l != nil {
		s.log = l
	}
}

// Close closes the database, leaving a one-frame write-ahead log for the
// next process (keepShortWAL).
func (s *Store) Close() error {
	err := s.stmts.close()
	s.keepShortWAL()
	return errors.Join(err, s.db.Close())
}

// keepShortWAL leaves the write-ahead log holding one frame when this
// process closes the database, so that the next process's first write
// appends to it. Without it SQLite deletes the log at the last close, and
// the next process's first write starts a new one, whose header it syncs
// first (fdatasync: 0.2 ms on an idle disk, 2-5 ms on this shared
// machine's), and an editor's first session/new waited for that sync.
// Here: a checkpoint that waits for nobody (PASSIVE), then user_version
// written back unchanged, which, with the log fully checkpointed and no
// reader in it, starts the log over with that one frame (its header
// synced now, as the process ends); the log is kept (FCNTL_PERSIST_WAL
// on the connection that closes last) and SQLite's own close checkpoints that frame, so
// the next open recovers a 4 KiB log. With a reader or writer in another
// process nothing waits: busy_timeout is 0 here and a busy step is
// skipped (the log then stays as long as it is, as after a crash). goose
// opens such a log as any other.
//
// The log is kept by the connection that closes last, this one: the
// pool's other connections close first (SetMaxIdleConns(0)), and only
// this one is told to keep the log. With every connection keeping it for
// the whole process, a 31 MB prompt's compaction grew SQLite's memory by
// the row once more (e2e BenchmarkLargePromptRSS 2.1x -> 3.1x).
func (s *Store) keepShortWAL() {
	ctx := context.Background()
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return
	}
	s.db.SetMaxIdleConns(0) // the others close now; this one, last, when released
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		c, ok := dc.(driver.Conn)
		if !ok {
			return fmt.Errorf("sessions db: connection %T has no SQLite handle", dc)
		}
		_, err := c.Raw().FileControl("main", sqlite3.FCNTL_PERSIST_WAL, true)
		return err
	})
	if err != nil {
		return
	}
	// No waiting; and the restarted log is cut to its one frame.
	if _, err := conn.ExecContext(ctx, "PRAGMA busy_timeout = 0"); err != nil {
		return
	}
	if _, err := conn.ExecContext(ctx, "PRAGMA journal_size_limit = 0"); err != nil {
		return
	}
	if _, err := conn.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)"); err != nil {
		return
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return
	}
	if err := startWAL(ctx, tx); err != nil {
		_ = tx.Rollback()
		return
	}
	_ = tx.Commit()
	// SQLite's last close would cut the log to this size too (to nothing).
	_, _ = conn.ExecContext(ctx, "PRAGMA journal_size_limit = -1")
}

// reader runs statements on the database (outside any transaction),
// after awaitWriter.
func (s *Store) reader(ctx context.Context) dbq {
	s.awaitWriter(ctx)
	return dbq{c: s.stmts}
}

// stamp is the current time in sessions.db's text form.
func (s *Store) stamp() string { return session.FormatTimestamp(s.now()) }

// write runs fn in a BEGIN IMMEDIATE transaction (the DSN's _txlock) and
// commits it when fn succeeds.
func (s *Store) write(ctx context.Context, fn func(tx dbq) error) error {
	if err := s.lockWrite(ctx); err != nil {
		return err
	}
	defer s.unlockWrite()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(dbq{c: s.stmts, tx: tx}); err != nil {
		return errors.Join(err, ignoreDone(tx.Rollback()))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

func ignoreDone(err error) error {
	if errors.Is(err, sql.ErrTxDone) {
		return nil
	}
	return err
}

// querier is what read helpers need; *sql.DB and *sql.Tx both have it.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// ownerOnly makes the database's directory owner-only on unix, as goose
// 1.54 does on every open (conversations are private).
func ownerOnly(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	return os.Chmod(dir, 0o700)
}

func notFound(id string) error { return fmt.Errorf("%w: %s", session.ErrNotFound, id) }
