package firstframe

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/acp/handshake"
)

var testAgent = handshake.Agent{Version: "1.2.3-test", Command: "/opt/goose-acp/bin/goose-acp"}

func agentForTest() handshake.Agent { return testAgent }

// The initialize requests editors send (e2e/editors_clients_test.go has
// where each comes from) and the edges of v1's negotiation.
var answeredHere = map[string]string{
	"zed":             `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true,"auth":{"terminal":true},"_meta":{"terminal_output":true,"terminal-auth":true}},"clientInfo":{"name":"zed","title":"Zed","version":"0.230.0"}}}`,
	"agent-shell":     `{"jsonrpc":"2.0","method":"initialize","id":1,"params":{"clientInfo":{"name":"agent-shell","title":"Emacs Agent Shell","version":"0.63.1"},"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true}}}}`,
	"string id":       `{"jsonrpc":"2.0","id":"init-1","method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`,
	"terminal auth":   `{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"auth":{"terminal":true}}}}`,
	"version 0":       `{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":0}}`,
	"no params":       `{"jsonrpc":"2.0","id":3,"method":"initialize"}`,
	"null params":     `{"jsonrpc":"2.0","id":4,"method":"initialize","params":null}`,
	"html characters": `{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":1,"clientInfo":{"name":"a<b>&c","version":"1"}}}`,
}

// Every initialize answered here gets the bytes the ACP server writes for
// it (same handshake.Answer, same framing), so an editor cannot tell.
func TestAnswerIsTheServersAnswer(t *testing.T) {
	for name, line := range answeredHere {
		t.Run(name, func(t *testing.T) {
			req, frame, ok := answer([]byte(line), agentForTest)
			if !ok || req == nil {
				t.Fatalf("not answered: %s", line)
			}
			if want := serverAnswer(t, line); string(frame) != want+"\n" {
				t.Fatalf("answer differs from the server's\n got: %s\nwant: %s", frame, want)
			}
		})
	}
}

// What the server must answer itself: other methods, notifications, v2,
// requests the server rejects, lines that are not JSON-RPC.
func TestAnswerLeavesEverythingElseToTheServer(t *testing.T) {
	for name, line := range map[string]string{
		"v2 draft":          `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"x","version":"1"}}}`,
		"future version":    `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":7}}`,
		"notification":      `{"jsonrpc":"2.0","method":"initialize","params":{"protocolVersion":1}}`,
		"null id":           `{"jsonrpc":"2.0","id":null,"method":"initialize","params":{"protocolVersion":1}}`,
		"object id":         `{"jsonrpc":"2.0","id":{},"method":"initialize","params":{"protocolVersion":1}}`,
		"other method":      `{"jsonrpc":"2.0","id":0,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`,
		"bad params":        `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"fs":"yes"}}}`,
		"string version":    `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"1"}}`,
		"params not object": `{"jsonrpc":"2.0","id":0,"method":"initialize","params":[1]}`,
		"jsonrpc 1.0":       `{"jsonrpc":"1.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`,
		"batch":             `[{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}]`,
		"not JSON":          `initialize please`,
		"truncated":         `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}`,
		"trailing text":     `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}} x`,
		"response":          `{"jsonrpc":"2.0","id":0,"result":{}}`,
	} {
		if _, _, ok := answer([]byte(line), agentForTest); ok {
			t.Errorf("%s: answered here, want it left to the server: %s", name, line)
		}
	}
}

// Only an initialize answered here asks who answers: the version is read
// once internal/buildinfo is initialised (earlyinfo), and a frame left to
// the server must not wait for it.
func TestAgentReadOnlyForAnAnswer(t *testing.T) {
	asked := 0
	count := func() handshake.Agent { asked++; return testAgent }
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":0,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`,
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2}}`,
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}`,
	} {
		if _, _, ok := answer([]byte(line), count); ok || asked != 0 {
			t.Fatalf("%s: answered %v, agent asked %d times", line, ok, asked)
		}
	}
	if _, _, ok := answer([]byte(answeredHere["zed"]), count); !ok || asked != 1 {
		t.Fatalf("zed's initialize: answered %v, agent asked %d times, want once", ok, asked)
	}
}

// The server reads on exactly where the first frame ended: an editor that
// sends session/new right behind initialize (in the same write) loses
// nothing, and blank lines before initialize are skipped as the server
// skips them.
func TestAnsweredFirstFrameHandsOverTheRest(t *testing.T) {
	in := "\n  \r\n" + answeredHere["zed"] + "\n" + `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}` + "\n"
	var out bytes.Buffer
	res := answerFirst(strings.NewReader(in), &out, agentForTest, func() bool { return true })
	if res.Initialized == nil || res.Initialized.ClientInfo == nil || res.Initialized.ClientInfo.Name != "zed" {
		t.Fatalf("initialize not handed over: %+v", res.Initialized)
	}
	if !res.Initialized.ClientCapabilities.FS.WriteTextFile || !res.Initialized.ClientCapabilities.Terminal {
		t.Fatalf("client capabilities lost: %+v", res.Initialized.ClientCapabilities)
	}
	if want := serverAnswer(t, answeredHere["zed"]) + "\n"; out.String() != want {
		t.Fatalf("stdout %q, want %q", out.String(), want)
	}
	rest, _ := io.ReadAll(res.Input)
	if want := `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}` + "\n"; string(rest) != want {
		t.Fatalf("server would read %q, want %q", rest, want)
	}
}

// A first frame left to the server reaches it byte for byte — also one
// longer than what is answered here, and one cut short by the end of
// input — and nothing is written to stdout.
func TestUnansweredFirstFrameReachesTheServerIntact(t *testing.T) {
	long := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"_meta":{"pad":"` + strings.Repeat("x", maxFirstFrame+100) + `"}}}`
	for name, in := range map[string]string{
		"v2":         `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"x","version":"1"}}}` + "\n" + `{"jsonrpc":"2.0","id":1,"method":"x"}` + "\n",
		"longer":     long + "\n" + `{"jsonrpc":"2.0","id":1,"method":"x"}` + "\n",
		"no newline": `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`,
		"empty":      "",
		"garbage":    "\x00\x01 not json\n",
	} {
		var out bytes.Buffer
		res := answerFirst(strings.NewReader(in), &out, agentForTest, func() bool { return true })
		if res.Initialized != nil || out.Len() != 0 {
			t.Errorf("%s: answered (stdout %q)", name, out.String())
		}
		got, _ := io.ReadAll(res.Input)
		if string(got) != in {
			t.Errorf("%s: the server would read %d bytes, want the %d sent", name, len(got), len(in))
		}
	}
}

// Take gives up waiting when the process is told to stop before the
// editor sent anything.
func TestTakeEndsWithItsContext(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	pending = start(inR, io.Discard, agentForTest)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, ok := Take(ctx)
	if !ok || res.Initialized != nil {
		t.Fatalf("Take = %+v, %v", res, ok)
	}
	if b, _ := io.ReadAll(res.Input); len(b) != 0 {
		t.Fatalf("input %q, want none", b)
	}
	if _, ok := Take(context.Background()); ok {
		t.Fatal("taken twice")
	}
}

// serverAnswer is the ACP server's own answer to line.
func serverAnswer(t *testing.T, line string) string {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- acp.Serve(context.Background(), inR, outW, acp.Options{Version: testAgent.Version, Auth: acp.AuthOptions{Command: testAgent.Command}})
		outW.Close()
	}()
	if _, err := io.WriteString(inW, line+"\n"); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(outR)
	if !sc.Scan() {
		t.Fatalf("server wrote nothing: %v", sc.Err())
	}
	got := sc.Text()
	inW.Close()
	go io.Copy(io.Discard, outR)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	return got
}

// A start-up that fails before the editor's first frame arrives gives up
// on it (Answered is false) and the frame, arriving after, is not
// answered: the process exits without having said initialize succeeded.
// Once a frame was answered, Answered hands it over.
func TestAnsweredGivesUpOnAFrameNotYetRead(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	pending = start(inR, outW, agentForTest)
	if _, ok := Answered(); ok {
		t.Fatal("Answered before any frame")
	}
	if _, err := io.WriteString(inW, answeredHere["zed"]+"\n"); err != nil {
		t.Fatal(err)
	}
	_ = inW.Close()
	go func() { _, _ = io.Copy(io.Discard, outR) }()
	select {
	case <-pending.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the responder did not end")
	}
	if pending.res.Initialized != nil {
		t.Fatal("a frame read after Answered gave up was answered")
	}
	pending = nil

	pending = start(strings.NewReader(answeredHere["zed"]+"\n"), io.Discard, agentForTest)
	<-pending.done
	if res, ok := Answered(); !ok || res.Initialized == nil {
		t.Fatalf("Answered = %+v, %v after an answered frame", res, ok)
	}
}
