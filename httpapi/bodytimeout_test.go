package httpapi

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// serveOnLoopback runs Serve with h until the test ends.
func serveOnLoopback(t *testing.T, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = Serve(ctx, ln, h, nil) }()
	t.Cleanup(func() { cancel(); <-done })
	return ln.Addr().String()
}

func withBodyTimeout(t *testing.T, d time.Duration) {
	old := bodyReadTimeout
	bodyReadTimeout = d
	t.Cleanup(func() { bodyReadTimeout = old })
}

// A client that sends headers and then trickles (or stalls) its body is
// answered 408 once the body timeout passes; before, only the headers were
// timed and the handler waited forever.
func TestSlowRequestBodyTimesOut(t *testing.T) {
	withBodyTimeout(t, 200*time.Millisecond)
	addr := serveOnLoopback(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var v map[string]any
		if err := decodeJSON(r, &v); err != nil {
			writer{}.error(w, r, err)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprint(conn, "POST /x HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a stalled body: %v", err)
	}
	if resp.StatusCode != http.StatusRequestTimeout {
		t.Fatalf("status %d, want 408", resp.StatusCode)
	}
}

// A streaming response whose request had a body keeps streaming long past
// the body timeout: the deadline is lifted once the body has been read.
func TestStreamOutlivesBodyTimeout(t *testing.T) {
	withBodyTimeout(t, 100*time.Millisecond)
	addr := serveOnLoopback(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var v map[string]any
		if err := decodeJSON(r, &v); err != nil {
			writer{}.error(w, r, err)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range 5 {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(100 * time.Millisecond):
			}
			fmt.Fprintf(w, "data: %d\n\n", i)
			w.(http.Flusher).Flush()
		}
	}))
	resp, err := http.Post("http://"+addr+"/reply", "application/json", strings.NewReader(`{"a":1}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	var events int
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "data: ") {
			events++
		}
	}
	if events != 5 {
		t.Fatalf("got %d events, want 5 (the stream was cut)", events)
	}
}
