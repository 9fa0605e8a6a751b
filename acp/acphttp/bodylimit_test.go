package acphttp

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestMessageOverLimitRefusedFromContentLength: a POST announcing a
// message over MaxMessageBytes is answered 413 at once, before (and
// without) its body being read, with the text a client got when the limit
// was hit while reading.
func TestMessageOverLimitRefusedFromContentLength(t *testing.T) {
	_, srv := newTestHandler(t)
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{", 60<<20)
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer before the body was sent: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge || string(b) != "reading the message: http: request body too large\n" {
		t.Fatalf("%d %q", resp.StatusCode, b)
	}
	// A message of unknown length is cut at the limit, with the same answer.
	req, _ := http.NewRequest("POST", srv.URL, strings.NewReader(strings.Repeat(" ", MaxMessageBytes+1)))
	req.Header.Set("Content-Type", "application/json")
	req.ContentLength = -1
	r2, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(r2.Body)
	r2.Body.Close()
	if r2.StatusCode != http.StatusRequestEntityTooLarge || string(b) != "reading the message: http: request body too large\n" {
		t.Fatalf("chunked: %d %q", r2.StatusCode, b)
	}
}
