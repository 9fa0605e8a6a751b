package providertest

import (
	"bytes"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/jsonbody"
)

// AssertStreamedBody checks a request body carrying huge texts: build
// returns a body that reads as want (the encoder's own bytes) with Len
// its length, and building and reading it allocates less than a quarter
// of it (its texts are quoted as it is read, not copied into it).
func AssertStreamedBody(t testing.TB, want []byte, build func() (*jsonbody.Body, error)) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b, err := build()
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, b.Reader())
	runtime.ReadMemStats(&after)
	if err != nil || n != int64(len(want)) || b.Len() != n {
		t.Fatalf("read %d bytes (Len %d), want %d: %v", n, b.Len(), len(want), err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(n)/4 {
		t.Errorf("building and reading a %d-byte body allocated %d bytes", n, alloc)
	}
	if got := b.Bytes(); !bytes.Equal(got, want) {
		t.Fatalf("body differs from the encoder's (%d vs %d bytes)", len(got), len(want))
	}
}

// HugeText is a text over jsonbody.MinText (2 MiB) whose every line has
// escapes, HTML characters, a line separator and invalid UTF-8.
func HugeText() string {
	return strings.Repeat("log line <ok> & \"quoted\" \u2028 é \xff\n", (2<<20)/36)
}

// HugeRequest is a conversation carrying huge texts: a huge prompt merged
// with the turn context stored after it, a short answer, and the huge
// text again.
func HugeRequest() provider.Request {
	big := HugeText()
	return provider.Request{System: "sys", Messages: []conversation.Message{
		conversation.NewMessage(conversation.RoleUser, 1).WithText(big).WithText("<turn-context>now</turn-context>"),
		conversation.NewMessage(conversation.RoleAssistant, 2).WithText("ok"),
		conversation.NewMessage(conversation.RoleUser, 3).WithText(big + "again")}}
}

// AssertSentBody checks that the server got want, with its Content-Length
// (not chunked).
func AssertSentBody(t testing.TB, r Request, want []byte) {
	t.Helper()
	if !bytes.Equal(r.Body, want) || r.Header.Get("Content-Length") != strconv.Itoa(len(want)) {
		t.Errorf("the server got %d bytes (Content-Length %q), want the encoder's %d", len(r.Body), r.Header.Get("Content-Length"), len(want))
	}
}
