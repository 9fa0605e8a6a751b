package acp

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/developer"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (run with -update to create): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden:\n got %s\nwant %s", name, got, want)
	}
}

func TestReplayUpdatesGolden(t *testing.T) {
	raw, err := os.ReadFile("testdata/replay_conversation.json")
	if err != nil {
		t.Fatal(err)
	}
	var msgs []conversation.Message
	if err := json.Unmarshal(raw, &msgs); err != nil {
		t.Fatal(err)
	}
	tr := &Translator{WorkingDir: func() string { return "/proj" }, Tools: developerTools(t, developer.Editor)}
	var buf bytes.Buffer
	for _, m := range msgs {
		for _, u := range tr.MessageUpdates(m, true) {
			b, err := jsonMarshal(SessionNotification{SessionID: "20260512_1", Update: u})
			if err != nil {
				t.Fatal(err)
			}
			buf.Write(b)
			buf.WriteByte('\n')
		}
	}
	golden(t, "replay_updates.jsonl", buf.Bytes())
}
