package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/goose-acp/goose-acp/acp"
)

// TestResourceLinksFollowThePathPolicy: a resource_link gets the read
// tool's policy — .gooseignore, the allowed roots, no ".." climbing out,
// never /proc — with or without the editor's fs, and the editor is never
// asked for a refused path. Each refusal is a note the model sees.
func TestResourceLinksFollowThePathPolicy(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix paths")
	}
	for _, withFS := range []bool{false, true} {
		t.Run(map[bool]string{false: "local", true: "editor fs"}[withFS], func(t *testing.T) {
			work, extra, outside := t.TempDir(), t.TempDir(), t.TempDir()
			os.WriteFile(filepath.Join(work, ".env"), []byte("OPENAI_API_KEY=sk-leak-41\n"), 0o600)
			os.WriteFile(filepath.Join(outside, "x.txt"), []byte("outside-42\n"), 0o644)
			os.WriteFile(filepath.Join(extra, "in.txt"), []byte("inside-43\n"), 0o644)
			env := newAgentEnv(t, textTurn("ok"), textTurn("ok"))
			c := startAgent(t, env)
			ed := &editor{buffers: map[string]string{}}
			caps := acp.ClientCapabilities{}
			if withFS {
				ed.install(c)
				caps = fsCaps
			}
			c.initialize(caps)
			var sess acp.NewSessionResponse
			c.call("session/new", acp.NewSessionRequest{CWD: work, MCPServers: []acp.MCPServer{}, AdditionalDirectories: []string{extra}}, &sess)
			embedded := "OPENAI_API_KEY=sk-embedded-44"
			climb := work + "/../" + filepath.Base(outside) + "/x.txt"
			c.promptBlocks(sess.SessionID, acp.ContentBlock{Type: "text", Text: "see"},
				acp.ContentBlock{Type: "resource_link", Name: ".env", URI: "file://" + filepath.Join(work, ".env")},
				acp.ContentBlock{Type: "resource_link", Name: "x.txt", URI: "file://" + filepath.Join(outside, "x.txt")},
				acp.ContentBlock{Type: "resource_link", Name: "climb", URI: "file://" + climb},
				acp.ContentBlock{Type: "resource_link", Name: "environ", URI: "file:///proc/self/environ"},
				acp.ContentBlock{Type: "resource_link", Name: "in.txt", URI: "file://" + filepath.Join(extra, "in.txt")},
				acp.ContentBlock{Type: "resource", Resource: &acp.EmbeddedResource{URI: "file://" + filepath.Join(work, ".env"), Text: &embedded}})
			for _, leak := range []string{"sk-leak-41", "outside-42", "sk-test-secret", "sk-embedded-44"} {
				if llmSaw(env, leak) {
					t.Errorf("%q reached the model", leak)
				}
			}
			for _, note := range []string{
				"[.env](file://" + filepath.Join(work, ".env") + ") was not attached: Access to '" + filepath.Join(work, ".env") + "' is restricted by .gooseignore",
				"[x.txt](file://" + filepath.Join(outside, "x.txt") + ") was not attached: Path '" + filepath.Join(outside, "x.txt") + "' is outside the working directory and the allowed roots",
				"[climb](file://" + climb + ") was not attached: Path '" + climb + "' resolves outside the working directory",
				"[environ](file:///proc/self/environ) was not attached: Access to '/proc/self/environ' is refused: /proc is a pseudo-filesystem, never read or written",
				"inside-43",
			} {
				if !llmSaw(env, note) {
					t.Errorf("the model did not see %q", note)
				}
			}
			if withFS {
				for _, call := range c.callsTo("fs/read_text_file") {
					var req acp.ReadTextFileRequest
					if err := json.Unmarshal(call, &req); err != nil || req.Path != filepath.Join(extra, "in.txt") {
						t.Errorf("the editor was asked for %s", req.Path)
					}
				}
			}
		})
	}
}
