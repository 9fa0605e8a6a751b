package developer

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
	"time"
)

// stdioDrainGrace bounds how long requests already read may still run
// after the client closed stdin.
const stdioDrainGrace = 5 * time.Second

// exchanges counts requests read from the client that have no response
// written yet. A client that pipes requests and closes stdin at once
// (a script, a test harness) still gets every answer: the MCP SDK's
// stdio transport would otherwise cancel them all at EOF.
type exchanges struct {
	mu      sync.Mutex
	pending int
	idle    chan struct{} // closed and replaced whenever pending drops to 0
}

func newExchanges() *exchanges { return &exchanges{idle: make(chan struct{})} }

func (e *exchanges) add(n int) {
	if n == 0 {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.pending += n
	if e.pending <= 0 {
		e.pending = 0
		close(e.idle)
		e.idle = make(chan struct{})
	}
}

// wait returns once nothing is pending, or after d.
func (e *exchanges) wait(d time.Duration) {
	deadline := time.After(d)
	for {
		e.mu.Lock()
		pending, idle := e.pending, e.idle
		e.mu.Unlock()
		if pending == 0 {
			return
		}
		select {
		case <-idle:
		case <-deadline:
			return
		}
	}
}

// lineCounter feeds complete NDJSON lines to count and keeps the rest.
type lineCounter struct {
	partial []byte
	count   func(line []byte) int
}

func (l *lineCounter) feed(p []byte) int {
	n := 0
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			l.partial = append(l.partial, p...)
			break
		}
		line := p[:i]
		if len(l.partial) > 0 {
			line = append(l.partial, line...)
			l.partial = l.partial[:0]
		}
		n += l.count(line)
		p = p[i+1:]
	}
	return n
}

// envelope is the part of a JSON-RPC message that says what it is.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

func isRequest(line []byte) int {
	var e envelope
	if json.Unmarshal(line, &e) == nil && len(e.ID) > 0 && string(e.ID) != "null" && e.Method != "" {
		return 1
	}
	return 0
}

func isResponse(line []byte) int {
	var e envelope
	if json.Unmarshal(line, &e) == nil && len(e.ID) > 0 && string(e.ID) != "null" && e.Method == "" {
		return 1
	}
	return 0
}

// drainingReader counts requests and holds EOF back until they are
// answered (or stdioDrainGrace passed).
type drainingReader struct {
	r     io.Reader
	x     *exchanges
	lines lineCounter
	grace time.Duration
}

func (d *drainingReader) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	d.x.add(d.lines.feed(p[:n]))
	if err == io.EOF {
		if n > 0 {
			return n, nil // let the transport see these bytes first
		}
		d.x.wait(d.grace)
	}
	return n, err
}

// countingWriter marks requests answered as their responses go out.
type countingWriter struct {
	w     io.Writer
	x     *exchanges
	lines lineCounter
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.x.add(-c.lines.feed(p[:n]))
	return n, err
}

func (c *countingWriter) Close() error { return nil }
