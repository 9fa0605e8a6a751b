package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/cmd/goose-acp/internal/firstframe"
)

// refuseAfterStart tells an editor whose initialize was answered while the
// binary started (internal/firstframe) that start-up then failed (bad
// flags, an unreadable config.yaml, an unwritable GOOSE_PATH_ROOT):
// every request it sends is answered "goose-acp could not start:
// <reason>", as when the session database cannot open, until it closes
// stdin. Without this the editor would see an agent that answered
// initialize and then vanished. Nothing happens when initialize was not
// answered yet; the process then exits as before.
func refuseAfterStart(ctx context.Context, stdout io.Writer, reason string) {
	first, ok := firstframe.Answered()
	if !ok {
		return
	}
	if reason == "" {
		reason = "start-up failed (see its stderr)"
	}
	err := errors.New(reason)
	_ = acp.Serve(ctx, first.Input, stdout, acp.Options{Version: buildVersion(), Initialized: first.Initialized,
		Open: func(context.Context) (acp.Options, error) { return acp.Options{}, err }})
}

// reasonWriter passes stderr through and keeps the reason a failed
// start-up gave: its first "goose-acp: …" line (what cmd prints for
// every start-up error), else its first line (the flag package's).
type reasonWriter struct {
	w     io.Writer
	mu    sync.Mutex
	first string
	ours  string
	part  []byte
}

func (r *reasonWriter) Write(p []byte) (int, error) {
	r.mu.Lock()
	if r.ours == "" && len(r.part) < 4<<10 {
		r.part = append(r.part, p...)
		for {
			i := bytes.IndexByte(r.part, '\n')
			if i < 0 {
				break
			}
			line := strings.TrimSpace(string(r.part[:i]))
			r.part = r.part[i+1:]
			if r.first == "" {
				r.first = line
			}
			if rest, ok := strings.CutPrefix(line, "goose-acp: "); ok && r.ours == "" {
				r.ours = rest
			}
		}
	}
	r.mu.Unlock()
	return r.w.Write(p)
}

// reason is the kept reason ("" when stderr got no line).
func (r *reasonWriter) reason() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ours != "" {
		return r.ours
	}
	return r.first
}
