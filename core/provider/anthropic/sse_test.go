package anthropic

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll decodes every event of r as "name|data" strings.
func readAll(r io.Reader) ([]string, error) {
	dec := newSSEReader(r)
	var out []string
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, ev.Name+"|"+string(ev.Data))
	}
}

func TestSSEReader(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"one event", "event: ping\ndata: {\"type\":\"ping\"}\n\n",
			[]string{`ping|{"type":"ping"}`}},
		{"split data lines are joined by newlines", "event: e\ndata: {\"a\":\ndata: 1}\ndata:\n\n",
			[]string{"e|{\"a\":\n1}\n"}},
		{"CRLF line endings", "event: message_start\r\ndata: {\"x\":1}\r\n\r\nevent: message_stop\r\ndata: {}\r\n\r\n",
			[]string{`message_start|{"x":1}`, `message_stop|{}`}},
		{"event without data is still reported", "event: error\n\nevent: ping\ndata: {}\n\n",
			[]string{"error|", "ping|{}"}},
		{"data without a name", "data: {\"type\":\"ping\"}\n\n",
			[]string{`|{"type":"ping"}`}},
		{"comments, ids, retries and unknown fields are ignored", ": keep-alive\nid: 7\nretry: 100\nfoo: bar\nevent: e\n: mid-event\ndata: d\n\n",
			[]string{"e|d"}},
		{"only one space after the colon is dropped; none is needed", "event:e\ndata:  two\ndata:none\n\n",
			[]string{"e| two\nnone"}},
		{"a field line without a colon has an empty value", "event: e\ndata\ndata\n\n",
			[]string{"e|\n"}},
		{"extra blank lines between events", "\n\nevent: a\ndata: 1\n\n\n\nevent: b\ndata: 2\n\n",
			[]string{"a|1", "b|2"}},
		{"a later event line renames the event", "event: a\nevent: b\ndata: x\n\n",
			[]string{"b|x"}},
		{"stream ending without a trailing blank line drops the unfinished event", "event: a\ndata: 1\n\nevent: message_stop\ndata: {}",
			[]string{"a|1"}},
		{"stream ending after the last data line's newline drops it too", "event: message_stop\ndata: {}\n",
			nil},
		{"empty stream", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Whole, then a byte at a time: lines split across reads.
			for _, r := range []io.Reader{strings.NewReader(tt.in), iotest.OneByteReader(strings.NewReader(tt.in))} {
				got, err := readAll(r)
				if err != nil {
					t.Fatal(err)
				}
				if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tt.want) {
					t.Errorf("events = %q, want %q", got, tt.want)
				}
			}
		})
	}
}

func TestSSEReaderReportsReadErrors(t *testing.T) {
	cut := io.MultiReader(strings.NewReader("event: a\ndata: 1\n\nevent: b\ndata: {\"par"), iotest.ErrReader(io.ErrUnexpectedEOF))
	got, err := readAll(cut)
	if len(got) != 1 || got[0] != "a|1" || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("events %q, err %v; want the first event, then io.ErrUnexpectedEOF", got, err)
	}
}

func TestSSEReaderLongDataLine(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	got, err := readAll(strings.NewReader("event: e\ndata: " + long + "\n\n"))
	if err != nil || len(got) != 1 || got[0] != "e|"+long {
		t.Fatalf("err %v, %d events; want one event with the 1 MiB line", err, len(got))
	}
}
