package developer

import (
	"bytes"
	"context"
	"runtime"
	"strings"
	"testing"
	"time"
)

// A script that pipes its requests and closes stdin at once still gets
// the answer of a call that is still running at EOF.
func TestServeStdioAnswersRequestsReadBeforeEOF(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses sh")
	}
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"shell","arguments":{"command":"sleep 0.3; echo finished-after-eof"}}}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- ServeStdio(context.Background(), strings.NewReader(in), &out, Options{Surface: Classic, WorkingDir: t.TempDir()})
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeStdio did not return after EOF")
	}
	if !strings.Contains(out.String(), `"id":2`) || !strings.Contains(out.String(), "finished-after-eof") {
		t.Fatalf("the call running at EOF was not answered:\n%s", out.String())
	}
}

func TestExchangesCountsSplitLines(t *testing.T) {
	x := newExchanges()
	r := lineCounter{count: isRequest}
	w := lineCounter{count: isResponse}
	x.add(r.feed([]byte(`{"jsonrpc":"2.0","id":1,"meth`)))
	x.add(r.feed([]byte(`od":"a"}` + "\n" + `{"jsonrpc":"2.0","method":"note"}` + "\n" + `{"id":"x","method":"b"}` + "\n")))
	if x.pending != 2 {
		t.Fatalf("pending %d after two requests and a notification, want 2", x.pending)
	}
	x.add(-w.feed([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n" + `{"jsonrpc":"2.0","method":"notifications/progress"}` + "\n")))
	if x.pending != 1 {
		t.Fatalf("pending %d after one response, want 1", x.pending)
	}
	start := time.Now()
	x.wait(50 * time.Millisecond)
	if time.Since(start) < 50*time.Millisecond {
		t.Fatal("wait returned while a request was pending")
	}
	x.add(-w.feed([]byte(`{"id":"x","error":{"code":1,"message":"m"}}` + "\n")))
	x.wait(time.Hour) // returns at once: nothing pending
}
