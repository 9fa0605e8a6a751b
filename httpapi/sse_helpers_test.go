package httpapi

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// sseFrame is one parsed SSE frame.
type sseFrame struct {
	ID      string
	Data    string
	Comment string
}

// sseReader reads frames from a stream.
type sseReader struct {
	resp   *http.Response
	br     *bufio.Reader
	frames chan sseFrame
	err    chan error
}

func newSSEReader(resp *http.Response) *sseReader {
	r := &sseReader{resp: resp, br: bufio.NewReader(resp.Body), frames: make(chan sseFrame, 4096), err: make(chan error, 1)}
	go r.loop()
	return r
}

func (r *sseReader) loop() {
	var f sseFrame
	has := false
	for {
		line, err := r.br.ReadString('\n')
		if err != nil {
			r.err <- err
			close(r.frames)
			return
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "":
			if has {
				r.frames <- f
			}
			f, has = sseFrame{}, false
		case strings.HasPrefix(line, ":"):
			f.Comment, has = strings.TrimSpace(line[1:]), true
		case strings.HasPrefix(line, "id: "):
			f.ID, has = line[4:], true
		case strings.HasPrefix(line, "data: "):
			f.Data, has = line[6:], true
		}
	}
}

// next returns the next non-comment frame (or fails after timeout).
func (r *sseReader) next(t *testing.T) sseFrame {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case f, ok := <-r.frames:
			if !ok {
				t.Fatalf("stream ended: %v", <-r.err)
			}
			if f.Comment != "" && f.Data == "" {
				continue
			}
			return f
		case <-timeout:
			t.Fatal("timed out waiting for an SSE frame")
		}
	}
}

// nextEvent decodes the next data frame.
func (r *sseReader) nextEvent(t *testing.T) (sseFrame, map[string]any) {
	t.Helper()
	f := r.next(t)
	var m map[string]any
	if err := json.Unmarshal([]byte(f.Data), &m); err != nil {
		t.Fatalf("frame data %q: %v", f.Data, err)
	}
	return f, m
}

// until reads events until one of type typ, returning all read.
func (r *sseReader) until(t *testing.T, typ string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for {
		_, ev := r.nextEvent(t)
		if ev["type"] == "Ping" {
			continue
		}
		out = append(out, ev)
		if ev["type"] == typ {
			return out
		}
	}
}

func (r *sseReader) close() { r.resp.Body.Close() }
