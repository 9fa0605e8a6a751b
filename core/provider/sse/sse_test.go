package sse

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll returns every event of r as "name|data" strings (with a "~"
// after a cut one).
func readAll(r io.Reader, opts Options) ([]string, error) {
	rd := NewReader(r, opts)
	var out []string
	for {
		ev, err := rd.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		s := ev.Name + "|" + string(ev.Data)
		if ev.Cut {
			s += "~"
		}
		out = append(out, s)
	}
}

// Anthropic's options: unknown fields ignored, an unfinished event dropped.
var messagesAPI = Options{MaxLine: 32 << 20}

// Gemini's options: anything but SSE fields is an error, the last event
// needs no blank line.
var gemini = Options{MaxLine: 256 << 20, Strict: true, KeepUnfinished: true}

// TestOptions covers what the options change; the anthropic and google
// packages test the full SSE field rules with their own options.
func TestOptions(t *testing.T) {
	tests := []struct {
		name, in string
		opts     Options
		want     []string
	}{
		{"event without data is reported", "event: error\n\nevent: ping\ndata: {}\n\n", messagesAPI,
			[]string{"error|", "ping|{}"}},
		{"lenient: unknown fields are ignored", "foo: bar\n<html>\ndata: d\n\n", messagesAPI, []string{"|d"}},
		{"lone CR line endings, lenient too", "data: 1\r\rdata: 2\r\r", messagesAPI, []string{"|1", "|2"}},
		{"an unfinished event is dropped", "data: 1\n\ndata: {}\n", messagesAPI, []string{"|1"}},
		{"kept: with its line end it is whole", "data: x\n\ndata: y\n", gemini, []string{"|x", "|y"}},
		{"kept: without, it is cut", "event: e\ndata: y", gemini, []string{"e|y~"}},
		{"line events: each data line at once", "data: 1\ndata: 2\n\n: c\ndata: 3", Options{MaxLine: 1 << 10, KeepUnfinished: true, LineEvents: true},
			[]string{"|1", "|2", "|3~"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Whole, then a byte at a time: lines split across reads.
			for _, r := range []io.Reader{strings.NewReader(tt.in), iotest.OneByteReader(strings.NewReader(tt.in))} {
				got, err := readAll(r, tt.opts)
				if err != nil {
					t.Fatal(err)
				}
				if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tt.want) {
					t.Errorf("events = %q, want %q", got, tt.want)
				}
			}
		})
	}
	if _, err := readAll(strings.NewReader("data: 1\n\n<html>\n"), gemini); !errors.As(err, new(*LineError)) {
		t.Fatalf("strict: err %v, want a *LineError", err)
	}
	if _, err := readAll(strings.NewReader("data: "+strings.Repeat("0", 100)+"\n\n"), Options{MaxLine: 64}); !errors.Is(err, bufio.ErrTooLong) {
		t.Fatalf("over MaxLine: err %v, want bufio.ErrTooLong", err)
	}
}

func TestTouchHearsEveryLine(t *testing.T) {
	rd := NewReader(strings.NewReader(": ping\n\n: ping\ndata: x\n\n"), messagesAPI)
	n := 0
	rd.Touch = func() { n++ }
	if ev, err := rd.Next(); err != nil || string(ev.Data) != "x" || n != 5 {
		t.Fatalf("event %q, err %v, %d lines heard; want x after 5", ev.Data, err, n)
	}
}
