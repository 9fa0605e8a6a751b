//go:build linux

package e2e

// Bounded HTTP bodies, measured on the spawned binary:
//
//	go test ./e2e -run XXX -bench RejectedBodyRSS -benchtime 3x -count 3
//
// Each op POSTs a 60 MB body (with its Content-Length, as clients send
// one) to a route whose limit it exceeds, and checks the 413. The goal is
// the agent's peak RSS growth under 20 MB: the body is refused from its
// Content-Length, never buffered up to the limit.

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

func BenchmarkRejectedBodyRSS(b *testing.B) {
	body := bytes.Repeat([]byte("x"), 60<<20)
	for _, c := range []struct{ name, path, want string }{
		{"goosed-sessions-import", "/sessions/import", `{"message":"Failed to buffer the request body: length limit exceeded"}`},
		{"goosed-reply", "/reply", `{"message":"Failed to buffer the request body: length limit exceeded"}`},
		{"acp-streamable-http", "/acp", "reading the message: http: request body too large\n"},
	} {
		b.Run(c.name, func(b *testing.B) {
			env := newAgentEnv(b)
			pid, base := spawnGoosed(b, env, "bench-secret")
			before, _ := peakRSSMB(pid)
			for b.Loop() {
				req, _ := http.NewRequest("POST", base+c.path, bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-Secret-Key", "bench-secret")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				got, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusRequestEntityTooLarge || string(got) != c.want {
					b.Fatalf("%d %q", resp.StatusCode, got)
				}
			}
			if peak, ok := peakRSSMB(pid); ok {
				b.ReportMetric(peak-before, "MiB-peak-RSS-growth")
			}
		})
	}
}

// spawnGoosed runs `goose-acp agent` on plain HTTP and returns its pid and
// base URL once /status answers; it is stopped when b ends.
func spawnGoosed(b *testing.B, env *agentEnv, secret string) (int, string) {
	b.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(binary, "agent")
	cmd.Env = append(env.environ(), "GOOSE_TLS=false", fmt.Sprintf("GOOSE_PORT=%d", port), "GOOSE_SERVER__SECRET_KEY="+secret)
	cmd.Dir = env.Root
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGTERM); _ = cmd.Wait() })
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	for deadline := time.Now().Add(15 * time.Second); ; {
		if resp, err := http.Get(base + "/status"); err == nil {
			resp.Body.Close()
			return cmd.Process.Pid, base
		}
		if time.Now().After(deadline) {
			b.Fatal("goose-acp agent not ready within 15s")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
