package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// A client that writes its requests and closes stdin at once (a script
// piping into goose-acp) still gets every answer.
func TestRequestsReadBeforeEOFAreAnswered(t *testing.T) {
	r := &Router{Requests: map[string]RequestHandler{
		"slow": func(ctx context.Context, p json.RawMessage) (any, error) {
			select {
			case <-time.After(100 * time.Millisecond):
				return p, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		},
	}}
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"slow","params":"a"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"slow","params":"b"}` + "\n")
	outR, outW := io.Pipe()
	s := NewStream(in, outW, nil)
	s.OnEOF = func() { r.WaitTimeout(5 * time.Second) }
	conn := jsonrpc2.NewConn(context.Background(), s, r)
	got := make(chan []string, 1)
	go func() {
		var lines []string
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines = append(lines, sc.Text())
		}
		got <- lines
	}()
	<-conn.DisconnectNotify()
	r.Wait()
	outW.Close()
	lines := <-got
	if len(lines) != 2 || !jsonEqualAny(lines, `{"jsonrpc":"2.0","id":1,"result":"a"}`) || !jsonEqualAny(lines, `{"jsonrpc":"2.0","id":2,"result":"b"}`) {
		t.Fatalf("answers after EOF = %q", lines)
	}
}

func jsonEqualAny(lines []string, want string) bool {
	for _, l := range lines {
		if jsonEqual(l, want) {
			return true
		}
	}
	return false
}
