package acp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/goose-acp/goose-acp/core/pathpolicy"
)

type recordingPeer struct{ calls []string }

func (p *recordingPeer) Call(_ context.Context, method string, _, _ any) error {
	p.calls = append(p.calls, method)
	return nil
}

func (p *recordingPeer) Notify(context.Context, string, any) error { return nil }

// The fs/* delegation applies the session's path policy before the editor
// is asked: a refused path never becomes an fs/read_text_file or
// fs/write_text_file request.
func TestDelegatedFSChecksThePolicyFirst(t *testing.T) {
	wd := t.TempDir()
	os.WriteFile(filepath.Join(wd, ".env"), []byte("K=v"), 0o600)
	peer := &recordingPeer{}
	f := &fileIO{peer: peer, sessionID: "s", canRead: true, canWrite: true,
		policy: func() *pathpolicy.Policy {
			return pathpolicy.New(pathpolicy.Options{WorkingDir: wd, Roots: []string{t.TempDir()}, ConfigDir: t.TempDir()})
		}}
	ctx := context.Background()
	if _, err := f.ReadTextFile(ctx, filepath.Join(wd, ".env"), 0, 0); !errors.Is(err, pathpolicy.ErrIgnored) {
		t.Errorf("read .env: %v", err)
	}
	if err := f.WriteTextFile(ctx, filepath.Join(t.TempDir(), "x"), "x"); !errors.Is(err, pathpolicy.ErrOutsideRoots) {
		t.Errorf("write outside the roots: %v", err)
	}
	if len(peer.calls) != 0 {
		t.Fatalf("the editor was asked: %v", peer.calls)
	}
	if _, err := f.ReadTextFile(ctx, filepath.Join(wd, "main.go"), 0, 0); err != nil || len(peer.calls) != 1 || peer.calls[0] != "fs/read_text_file" {
		t.Fatalf("allowed read: %v %v", err, peer.calls)
	}
}

// The delegation's policy follows the session's cwd after
// _goose/working_dir/update, not the cwd the developer server started in.
func TestDelegatedFSPolicyFollowsTheWorkingDir(t *testing.T) {
	first, moved, root := t.TempDir(), t.TempDir(), t.TempDir()
	p := &promptAPI{loaded: newLoadedSessions()}
	pol := p.sessionPolicy("s1", first, []string{root})
	if got := pol().WorkingDir(); got != first {
		t.Fatalf("before tracking: %s", got)
	}
	var mu sync.Mutex
	cwd := first
	as := &acpSession{id: "s1", translator: &Translator{WorkingDir: func() string {
		mu.Lock()
		defer mu.Unlock()
		return cwd
	}}}
	as.setRoots([]string{root})
	p.loaded.register(as)
	mu.Lock()
	cwd = moved // the agent's working dir moved
	mu.Unlock()
	if err := pol().Check(filepath.Join(moved, "a.go"), "a.go"); err != nil || pol().WorkingDir() != moved {
		t.Fatalf("after the move: %v (wd %s)", err, pol().WorkingDir())
	}
	if err := pol().Check(filepath.Join(first, "a.go"), "a.go"); !errors.Is(err, pathpolicy.ErrOutsideRoots) {
		t.Fatalf("the old cwd is no longer a root: %v", err)
	}
}
