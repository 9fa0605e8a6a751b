package acp

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/session/memory"
	"github.com/goose-acp/goose-acp/core/setup"
)

// TestAuthenticateWhileOpening: authenticate arrives while the runtime is
// still opening (Options.Open, started by initialize) and reads the auth
// options while the open completes the server's options. Run with -race:
// nothing orders the two, so they must not share memory (s.opts used to be
// reassigned by the open while authenticate read s.opts.Auth).
func TestAuthenticateWhileOpening(t *testing.T) {
	for range 5 {
		c := serveLines(t, Options{
			Auth: AuthOptions{Status: func() setup.Status { return setup.Status{} }, Command: "/bin/goose-acp"},
			Open: func(ctx context.Context) (Options, error) {
				time.Sleep(5 * time.Millisecond) // not a synchronisation: the race is real time
				return Options{Store: memory.New(time.Now)}, nil
			},
		})
		c.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"_meta":{"terminal-auth":true}}}}`)
		for i := range 8 {
			c.send(t, `{"jsonrpc":"2.0","id":"a`+string(rune('0'+i))+`","method":"authenticate","params":{"methodId":"goose-provider"}}`)
			time.Sleep(time.Millisecond)
		}
		answered := 0
		for answered < 9 {
			got := c.read(t)
			if strings.Contains(got, `"error"`) {
				t.Fatalf("answer: %s", got)
			}
			answered++
		}
		c.send(t, `{"jsonrpc":"2.0","id":3,"method":"session/list","params":{}}`)
		if got := c.read(t); !jsonEqual(got, `{"jsonrpc":"2.0","id":3,"result":{"sessions":[]}}`) {
			t.Fatalf("session/list: %s", got)
		}
	}
}
