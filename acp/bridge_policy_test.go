package acp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
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
		policy: pathpolicy.New(pathpolicy.Options{WorkingDir: wd, Roots: []string{t.TempDir()}, ConfigDir: t.TempDir()})}
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
