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
	"github.com/goose-acp/goose-acp/acp/jsonrpc/wire"
	"github.com/goose-acp/goose-acp/internal/earlyinfo"
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
	pending = start(os.Stdin, os.Stdout, agent)
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

// agent is who answers: the build's version, read once the package that
// knows it is initialised (the answer waits for it; the request was read
// and decoded meanwhile), and this executable.
func agent() handshake.Agent {
	return handshake.Agent{Version: earlyinfo.Version(), Command: executable()}
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
func start(in io.Reader, out io.Writer, a func() handshake.Agent) *responder {
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

func answerFirst(in io.Reader, out io.Writer, a func() handshake.Agent, claim func() bool) Result {
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
// valid JSON, a JSON-RPC request by the connection's rules (wire.Decode,
// Envelope.Request: what jsonrpc.Message's decoding applies) with an id,
// method "initialize", protocolVersion below 2 (the v2 draft is
// negotiated by the server) and params that decode. Anything else is the
// server's. a is called only for a request answered here.
func answer(line []byte, a func() handshake.Agent) (*handshake.InitializeRequest, []byte, bool) {
	if !json.Valid(line) {
		return nil, nil, false
	}
	env, echo, err := wire.Decode(line)
	if err != nil || env.Method == nil {
		return nil, nil, false
	}
	id, method, err := env.Request(echo)
	if err != nil || method != "initialize" || id == nil {
		return nil, nil, false
	}
	var req handshake.InitializeRequest
	if len(env.Params) > 0 && string(env.Params) != "null" {
		if json.Unmarshal(env.Params, &req) != nil {
			return nil, nil, false // the server answers what is wrong
		}
	}
	if req.ProtocolVersion > handshake.ProtocolVersion {
		return nil, nil, false
	}
	frame, err := wire.ResponseFrame(id, handshake.Answer(req, a()))
	if err != nil {
		return nil, nil, false
	}
	return &req, append(frame, '\n'), true
}
