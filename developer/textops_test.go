package developer

import (
	"errors"
	"testing"
)

func TestLineEndingHelpers(t *testing.T) {
	if detectLineEnding("hello\nworld\n") != "\n" || detectLineEnding("hello\r\nworld\r\n") != "\r\n" || detectLineEnding("none") != "\n" {
		t.Fatal("detectLineEnding")
	}
	if normalizeToLF("a\r\nb\rc\n") != "a\nb\nc\n" {
		t.Fatal("normalizeToLF")
	}
	if restoreLineEndings("a\nb\n", "\r\n") != "a\r\nb\r\n" {
		t.Fatal("restoreLineEndings")
	}
	if s, ok := stripBOM("\uFEFFhello"); !ok || s != "hello" {
		t.Fatal("stripBOM")
	}
}

func TestNormalizeForFuzzy(t *testing.T) {
	cases := map[string]string{
		"hello   \nworld\t\n":                               "hello\nworld\n",
		"\u201Chello\u201D":                                 "\"hello\"",
		"\u2018it\u2019s\u2019":                             "'it's'",
		"a\u2014b\u2013c\u2212d":                            "a-b-c-d",
		"a\u00A0b\u2003c":                                   "a b c",
		"\"It\u2019s\" a test\u2014really\n  with spaces  ": "\"It's\" a test-really\n  with spaces",
		"  lead":         "  lead",
		"":               "",
		"   \n   \n   ":  "\n\n",
		"crlf  \r\nnext": "crlf\nnext",
	}
	for in, want := range cases {
		if got := normalizeForFuzzy(in); got != want {
			t.Errorf("normalizeForFuzzy(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReplaceUnique(t *testing.T) {
	cases := []struct {
		name, content, old, new, want string
		wantErr                       error
		wantN                         int
	}{
		{name: "exact", content: "hello world\n", old: "world", new: "rust", want: "hello rust\n"},
		{name: "crlf kept", content: "a\r\nb\r\nc\r\n", old: "b\nc", new: "B\nC", want: "a\r\nB\r\nC\r\n"},
		{name: "mixed endings untouched elsewhere", content: "x\r\ny\nz\r\n", old: "y", new: "Y", want: "x\r\nY\nz\r\n"},
		{name: "bom kept", content: "\uFEFFhello world\n", old: "world", new: "rust", want: "\uFEFFhello rust\n"},
		{name: "fuzzy trailing ws, rest untouched", content: "keep  \nhello   \nworld  \ntail \u201Cq\u201D\n", old: "hello\nworld", new: "hi\nearth",
			want: "keep  \nhi\nearth  \ntail \u201Cq\u201D\n"},
		{name: "fuzzy smart quotes", content: "say \u201Chello\u201D\nother \u2018x\u2019\n", old: "say \"hello\"", new: "say \"hi\"", want: "say \"hi\"\nother \u2018x\u2019\n"},
		{name: "fuzzy dash", content: "a \u2014 b\n", old: "a - b", new: "c", want: "c\n"},
		{name: "no match", content: "abc\n", old: "xyz", new: "q", wantErr: ErrNoMatch},
		{name: "multiple exact", content: "x x x\n", old: "x", new: "y", wantErr: errMultipleMatch, wantN: 3},
		{name: "multiple fuzzy", content: "a  \nb\na \nb\n", old: "a\nb", new: "c", wantErr: errMultipleMatch, wantN: 2},
		// An exact unique match is unambiguous even if fuzzy matching would
		// find more (goose counts on normalized text; we prefer the exact hit).
		{name: "exact unique wins", content: "a  \nb\na\nb\n", old: "a\nb", new: "c", want: "a  \nb\nc\n"},
		{name: "identical", content: "same\n", old: "same", new: "same", wantErr: ErrNoChange},
		{name: "empty old", content: "abc", old: "", new: "x", wantErr: ErrNoMatch},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := replaceUnique(tc.content, tc.old, tc.new)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				var mm *multiMatchError
				if errors.As(err, &mm) && mm.n != tc.wantN {
					t.Fatalf("matches = %d, want %d", mm.n, tc.wantN)
				}
				return
			}
			if err != nil || got.content != tc.want {
				t.Fatalf("got %q, %v; want %q", got.content, err, tc.want)
			}
		})
	}
}

func TestSliceLines(t *testing.T) {
	s := "line 1\nline 2\nline 3\nline 4"
	cases := []struct {
		line, limit int
		want        string
	}{
		{0, 0, s}, {2, 2, "line 2\nline 3\n"}, {4, 5, "line 4"}, {9, 1, ""}, {1, 1, "line 1\n"},
	}
	for _, tc := range cases {
		if got := sliceLines(s, tc.line, tc.limit); got != tc.want {
			t.Errorf("sliceLines(%d,%d) = %q, want %q", tc.line, tc.limit, got, tc.want)
		}
	}
}

func TestInsertAfterLine(t *testing.T) {
	cases := []struct {
		body string
		n    int
		ins  string
		want string
	}{
		{"a\nb\n", 0, "x", "x\na\nb\n"},
		{"a\nb\n", 1, "x\ny", "a\nx\ny\nb\n"},
		{"a\nb\n", 2, "x", "a\nb\nx\n"},
		{"a\nb", 2, "x", "a\nb\nx\n"},
		{"a\r\nb\r\n", 1, "x\ny", "a\r\nx\r\ny\r\nb\r\n"},
		{"", 0, "x", "x\n"},
	}
	for _, tc := range cases {
		if got, _ := insertAfterLine(tc.body, tc.n, tc.ins); got != tc.want {
			t.Errorf("insertAfterLine(%q,%d,%q) = %q, want %q", tc.body, tc.n, tc.ins, got, tc.want)
		}
	}
}
