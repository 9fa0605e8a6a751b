package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/core/session"
)

// insertSessionSQL computes goose's "YYYYMMDD_N" id inside the INSERT, so
// concurrent creators (in this or another process) never collide: N is one
// more than the highest N of that day, and than the highest N this store
// ever deleted that day (idFloorDDL; goose reuses a deleted newest id,
// goose#11654). The range on id (instead of goose's LIKE ?||'_%', which
// cannot use an index with a bound pattern) selects the same "YYYYMMDD_"
// prefix through the primary key. Only the id comes back (RETURNING): the
// rest of the new row is what the statement wrote and the columns'
// defaults (insertedRow), so Create reads nothing back. Returning every
// column made the statement three times as costly to prepare (87 → 34 µs
// warm; in a fresh process the prepare ends the early open that the
// editor's first session/new waits for) and to run.
const insertSessionSQL = `INSERT INTO sessions
	(id, name, user_set_name, session_type, working_dir, created_at, updated_at, extension_data, goose_mode,
	provider_name, model_config_json)
VALUES (
	?1 || '_' || CAST(MAX(COALESCE((
		SELECT MAX(CAST(SUBSTR(id, 10) AS INTEGER)) FROM sessions
		WHERE id >= ?1 || '_' AND id < ?1 || '` + "`" + `'
	), 0), COALESCE((SELECT last FROM ` + idFloorTable + ` WHERE day = ?1), 0)) + 1 AS TEXT),
	?2, FALSE, ?3, ?4, ?5, ?5, '{}', ?6, ?7, ?8)
RETURNING id`

// raiseIDFloorSQL records a deleted "YYYYMMDD_N" id's number as used.
const raiseIDFloorSQL = `INSERT INTO ` + idFloorTable + ` (day, last) VALUES (?, ?)
	ON CONFLICT(day) DO UPDATE SET last = MAX(last, excluded.last)`

// Create inserts a new session with the next id of the clock's UTC day,
// with its mode, provider and model when ns has them, in one statement
// and one commit; the row it returns is the one stored (RETURNING).
func (s *Store) Create(ctx context.Context, ns session.NewSession) (session.Session, error) {
	var out session.Session
	err := s.write(ctx, func(tx dbq) error {
		var err error
		out, err = s.insertSession(ctx, tx, s.now(), ns)
		return err
	})
	if err != nil {
		return session.Session{}, fmt.Errorf("create session: %w", err)
	}
	return out, nil
}

// insertSession inserts ns's row and returns it as stored.
func (s *Store) insertSession(ctx context.Context, q querier, now time.Time, ns session.NewSession) (session.Session, error) {
	typ := ns.SessionType
	if typ == "" {
		typ = session.TypeUser
	}
	mode := cmp.Or(ns.GooseMode, "auto")
	var provider, modelConfig any
	cols, err := session.UpdateColumns(session.Update{ProviderName: ns.ProviderName, ModelConfig: ns.ModelConfig})
	if err != nil {
		return session.Session{}, err
	}
	for _, c := range cols {
		switch c.Name {
		case "provider_name":
			provider = c.Value
		case "model_config_json":
			modelConfig = c.Value
		}
	}
	stamp := session.FormatTimestamp(now)
	r := insertedRow(ns.WorkingDir, ns.Name, string(typ), stamp, mode, provider, modelConfig)
	if err := q.QueryRowContext(ctx, insertSessionSQL, session.IDDay(now), ns.Name, string(typ),
		ns.WorkingDir, stamp, mode, provider, modelConfig).Scan(&r.id); err != nil {
		return session.Session{}, err
	}
	return r.session(s.log), nil
}

// insertedRow is the row insertSessionSQL writes, as a read of it scans
// it, but for its id: the values it binds, and every other column's
// default, which is NULL but for description (”) in every schema goose
// has had (migrate.go; TestCreateReturnsTheStoredRow holds Create's answer
// to a read of the row).
func insertedRow(workingDir, name, typ, stamp, mode string, provider, modelConfig any) sessionRow {
	str := func(v string) sql.NullString { return sql.NullString{String: v, Valid: true} }
	// UpdateColumns gives these as a string or nil (NULL).
	opt := func(v any) sql.NullString {
		text, _ := v.(string)
		return sql.NullString{String: text, Valid: v != nil}
	}
	return sessionRow{workingDir: str(workingDir), name: str(name), description: str(""),
		userSetName: sql.NullBool{Valid: true}, sessionType: str(typ), createdAt: str(stamp), updatedAt: str(stamp),
		extData: str("{}"), providerName: opt(provider), modelConfig: opt(modelConfig), gooseMode: str(mode)}
}

// Get returns a session; withMessages also loads its conversation.
func (s *Store) Get(ctx context.Context, id string, withMessages bool) (session.Session, error) {
	out, err := s.snapshotGet(ctx, id, withMessages)
	if err != nil {
		return session.Session{}, fmt.Errorf("get session: %w", err)
	}
	return out, nil
}

func (s *Store) get(ctx context.Context, q querier, id string, withMessages bool) (session.Session, error) {
	out, err := s.getRow(ctx, q, id, !withMessages)
	if err != nil || !withMessages {
		return out, err
	}
	conv, err := s.conversation(ctx, q, id)
	if err != nil {
		return session.Session{}, err
	}
	out.Conversation = conv
	out.MessageCount, out.LastMessageAt = session.ConversationStats(conv)
	return out, nil
}

// statsSQL computes, for the session row alias a, what goose reads with a
// session when it does not load the messages: the user-visible message
// count (metadata that is not JSON counts as visible, as it reads) and the
// newest created_timestamp, milliseconds read as seconds.
func statsSQL(a string) string {
	return `(SELECT COUNT(*) FROM messages m WHERE m.session_id = ` + a + `.id AND ` + visibleSQL + `),
	(SELECT MAX(CASE WHEN m.created_timestamp > ` + strconv.Itoa(session.MillisecondThreshold) +
		` THEN m.created_timestamp / 1000 ELSE m.created_timestamp END) FROM messages m WHERE m.session_id = ` + a + `.id)`
}

// visibleSQL is goose's user_visible_message_sql. The four metadata texts
// goose and EncodeMessage write are matched as text first, so counting a
// long conversation parses almost no JSON.
const visibleSQL = `CASE m.metadata_json
	WHEN '{"userVisible":true,"agentVisible":true}' THEN 1
	WHEN '{"userVisible":true,"agentVisible":false}' THEN 1
	WHEN '{"userVisible":false,"agentVisible":true}' THEN 0
	WHEN '{"userVisible":false,"agentVisible":false}' THEN 0
	ELSE NOT json_valid(m.metadata_json) OR COALESCE(json_extract(m.metadata_json, '$.userVisible'), 1) != 0 END`

// rowSQL is getRow's statement.
func (s *Store) rowSQL(withStats bool) string {
	stats := "0, NULL"
	if withStats {
		stats = statsSQL("s")
	}
	return `SELECT ` + s.cols + `, ` + stats + ` FROM sessions s WHERE s.id = ?`
}

// getRow reads one session row; withStats also fills MessageCount and
// LastMessageAt from the messages table.
func (s *Store) getRow(ctx context.Context, q querier, id string, withStats bool) (session.Session, error) {
	var r sessionRow
	var count int
	var last sql.NullInt64
	err := q.QueryRowContext(ctx, s.rowSQL(withStats), id).
		Scan(append(r.dest(), &count, &last)...)
	if errors.Is(err, sql.ErrNoRows) {
		return session.Session{}, notFound(id)
	}
	if err != nil {
		return session.Session{}, err
	}
	out := r.session(s.log)
	out.MessageCount, out.LastMessageAt = count, lastMessageAt(last)
	return out, nil
}

func lastMessageAt(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := session.MessageTime(v.Int64)
	return &t
}

// Update applies the non-nil fields of u and touches updated_at. An empty
// update only checks that the session exists, as goose's does.
func (s *Store) Update(ctx context.Context, id string, u session.Update) error {
	set, err := session.UpdateColumns(u)
	if err != nil {
		return fmt.Errorf("update session %s: %w", id, err)
	}
	err = s.write(ctx, func(tx dbq) error {
		if u.Usage != nil {
			if err := requireSession(ctx, tx, id); err != nil {
				return err
			}
			if err := s.recordUsage(ctx, tx, id, *u.Usage); err != nil {
				return err
			}
		}
		if len(set) == 0 {
			return requireSession(ctx, tx, id)
		}
		names := make([]string, 0, len(set))
		args := make([]any, 0, len(set)+2)
		for _, c := range set {
			names = append(names, c.Name)
			args = append(args, c.Value)
		}
		args = append(args, s.stamp(), id)
		res, err := tx.ExecContext(ctx, updateSQL(names...), args...)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return notFound(id)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("update session: %w", err)
	}
	return nil
}

// updateSQL is Update's statement for these columns (and updated_at).
func updateSQL(cols ...string) string {
	return `UPDATE sessions SET ` + strings.Join(cols, " = ?, ") + ` = ?, updated_at = ? WHERE id = ?`
}

const requireSessionSQL = `SELECT 1 FROM sessions WHERE id = ?`

func requireSession(ctx context.Context, q querier, id string) error {
	var one int
	err := q.QueryRowContext(ctx, requireSessionSQL, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return notFound(id)
	}
	return err
}

// Delete removes the session, its messages and its usage ledger rows (in
// goose's order: foreign keys are enforced, as in goose).
func (s *Store) Delete(ctx context.Context, id string) error {
	defer s.revs.Bump(id)
	err := s.write(ctx, func(tx dbq) error {
		if err := requireSession(ctx, tx, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM messages WHERE session_id = ?`, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM usage_ledger WHERE session_id = ?`, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE id = ?`, id); err != nil {
			return err
		}
		if day, n, ok := session.SplitID(id); ok {
			_, err := tx.ExecContext(ctx, raiseIDFloorSQL, day, n)
			return err
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	return nil
}
