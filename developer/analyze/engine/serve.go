package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/goose-acp/goose-acp/core/pathpolicy"
	"github.com/goose-acp/goose-acp/developer/analyze"
)

// maxRequest bounds the request read from stdin: a path, a symbol and two
// directories.
const maxRequest = 1 << 20

// Serve is the helper's whole work: one analyze.Request read from in, the
// analysis run with .gooseignore built by core/pathpolicy from the
// request's WorkingDir and ConfigDir, one analyze.Answer written to out.
// self is the helper's own path, named in the no-cgo message. An error is
// returned only when no answer could be written.
func Serve(ctx context.Context, in io.Reader, out io.Writer, self string) error {
	var req analyze.Request
	data, err := io.ReadAll(io.LimitReader(in, maxRequest+1))
	switch {
	case err != nil:
		err = fmt.Errorf("reading the request: %w", err)
	case len(data) > maxRequest:
		err = fmt.Errorf("the request is over %d bytes", maxRequest)
	default:
		if jerr := json.Unmarshal(data, &req); jerr != nil {
			err = fmt.Errorf("decoding the request: %w", jerr)
		}
	}
	var text string
	if err == nil {
		text, err = Analyze(ctx, Request{
			Path: req.Path, Focus: req.Focus, FollowDepth: req.FollowDepth, MaxDepth: req.MaxDepth,
			Force: req.Force, WorkingDir: req.WorkingDir,
			Ignored: pathpolicy.RulesFor(req.WorkingDir, req.ConfigDir).Ignored,
		})
	}
	if errors.Is(err, analyze.ErrNoCgo) {
		err = analyze.NoCgoError(self)
	}
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	if werr := enc.Encode(analyze.AnswerFor(text, err)); werr != nil {
		return fmt.Errorf("writing the answer: %w", werr)
	}
	return nil
}
