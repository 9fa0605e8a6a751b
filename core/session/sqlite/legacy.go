package sqlite

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// goose's legacy.rs limits: bigger files are not imported; longer lines
// (messages) are skipped.
const (
	maxLegacyFileSize = 50 << 20
	maxLegacyLine     = 5 << 20
)

// errLegacyEmpty and errLegacyTooLarge are goose's reasons for skipping a file.
var (
	errLegacyEmpty    = errors.New("Empty session file")
	errLegacyTooLarge = errors.New("Session file too large")
)

// importLegacy imports goose's pre-1.10 sessions, one <id>.jsonl per session
// in dir (a metadata line, then one message per line), under their own ids.
// A file that cannot be imported is logged and skipped, as goose does.
func (s *Store) importLegacy(ctx context.Context, dir string) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil || len(paths) == 0 {
		return
	}
	sort.Strings(paths)
	imported := 0
	for _, path := range paths {
		id := strings.TrimSuffix(filepath.Base(path), ".jsonl")
		sess, err := loadLegacySession(id, path)
		if err == nil {
			err = s.write(ctx, func(tx dbq) error { return insertLegacy(ctx, tx, sess) })
		}
		if err != nil {
			s.log.Warn("legacy session not imported", "file", path, "err", err)
			continue
		}
		imported++
	}
	s.log.Info("imported legacy sessions", "dir", dir, "imported", imported, "failed", len(paths)-imported)
}

// loadLegacySession reads one legacy file. Missing timestamps come from the
// file's modification time; lines that are not messages sessions.db can
// hold are skipped.
func loadLegacySession(id, path string) (session.Session, error) {
	f, err := os.Open(path)
	if err != nil {
		return session.Session{}, err
	}
	defer f.Close()
	info, err := f.Stat()
	switch {
	case err != nil:
		return session.Session{}, err
	case info.Size() > maxLegacyFileSize:
		return session.Session{}, errLegacyTooLarge
	case info.Size() == 0:
		return session.Session{}, errLegacyEmpty
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), maxLegacyFileSize)
	if !sc.Scan() {
		return session.Session{}, fmt.Errorf("read %s: %w", path, errors.Join(sc.Err(), errLegacyEmpty))
	}
	sess, err := legacyMetadata(sc.Bytes(), info.ModTime())
	if err != nil {
		return session.Session{}, err
	}
	sess.ID = id
	for sc.Scan() {
		line := sc.Bytes()
		var m conversation.Message
		if len(line) > maxLegacyLine || json.Unmarshal(line, &m) != nil || session.ValidateMessage(m) != nil {
			continue
		}
		sess.Conversation = append(sess.Conversation, m)
	}
	if err := sc.Err(); err != nil {
		return session.Session{}, fmt.Errorf("read %s: %w", path, err)
	}
	return sess, nil
}

// legacyMetadata parses the first line: goose's old SessionMetadata
// (description, working_dir, token counters, …) or a Session. Timestamps may
// be in either sessions.db text form.
func legacyMetadata(line []byte, modTime time.Time) (session.Session, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil || fields == nil {
		return session.Session{}, errors.New("Invalid session metadata JSON")
	}
	created, updated := legacyTime(fields["created_at"], modTime), legacyTime(fields["updated_at"], modTime)
	delete(fields, "created_at")
	delete(fields, "updated_at")
	delete(fields, "conversation")
	rest, err := json.Marshal(fields)
	if err != nil {
		return session.Session{}, err
	}
	sess, err := session.UnmarshalExport(rest)
	if err != nil {
		return session.Session{}, fmt.Errorf("session metadata: %w", err)
	}
	sess.CreatedAt, sess.UpdatedAt = created, updated
	return sess, nil
}

func legacyTime(raw json.RawMessage, fallback time.Time) time.Time {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if t, err := session.ParseTimestamp(s); err == nil {
			return t
		}
	}
	return session.Second(fallback)
}

// insertLegacy stores sess under its own id with its timestamps.
func insertLegacy(ctx context.Context, tx dbq, sess session.Session) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO sessions
		(id, name, user_set_name, session_type, working_dir, created_at, updated_at, extension_data, goose_mode)
		VALUES (?, ?, FALSE, ?, ?, ?, ?, '{}', 'auto')`,
		sess.ID, sess.Name, string(sess.SessionType), sess.WorkingDir,
		session.FormatTimestamp(sess.CreatedAt), session.FormatTimestamp(sess.UpdatedAt))
	if err != nil {
		return err
	}
	return fillCopy(ctx, tx, sess.ID, sess)
}
