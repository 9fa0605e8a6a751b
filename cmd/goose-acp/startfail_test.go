package main

import (
	"io"
	"testing"
)

// The reason a failed start-up gives an editor is cmd's own error line,
// else the first line (the flag package's, before its usage), whatever
// the writes' split.
func TestStartFailureReason(t *testing.T) {
	for _, tc := range []struct {
		writes []string
		want   string
	}{
		{[]string{"goose-acp: config: cannot parse x\n"}, "config: cannot parse x"},
		{[]string{"WARN something\n", "goose-acp: invalid log", " level \"x\"\n", "goose-acp: later\n"}, `invalid log level "x"`},
		{[]string{"invalid value \"n\" for flag -with-builtin: unknown\nUsage of goose-acp acp:\n  -with-builtin value\n"}, `invalid value "n" for flag -with-builtin: unknown`},
		{[]string{"no newline"}, ""},
	} {
		r := &reasonWriter{w: io.Discard}
		for _, w := range tc.writes {
			if n, err := r.Write([]byte(w)); n != len(w) || err != nil {
				t.Fatalf("Write = %d, %v", n, err)
			}
		}
		if got := r.reason(); got != tc.want {
			t.Errorf("%q: reason %q, want %q", tc.writes, got, tc.want)
		}
	}
}
