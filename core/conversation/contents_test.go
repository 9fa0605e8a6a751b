package conversation

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// quoteCorpus is every single byte, the escapes, invalid and truncated
// UTF-8, the separators serde leaves raw, HTML characters, and seeded
// random byte strings.
func quoteCorpus() []string {
	out := []string{"", "plain", `he said "hi" \ bye`, "<a href='x'>&amp;</a>",
		"line\u2028sep\u2029para", "\b\f\n\r\t\x00\x1f\x7f", "emoji 😀 ünïcödé 中文",
		"\xff\xfe", "\xe2\x80", "a\xe2\x80\xa8b", "\xed\xa0\x80", "\\u2028", "\U0010FFFF"}
	for b := range 256 {
		out = append(out, string([]byte{byte(b)}), "x"+string([]byte{byte(b)})+"y")
	}
	r := rand.New(rand.NewPCG(16, 4))
	for range 500 {
		buf := make([]byte, r.IntN(64))
		for i := range buf {
			buf[i] = byte(r.IntN(256))
		}
		out = append(out, string(buf))
	}
	return out
}

// referenceItem is a text item encoded the general way: the variant with
// Marshal, "type" spliced in front.
func referenceItem(t testing.TB, c Content) []byte {
	body, err := Marshal(c.Text)
	if err != nil {
		t.Fatal(err)
	}
	return withType(c.Type, body)
}

func TestAppendQuotedIsMarshal(t *testing.T) {
	for _, s := range quoteCorpus() {
		want, err := Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendQuoted(nil, s); !bytes.Equal(got, want) {
			t.Errorf("appendQuoted(%q) = %s, Marshal wrote %s", s, got, want)
		}
		if n := quotedLen(s); n != len(want) {
			t.Errorf("quotedLen(%q) = %d, want %d", s, n, len(want))
		}
	}
}

func FuzzAppendQuoted(f *testing.F) {
	for _, s := range quoteCorpus()[:20] {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := Marshal(s)
		if got := appendQuoted(nil, s); !bytes.Equal(got, want) || quotedLen(s) != len(want) {
			t.Fatalf("%q: got %s (len %d), want %s", s, got, quotedLen(s), want)
		}
	})
}

// TestMarshalContentsIsMarshal: the one-buffer encoding of a content list
// is byte for byte the list Marshal writes, for bare texts, texts with
// annotations or _meta, other variants, and the empty list.
func TestMarshalContentsIsMarshal(t *testing.T) {
	var lists [][]Content
	for _, s := range quoteCorpus() {
		lists = append(lists, []Content{Text(s)}, []Content{Text(s), Text("second"), Image("aGk=", "image/png")})
	}
	annotated := Text("with <annotations>")
	annotated.Text.Annotations = json.RawMessage(`{"audience":["user"],"priority":0.5}`)
	meta := Text("with meta\u2028")
	meta.Text.Meta = map[string]any{"k": "v<&>"}
	lists = append(lists, nil, []Content{}, []Content{annotated, meta},
		[]Content{ToolRequestContent("call_1", "developer__shell", map[string]any{"command": "ls <x>"}), Text("tail")})
	for _, g := range goldenContents {
		lists = append(lists, []Content{g.value, Text("after")})
	}
	for _, cs := range lists {
		want, err := Marshal(cs)
		if cs == nil {
			want, err = Marshal([]Content{}) // nil is written as goose's []
		}
		if err != nil {
			t.Fatal(err)
		}
		got, err := MarshalContents(cs)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("MarshalContents = %s\nMarshal wrote   %s", got, want)
		}
		if len(got) != cap(got) {
			t.Errorf("MarshalContents allocated %d bytes for %d", cap(got), len(got))
		}
	}
}

// TestTextItemFastPathIsGeneralPath: a bare text item's MarshalJSON (the
// fast path) writes what the general variant path writes, through Marshal
// and through plain json.Marshal (which re-escapes HTML and separators).
func TestTextItemFastPathIsGeneralPath(t *testing.T) {
	for _, s := range quoteCorpus() {
		c := Text(s)
		got, err := c.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if want := referenceItem(t, c); !bytes.Equal(got, want) {
			t.Errorf("text %q: fast path %s, general path %s", s, got, want)
		}
		plain, _ := json.Marshal(c)
		wantPlain, _ := json.Marshal(json.RawMessage(referenceItem(t, c)))
		if !bytes.Equal(plain, wantPlain) {
			t.Errorf("json.Marshal(text %q) = %s, want %s", s, plain, wantPlain)
		}
	}
}

// BenchmarkMarshalContentsHuge encodes one 31 MB text item: one
// allocation of the final size (Marshal makes several copies).
func BenchmarkMarshalContentsHuge(b *testing.B) {
	cs := []Content{Text(strings.Repeat("0123456789abcdef", (31<<20)/16))}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := MarshalContents(cs); err != nil {
			b.Fatal(err)
		}
	}
}

// TestContentsMatchJSON: the piecewise comparison agrees with comparing
// MarshalContents' bytes, for equal encodings and for near misses (one
// byte changed anywhere, truncated, extended), with texts longer than a
// comparison piece and multi-byte runes and invalid UTF-8 around the cuts.
func TestContentsMatchJSON(t *testing.T) {
	long := strings.Repeat("é\xe2\x80", quoteChunk) + "\u2028<&>\"\n" + strings.Repeat("😀", quoteChunk/3)
	lists := [][]Content{nil, {Text(long)}, {Text("a"), Image("aGk=", "image/png"), Text(long + "x")}}
	for _, s := range quoteCorpus()[:40] {
		lists = append(lists, []Content{Text(s), Text(s + s)})
	}
	for _, cs := range lists {
		enc, err := MarshalContents(cs)
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := ContentsJSONLen(cs); n != len(enc) {
			t.Errorf("ContentsJSONLen = %d, encoding has %d", n, len(enc))
		}
		if !ContentsMatchJSON(cs, string(enc)) {
			t.Errorf("its own encoding does not match: %.80s", enc)
		}
		misses := []string{string(enc[:len(enc)-1]), string(enc) + " ", "", string(enc[1:])}
		for _, at := range []int{0, 1, len(enc) / 3, len(enc) / 2, len(enc) - 2} {
			b := bytes.Clone(enc)
			b[at] ^= 1
			misses = append(misses, string(b))
		}
		for _, m := range misses {
			if ContentsMatchJSON(cs, m) != bytes.Equal([]byte(m), enc) {
				t.Errorf("match of a different encoding (len %d vs %d)", len(m), len(enc))
			}
		}
	}
}

// writeRecorder keeps what WriteContents wrote and its largest write.
type writeRecorder struct {
	bytes.Buffer
	largest int
}

func (w *writeRecorder) Write(p []byte) (int, error) {
	w.largest = max(w.largest, len(p))
	return w.Buffer.Write(p)
}

// TestWriteContentsIsMarshalContents: the streamed encoding is byte for
// byte MarshalContents', and a text item several pieces long is never
// written whole (a write holds at most one piece's escaping).
func TestWriteContentsIsMarshalContents(t *testing.T) {
	long := strings.Repeat("é\xe2\x80\"<\n", quoteChunk/2) + strings.Repeat("😀", quoteChunk)
	lists := [][]Content{nil, {}, {Text(long)}, {Text("a"), Image("aGk=", "image/png"), Text(long + "x"), Text("")},
		{ToolRequestContent("call_1", "developer__shell", map[string]any{"command": "ls <x>"}), Text(long)}}
	for _, s := range quoteCorpus() {
		lists = append(lists, []Content{Text(s), Text(s + s)})
	}
	for _, cs := range lists {
		want, err := MarshalContents(cs)
		if err != nil {
			t.Fatal(err)
		}
		var w writeRecorder
		if err := WriteContents(&w, cs); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(w.Bytes(), want) {
			t.Errorf("WriteContents wrote %.80q…, MarshalContents %.80q…", w.Bytes(), want)
		}
		if len(want) > 8*quoteChunk && w.largest > 7*quoteChunk {
			t.Errorf("a write of %d bytes for an encoding of %d", w.largest, len(want))
		}
	}
}
