package firstframe

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/goose-acp/goose-acp/acp/handshake"
	"github.com/goose-acp/goose-acp/acp/jsonrpc"
	"github.com/goose-acp/goose-acp/internal/buildinfo"
)

// Result is what the first frame left for the ACP server.
type Result struct {
	// Input is what the server reads from here on: the rest of stdin,
	// after the first frame when it was answered, from it otherwise.
	Input io.Reader
	// Initialized is the initialize request answered here (nil: the
	// first frame was something else, and is in Input).
	Initialized *handshake.InitializeRequest
}

// pending is the responder init started (nil: this process does not
// serve ACP on stdio, or it was taken).
var pending *responder

func init() {
	if !ServesACPOnStdio(os.Args[1:]) {
		return
	}
	pending = start(os.Stdin, os.Stdout, handshake.Agent{Version: buildinfo.Version(), Command: executable()})
}

// Take waits for the responder init started and hands its result over
// (false: none was started). When ctx ends first, Input is empty: the
// server is going away.
func Take(ctx context.Context) (Result, bool) {
	r := pending
	pending = nil
	if r == nil {
		return Result{}, false
	}
	select {
	case <-r.done:
		return r.res, true
	case <-ctx.Done():
		return Result{Input: strings.NewReader("")}, true
	}
}

// Answered hands over, without waiting, an initialize already answered
// here (false: none was started, it is still waiting for the first frame,
// or that frame was something else). A process whose start-up failed
// uses it to tell an editor that already has its answer why it cannot
// go on.
func Answered() (Result, bool) {
	r := pending
	if r == nil {
		return Result{}, false
	}
	r.mu.Lock()
	if !r.answering {
		// Still waiting for the first frame: it is never answered now.
		r.abandoned = true
		r.mu.Unlock()
		return Result{}, false
	}
	r.mu.Unlock()
	<-r.done
	if r.res.Initialized == nil {
		return Result{}, false
	}
	pending = nil
	return r.res, true
}

// executable is the terminal auth method's command: this binary's path,
// as cmd/goose-acp's auth options name it.
func executable() string {
	exe, err := os.Executable()
	if err != nil {
		return "goose-acp"
	}
	return exe
}

type responder struct {
	done chan struct{}
	// mu guards answering (a first frame was read: it is answered, or
	// handed over, in full) and abandoned (Answered gave up on it first).
	mu                   sync.Mutex
	answering, abandoned bool
	res                  Result
}

// start reads in's first frame on its own goroutine and answers it on out
// when it is a v1 initialize.
func start(in io.Reader, out io.Writer, a handshake.Agent) *responder {
	r := &responder{done: make(chan struct{})}
	go func() {
		defer close(r.done)
		r.res = answerFirst(in, out, a, r.claim)
	}()
	return r
}

// claim is called once a first frame has been read: false when Answered
// has given up on it (start-up failed), and nothing may be written.
func (r *responder) claim() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.answering = !r.abandoned
	return r.answering
}

// maxFirstFrame bounds the frame answered here (an editor's initialize is
// well under 1 KiB); a longer first line is handed over as read.
const maxFirstFrame = 64 << 10

func answerFirst(in io.Reader, out io.Writer, a handshake.Agent, claim func() bool) Result {
	br := bufio.NewReaderSize(in, maxFirstFrame)
	for {
		line, err := br.ReadSlice('\n')
		if err == nil && len(bytes.TrimSpace(line)) == 0 {
			continue // the server skips blank lines too
		}
		line = bytes.Clone(line) // the reader's buffer is reused
		if err == nil && claim() {
			if req, frame, ok := answer(line, a); ok {
				// Answered, whatever the write's outcome: a client that
				// cannot be written to would not read the server's either.
				_, _ = out.Write(frame)
				return Result{Input: br, Initialized: req}
			}
		}
		return Result{Input: io.MultiReader(bytes.NewReader(line), br)}
	}
}

// answer is the response frame (with its newline) to line when it is a v1
// initialize request the ACP server would answer with handshake.Answer:
// a valid JSON-RPC request (jsonrpc.Message's rules) with an id, method
// "initialize", protocolVersion below 2 (the v2 draft is negotiated by
// the server) and params that decode. Anything else is the server's.
func answer(line []byte, a handshake.Agent) (*handshake.InitializeRequest, []byte, bool) {
	var m jsonrpc.Message
	if json.Unmarshal(line, &m) != nil || m.Method != "initialize" || m.ID == nil {
		return nil, nil, false
	}
	var req handshake.InitializeRequest
	if len(m.Params) > 0 && string(m.Params) != "null" {
		if json.Unmarshal(m.Params, &req) != nil {
			return nil, nil, false // the server answers what is wrong
		}
	}
	if req.ProtocolVersion > handshake.ProtocolVersion {
		return nil, nil, false
	}
	frame, err := jsonrpc.ResponseFrame(m.ID, handshake.Answer(req, a))
	if err != nil {
		return nil, nil, false
	}
	return &req, append(frame, '\n'), true
}
