package sqlite

import (
	"context"
	"database/sql"
	sqldriver "database/sql/driver"
	"errors"

	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/driver"
)

// connector opens the pool's connections: go-sqlite3's, with the store's
// SQL functions registered, each wrapped in a txConn.
type connector struct {
	inner sqldriver.Connector
}

// openDB is the store's pool for the SQLite URI dsn.
func openDB(dsn string) (*sql.DB, error) {
	inner, err := (&driver.SQLite{}).OpenConnector(dsn)
	if err != nil {
		return nil, err
	}
	return sql.OpenDB(connector{inner}), nil
}

func (c connector) Driver() sqldriver.Driver { return c.inner.Driver() }

func (c connector) Connect(ctx context.Context) (sqldriver.Conn, error) {
	dc, err := c.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	conn, ok := dc.(driver.Conn)
	if !ok {
		_ = dc.Close()
		return nil, errors.New("sessions db: go-sqlite3 connection without its SQLite handle")
	}
	t := &txConn{Conn: conn}
	if err := t.open(); err != nil {
		_ = t.Close()
		return nil, err
	}
	return t, nil
}

// txConn is a pooled connection whose write transactions begin, commit
// and roll back with statements prepared when it opened. go-sqlite3's own
// run each as new SQL text, so every transaction went through SQLite's
// parser: a process's first turn, its statements prepared (Warm), still
// faulted the parser's code back in after the start-up pages' release
// (+0.3 MiB in a probe). Read-only and non-default transactions are
// go-sqlite3's.
type txConn struct {
	driver.Conn
	begin, commit, rollback *sqlite3.Stmt
	// inner is go-sqlite3's transaction when it began the current one.
	inner sqldriver.Tx
}

var (
	_ driver.Conn                  = (*txConn)(nil)
	_ sqldriver.ExecerContext      = (*txConn)(nil)
	_ sqldriver.NamedValueChecker  = (*txConn)(nil)
	_ sqldriver.ConnPrepareContext = (*txConn)(nil)
)

// open registers the store's functions and prepares the transaction
// statements (BEGIN IMMEDIATE: the DSN's _txlock).
func (c *txConn) open() error {
	raw := c.Raw()
	if err := registerFunctions(raw); err != nil {
		return err
	}
	for _, p := range []struct {
		st  **sqlite3.Stmt
		sql string
	}{{&c.begin, "BEGIN IMMEDIATE"}, {&c.commit, "COMMIT"}, {&c.rollback, "ROLLBACK"}} {
		st, _, err := raw.Prepare(p.sql)
		if err != nil {
			return err
		}
		*p.st = st
	}
	return nil
}

func (c *txConn) Begin() (sqldriver.Tx, error) {
	return c.BeginTx(context.Background(), sqldriver.TxOptions{})
}

func (c *txConn) BeginTx(ctx context.Context, opts sqldriver.TxOptions) (sqldriver.Tx, error) {
	if opts.ReadOnly || opts.Isolation != sqldriver.IsolationLevel(sql.LevelDefault) {
		tx, err := c.Conn.BeginTx(ctx, opts)
		if err != nil {
			return nil, err
		}
		c.inner = tx
		return c, nil
	}
	raw := c.Raw()
	if old := raw.SetInterrupt(ctx); old != ctx {
		defer raw.SetInterrupt(old)
	}
	if err := c.begin.Exec(); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *txConn) Commit() error {
	if tx := c.inner; tx != nil {
		c.inner = nil
		return tx.Commit()
	}
	err := c.commit.Exec()
	if err != nil && !c.Raw().GetAutocommit() {
		_ = c.Rollback()
	}
	return err
}

func (c *txConn) Rollback() error {
	if tx := c.inner; tx != nil {
		c.inner = nil
		return tx.Rollback()
	}
	raw := c.Raw()
	ctx := context.Background() // roll back even if interrupted
	if old := raw.SetInterrupt(ctx); old != ctx {
		defer raw.SetInterrupt(old)
	}
	return c.rollback.Exec()
}

func (c *txConn) ExecContext(ctx context.Context, query string, args []sqldriver.NamedValue) (sqldriver.Result, error) {
	return c.Conn.(sqldriver.ExecerContext).ExecContext(ctx, query, args)
}

func (c *txConn) CheckNamedValue(arg *sqldriver.NamedValue) error {
	return c.Conn.(sqldriver.NamedValueChecker).CheckNamedValue(arg)
}

// Close finalizes the transaction statements (SQLite keeps a connection
// with statements open) and closes the connection.
func (c *txConn) Close() error {
	var errs []error
	for _, st := range []*sqlite3.Stmt{c.begin, c.commit, c.rollback} {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	return errors.Join(append(errs, c.Conn.Close())...)
}
