package engine

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"time"

	"github.com/goose-acp/goose-acp/core/pathpolicy"
	"github.com/goose-acp/goose-acp/developer/analyze"
)

// maxRequest bounds one request line: a path, a symbol and two
// directories.
const maxRequest = 1 << 20

// Serve is the helper's whole work: analyze.Requests read from in, one
// JSON object a line, each answered on out by one analyze.Answer line
// before the next is read, until in ends. Each analysis runs with
// .gooseignore built by core/pathpolicy from its request's WorkingDir and
// ConfigDir. The engine's compiled queries stay in the process, so a
// language's later requests pay only the parse. A request without a final
// newline before the end of in is answered too (one-shot use:
// `echo '{"path":"x"}' | goose-acp-analyze`). self is the helper's own
// path, named in the no-cgo message. An unreadable or over-long request
// is answered with an error and ends Serve; an error is returned only
// when an answer could not be written.
func Serve(ctx context.Context, in io.Reader, out io.Writer, self string) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 4096), maxRequest+1)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		began := time.Now()
		text, err := serveOne(ctx, line, self)
		if werr := enc.Encode(analyze.AnswerFor(text, err)); werr != nil {
			return fmt.Errorf("writing the answer: %w", werr)
		}
		if time.Since(began) >= releaseAfter {
			release()
		}
	}
	err := sc.Err()
	switch {
	case err == nil:
		return nil
	case errors.Is(err, bufio.ErrTooLong):
		err = fmt.Errorf("the request is over %d bytes", maxRequest)
	default:
		err = fmt.Errorf("reading the request: %w", err)
	}
	if werr := enc.Encode(analyze.AnswerFor("", err)); werr != nil {
		return fmt.Errorf("writing the answer: %w", werr)
	}
	return nil
}

// releaseAfter is how long an analysis runs before the helper hands the
// memory it freed back to the OS after answering: a large directory
// overview can leave hundreds of MB in libc's and Go's heaps, one file's
// details little (and trimming after each would slow back-to-back calls).
const releaseAfter = 20 * time.Millisecond

// release returns free memory to the OS, so a helper waiting for its next
// request holds little: libc's free pages (the parser's trees; glibc
// only) and the Go heap's.
func release() {
	trimC()
	debug.FreeOSMemory()
}

// serveOne decodes and runs one request.
func serveOne(ctx context.Context, line []byte, self string) (string, error) {
	var req analyze.Request
	if err := json.Unmarshal(line, &req); err != nil {
		return "", fmt.Errorf("decoding the request: %w", err)
	}
	text, err := Analyze(ctx, Request{
		Path: req.Path, Focus: req.Focus, FollowDepth: req.FollowDepth, MaxDepth: req.MaxDepth,
		Force: req.Force, WorkingDir: req.WorkingDir,
		Ignored: pathpolicy.RulesFor(req.WorkingDir, req.ConfigDir).Ignored,
	})
	if errors.Is(err, analyze.ErrNoCgo) {
		err = analyze.NoCgoError(self)
	}
	return text, err
}
