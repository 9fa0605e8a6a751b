package google

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/goose-acp/goose-acp/core/provider/sse"
)

func decodeAll(r io.Reader) ([]string, error) {
	return decodeAllMax(r, maxSSELine)
}

func decodeAllMax(r io.Reader, maxLine int) ([]string, error) {
	d := newSSEReader(r, maxLine)
	var out []string
	for {
		data, err := nextData(d)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, string(data))
	}
}

func TestSSEDecoder(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"CRLF events", "data: {\"a\":1}\r\n\r\ndata: {\"b\":2}\r\n\r\n", []string{`{"a":1}`, `{"b":2}`}},
		{"LF events", "data: 1\n\ndata: 2\n\n", []string{"1", "2"}},
		{"CR events", "data: 1\r\rdata: 2\r\r", []string{"1", "2"}},
		{"multi-line data is joined with LF", "data: {\"a\":\r\ndata: 1}\r\n\r\n", []string{"{\"a\":\n1}"}},
		{"only one space is dropped", "data:x\n\ndata:  y\n\n", []string{"x", " y"}},
		{"a bare data field is an empty line", "data\ndata: x\n\n", []string{"\nx"}},
		{"comments and other fields are skipped", ": keep-alive\n\nevent: message\nid: 7\nretry: 10\ndata: x\n\n", []string{"x"}},
		{"extra blank lines", "\n\n\ndata: x\n\n\n\n", []string{"x"}},
		{"the last event needs no blank line", "data: x\n\ndata: y", []string{"x", "y"}},
		{"nor a line end", "data: y\r", []string{"y"}},
		{"empty stream", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// One byte at a time, so every split point is exercised.
			got, err := decodeAll(iotest.OneByteReader(strings.NewReader(tt.in)))
			if err != nil || strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
				t.Errorf("events = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestSSEDecoderErrors(t *testing.T) {
	t.Run("a line that is no event field", func(t *testing.T) {
		got, err := decodeAll(strings.NewReader("data: x\n\n<html>bad gateway</html>\n"))
		var bad *sse.LineError
		if !errors.As(err, &bad) || string(bad.Line) != "<html>bad gateway</html>" || len(got) != 1 {
			t.Fatalf("events %q, err %v; want one event then the bad line", got, err)
		}
		if want := `unexpected line "<html>bad gateway</html>" in the event stream`; err.Error() != want {
			t.Errorf("message %q, want %q", err, want)
		}
	})
	t.Run("read errors end the stream", func(t *testing.T) {
		r := io.MultiReader(strings.NewReader("data: x\n\ndata: partial"), iotest.ErrReader(io.ErrUnexpectedEOF))
		got, err := decodeAll(r)
		if !errors.Is(err, io.ErrUnexpectedEOF) || len(got) != 1 {
			t.Fatalf("events %q, err %v; want one event then the read error", got, err)
		}
	})
	t.Run("lines over the limit", func(t *testing.T) {
		got, err := decodeAllMax(strings.NewReader("data: "+strings.Repeat("0", 100)+"\n\n"), 64)
		if !errors.Is(err, bufio.ErrTooLong) || len(got) != 0 {
			t.Fatalf("events %q, err %v; want bufio.ErrTooLong", got, err)
		}
	})
}
