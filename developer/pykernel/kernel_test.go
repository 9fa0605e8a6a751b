package pykernel

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

func python(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on PATH")
	}
	return p
}

// A kernel keeps its variables between cells, snapshots them, and a new
// kernel on the same state file gets them back with goose's notice.
func TestKernelKeepsAndRestoresState(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(t.TempDir(), "state.pkl")
	spec := Spec{Python: python(t), Dir: dir, Env: os.Environ(), StatePath: state}
	k, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := k.Exec(ctx, "answer = 6 * 7", 10*time.Second); err != nil {
		t.Fatal(err)
	}
	out, err := k.Exec(ctx, "answer", 10*time.Second)
	if err != nil || out.Resp.Value == nil || *out.Resp.Value != "42" {
		t.Fatalf("answer: %+v %v", out, err)
	}
	k.Kill()
	again, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Kill()
	if n := again.RestoreNotice(); n == "" {
		t.Fatal("no restore notice after a snapshot")
	}
	out, err = again.Exec(ctx, "answer", 10*time.Second)
	if err != nil || out.Resp.Value == nil || *out.Resp.Value != "42" {
		t.Fatalf("restored answer: %+v %v", out, err)
	}
}
