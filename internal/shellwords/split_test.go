package shellwords

import (
	"reflect"
	"testing"
)

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		in     string
		want   []string
		closed bool
	}{
		{"", nil, true},
		{"  a\tb\nc\r d ", []string{"a", "b", "c", "d"}, true},
		{`say "hello world" 'it''s'`, []string{"say", "hello world", "its"}, true},
		{`x "" y`, []string{"x", "", "y"}, true},
		{`C:\Users\me "a\b"`, []string{`C:\Users\me`, `a\b`}, true},
		{`rm "-rf /`, []string{"rm", "-rf /"}, false},
		{`'`, []string{""}, false},
	} {
		got, closed := Split(c.in)
		if !reflect.DeepEqual(got, c.want) || closed != c.closed {
			t.Errorf("Split(%q) = %q, %v; want %q, %v", c.in, got, closed, c.want, c.closed)
		}
	}
}
