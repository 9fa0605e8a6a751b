package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/goose-acp/goose-acp/acp"
)

// TestResourceLinksFollowThePathPolicy: a resource_link is
// judged by the path it resolves to, one rule for every spelling. The user
// attached the file, so it is attached even outside the working dir and
// the roots — spelled absolutely or as "cwd/../x" alike — but never from
// /proc, /sys or /dev, never a .gooseignore'd file (under any spelling),
// with or without the editor's fs; the editor is never asked for a refused
// path, and each refusal is a note the model sees.
func TestResourceLinksFollowThePathPolicy(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix paths")
	}
	for _, withFS := range []bool{false, true} {
		t.Run(map[bool]string{false: "local", true: "editor fs"}[withFS], func(t *testing.T) {
			work, extra, outside := t.TempDir(), t.TempDir(), t.TempDir()
			os.WriteFile(filepath.Join(work, ".env"), []byte("OPENAI_API_KEY=sk-leak-41\n"), 0o600)
			os.WriteFile(filepath.Join(outside, "x.txt"), []byte("outside-42\n"), 0o644)
			os.WriteFile(filepath.Join(outside, "y.txt"), []byte("climbed-45\n"), 0o644)
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
			climb := work + "/../" + filepath.Base(outside) + "/y.txt"
			envClimb := work + "/sub/../.env"
			c.promptBlocks(sess.SessionID, acp.ContentBlock{Type: "text", Text: "see"},
				acp.ContentBlock{Type: "resource_link", Name: ".env", URI: "file://" + filepath.Join(work, ".env")},
				acp.ContentBlock{Type: "resource_link", Name: "env climb", URI: "file://" + envClimb},
				acp.ContentBlock{Type: "resource_link", Name: "x.txt", URI: "file://" + filepath.Join(outside, "x.txt")},
				acp.ContentBlock{Type: "resource_link", Name: "climb", URI: "file://" + climb},
				acp.ContentBlock{Type: "resource_link", Name: "environ", URI: "file:///proc/self/environ"},
				acp.ContentBlock{Type: "resource_link", Name: "in.txt", URI: "file://" + filepath.Join(extra, "in.txt")},
				acp.ContentBlock{Type: "resource", Resource: &acp.EmbeddedResource{URI: "file://" + filepath.Join(work, ".env"), Text: &embedded}})
			for _, leak := range []string{"sk-leak-41", "sk-test-secret", "sk-embedded-44"} {
				if llmSaw(env, leak) {
					t.Errorf("%q reached the model", leak)
				}
			}
			for _, seen := range []string{
				"[.env](file://" + filepath.Join(work, ".env") + ") was not attached: Access to '" + filepath.Join(work, ".env") + "' is restricted by .gooseignore",
				"[env climb](file://" + envClimb + ") was not attached: Access to '" + filepath.Join(work, ".env") + "' is restricted by .gooseignore",
				"[environ](file:///proc/self/environ) was not attached: Access to '/proc/self/environ' is refused: /proc is a pseudo-filesystem, never read or written",
				"outside-42", "climbed-45", "inside-43",
			} {
				if !llmSaw(env, seen) {
					t.Errorf("the model did not see %q", seen)
				}
			}
			if withFS {
				allowed := map[string]bool{filepath.Join(extra, "in.txt"): true, filepath.Join(outside, "x.txt"): true, filepath.Clean(climb): true}
				for _, call := range c.callsTo("fs/read_text_file") {
					var req acp.ReadTextFileRequest
					if err := json.Unmarshal(call, &req); err != nil || !allowed[req.Path] {
						t.Errorf("the editor was asked for %s", req.Path)
					}
				}
			}
		})
	}
}
