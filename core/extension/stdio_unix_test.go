//go:build !windows

package extension

import (
	"context"
	"strconv"
	"syscall"
	"testing"
	"time"
)

func TestStdioExtension(t *testing.T) {
	m := newManager(t, Options{Secret: func(k string) (string, bool) { return "s3cret", k == "API_KEY" }})
	cfg := stdioConfig("Std IO!")
	cfg.EnvKeys = []string{"API_KEY"}
	if err := m.Add(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	res, err := m.Call(context.Background(), "c", "stdio___env", map[string]any{"Name": "API_KEY"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Content[0].Text != "s3cret" {
		t.Fatalf("env = %q", res.Content[0].Text)
	}
	// The child's process group dies with the extension.
	res, err = m.Call(context.Background(), "c", "stdio___spawn", nil)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(res.Content[0].Text)
	if err := m.Remove("Std IO!"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(3 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("grandchild %d survived", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
