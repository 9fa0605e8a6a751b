package httpapi

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

// rawPost sends a POST whose headers announce contentLength bytes but
// sends none of them, and returns the response read within 5 s.
func rawPost(t *testing.T, base, path string, contentLength int, headers map[string]string) (int, string) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n", path, contentLength)
	for k, v := range headers {
		fmt.Fprintf(conn, "%s: %s\r\n", k, v)
	}
	io.WriteString(conn, "\r\n{")
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer before the body was sent: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestBodyOverLimitRefusedFromContentLength: a body announced over its
// route's limit is answered 413 (goosed's text, as when the limit is hit
// while reading) at once, without waiting for or reading the body.
func TestBodyOverLimitRefusedFromContentLength(t *testing.T) {
	e := newTestEnv(t, "auto")
	code, body := rawPost(t, e.http.URL, "/sessions/import", 60<<20, map[string]string{"X-Secret-Key": testSecret})
	if code != http.StatusRequestEntityTooLarge || body != `{"message":"Failed to buffer the request body: length limit exceeded"}` {
		t.Fatalf("%d %s", code, body)
	}
	// The same limit hit while reading a body of unknown length answers
	// the same.
	req, _ := http.NewRequest("POST", e.http.URL+"/sessions/import", io.MultiReader(strings.NewReader(`{"json":"`), strings.NewReader(strings.Repeat("x", ImportBodyLimit))))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Secret-Key", testSecret)
	req.ContentLength = -1
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge || string(b) != body {
		t.Fatalf("chunked: %d %s", resp.StatusCode, b)
	}
}
