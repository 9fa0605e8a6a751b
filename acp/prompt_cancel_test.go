package acp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// session/cancel stops a prompt whose attachment is still being read: the
// editor never answers fs/read_text_file, the prompt is answered
// "cancelled" anyway (it used to wait for the read forever).
func TestCancelStopsAnAttachmentRead(t *testing.T) {
	c, sid := startServerWith(t, `{"fs":{"readTextFile":true}}`)
	t.Cleanup(c.close)
	p := filepath.Join(t.TempDir(), "a.txt")
	os.WriteFile(p, []byte("x"), 0o644)
	c.send(`{"jsonrpc":"2.0","id":9,"method":"session/prompt","params":{"sessionId":"` + sid + `","prompt":[{"type":"resource_link","name":"a.txt","uri":"file://` + filepath.ToSlash(p) + `"}]}}`)
	result := make(chan string, 1)
	go func() {
		for {
			line, err := c.out.ReadBytes('\n')
			if err != nil {
				result <- "output ended: " + err.Error()
				return
			}
			var m struct {
				ID     *int   `json:"id"`
				Method string `json:"method"`
				Result struct {
					StopReason string `json:"stopReason"`
				} `json:"result"`
			}
			json.Unmarshal(line, &m)
			switch {
			case m.Method == "fs/read_text_file":
				c.send(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"` + sid + `"}}`)
			case m.Method == "" && m.ID != nil && *m.ID == 9:
				result <- m.Result.StopReason
				return
			}
		}
	}()
	select {
	case got := <-result:
		if got != "cancelled" {
			t.Fatalf("stopReason = %q", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the prompt was not answered after session/cancel")
	}
}
