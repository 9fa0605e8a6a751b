package acp

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/permission"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/sqlite"
)

// desktopRig is a goose-acp ACP server over a real sessions.db, driven
// over the NDJSON pipes as Goose Desktop drives it; tests read the file
// back through a second store to see what is on disk.
type desktopRig struct {
	*lineClient
	a      *agent.Agent
	store  *sqlite.Store
	dbPath string
	dir    string
	nextID int
}

func newDesktopRig(t *testing.T, extra func(*Options)) *desktopRig {
	t.Helper()
	return newRig(t, nil, extra)
}

// newDesktopRigWithModel answers every turn with prov.
func newDesktopRigWithModel(t *testing.T, prov provider.Provider) *desktopRig {
	t.Helper()
	return newRigModel(t, nil, prov, nil)
}

// newDesktopRigWithPerms gives the agent a permission store.
func newDesktopRigWithPerms(t *testing.T, perms permission.Store) *desktopRig {
	t.Helper()
	return newRig(t, perms, nil)
}

func newRig(t *testing.T, perms permission.Store, extra func(*Options)) *desktopRig {
	t.Helper()
	return newRigModel(t, perms, instantModel{}, extra)
}

func newRigModel(t *testing.T, perms permission.Store, prov provider.Provider, extra func(*Options)) *desktopRig {
	t.Helper()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "sessions", "sessions.db")
	store, err := sqlite.Open(context.Background(), dbPath, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := agent.New(agent.Options{
		Store:       store,
		Providers:   func(context.Context, string, model.Config) (provider.Provider, error) { return prov, nil },
		Config:      benchConfig{"GOOSE_DISABLE_SESSION_NAMING": "true", "GOOSE_PROVIDER": "instant", "GOOSE_MODEL": "instant"},
		TempDir:     t.TempDir(),
		Permissions: perms,
		DataDir:     filepath.Join(dir, "data"),
		Getenv: func(k string) string {
			if k == "HOME" || k == "USERPROFILE" {
				return filepath.Join(dir, "home")
			}
			return ""
		},
	})
	opts := Options{Agent: a, Store: store, Builtins: []string{}}
	if extra != nil {
		extra(&opts)
	}
	c := serveLines(t, opts)
	// Cleanups run last-in first-out: the server stops before the agent
	// and the store close.
	t.Cleanup(func() { _ = store.Close() })
	t.Cleanup(func() { _ = a.Close() })
	return &desktopRig{lineClient: c, a: a, store: store, dbPath: dbPath, dir: dir, nextID: 100}
}

// call is callUnstable with the rig's request ids.
func (r *desktopRig) call(t *testing.T, method string, params any) []byte {
	t.Helper()
	r.nextID++
	return r.callUnstable(t, r.nextID, method, params)
}

// callErr calls and returns the error answer (failing on a result).
func (r *desktopRig) callErr(t *testing.T, method string, params any) (int64, string, string) {
	t.Helper()
	r.nextID++
	rep := r.callRaw(t, r.nextID, method, params)
	if rep.Error == nil {
		t.Fatalf("%s answered %s, want an error", method, rep.Result)
	}
	return rep.Error.Code, rep.Error.Message, string(rep.Error.Data)
}

// seed stores a session with a user and an assistant message created at
// the given Unix seconds.
func (r *desktopRig) seed(t *testing.T, name, wd string, created ...int64) session.Session {
	t.Helper()
	ctx := context.Background()
	s, err := r.store.Create(ctx, session.NewSession{WorkingDir: wd, Name: name, SessionType: session.TypeUser})
	if err != nil {
		t.Fatal(err)
	}
	for i, at := range created {
		m := conversation.UserText(at, "question "+name)
		if i%2 == 1 {
			m = conversation.AssistantText(at, "answer "+name)
		}
		if err := r.store.AppendMessage(ctx, s.ID, m); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// onDisk reads a session back from sessions.db through a second store.
func (r *desktopRig) onDisk(t *testing.T, id string) session.Session {
	t.Helper()
	ctx := context.Background()
	other, err := sqlite.Open(ctx, r.dbPath, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	s, err := other.Get(ctx, id, true)
	if err != nil {
		t.Fatalf("reading %s from %s: %v", id, r.dbPath, err)
	}
	return s
}
