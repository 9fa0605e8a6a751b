package acp

import (
	"fmt"
	"testing"
)

// A client that sends session/new before initialize has been answered
// must not race initialize's write of the client capabilities (run with
// -race: session/new reads them for its builtins and notices).
func TestSessionNewBeforeInitializeAnswered(t *testing.T) {
	r := newDesktopRig(t, nil)
	r.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`, r.dir))
	r.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true},"_meta":{"goose":{"customNotifications":true}}}}}`)
	answered := map[string]bool{}
	for !answered["1"] || !answered["2"] {
		var rep rpcReply
		mustUnmarshal(t, []byte(r.read(t)), &rep)
		if rep.Error != nil {
			t.Fatalf("request %s failed: %+v", rep.ID, rep.Error)
		}
		if len(rep.ID) > 0 {
			answered[string(rep.ID)] = true
		}
	}
}
