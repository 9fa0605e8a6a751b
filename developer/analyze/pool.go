package analyze

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
)

// Helper processes are kept alive between calls, so a language's queries
// are compiled once per process, as when the parser ran in the agent.
const (
	// maxHelpers bounds the helpers of one path running at once: calls
	// beyond it wait their turn (or their context).
	maxHelpers = 4
	// maxIdle is how many of them wait for the next call; the others end
	// when their call is answered.
	maxIdle = 2
)

// pool is the helpers of one helper path.
type pool struct {
	helper string
	slots  chan struct{}
	mu     sync.Mutex
	idle   []*proc // the most recently used last
}

// pools holds the agent process's helpers, by helper path. An idle
// helper has no goroutine; it ends when the agent exits (its stdin
// closes) or, on Linux, is killed with it.
var pools = struct {
	sync.Mutex
	m map[string]*pool
}{m: map[string]*pool{}}

func poolFor(helper string) *pool {
	pools.Lock()
	defer pools.Unlock()
	p := pools.m[helper]
	if p == nil {
		p = &pool{helper: helper, slots: make(chan struct{}, maxHelpers)}
		pools.m[helper] = p
	}
	return p
}

// Run runs one analysis in a goose-acp-analyze process of helper: the
// request as one JSON line on its stdin, the answer read from its stdout.
// The process is kept for the next call (its compiled queries with it);
// calls run one per process, up to maxHelpers processes at once.
// Cancelling ctx kills the process serving the call, and Run returns only
// once it has been reaped; a helper that dies during a call is an error
// naming it, with the end of its stderr. The text is goose's analysis (or
// its large-output warning); errors match the sentinels and carry goose's
// message.
func Run(ctx context.Context, helper string, req Request) (string, error) {
	line, err := json.Marshal(req)
	if err != nil {
		return "", fmt.Errorf("analyze: encoding the request: %w", err)
	}
	line = append(line, '\n')
	p := poolFor(helper)
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return "", fmt.Errorf("analyze: %w", ctx.Err())
	}
	defer func() { <-p.slots }()
	return p.call(ctx, line)
}

func (p *pool) call(ctx context.Context, line []byte) (string, error) {
	pr := p.take()
	reused := pr != nil
	for {
		if pr == nil {
			var err error
			if pr, err = start(p.helper); err != nil {
				return "", fmt.Errorf("analyze: %s failed: %w", p.helper, err)
			}
		}
		a, err := pr.exchange(ctx, line)
		if errors.Is(err, errNotSent) && reused {
			// The idle helper had died (killed, or the thread that
			// started it ended) before this request: a fresh one gets it.
			pr.end()
			pr, reused = nil, false
			continue
		}
		if err != nil {
			pr.end()
			if errors.Is(err, errNotSent) || errors.Is(err, errDied) || errors.Is(err, errNotOneAnswer) {
				err = pr.failure(p.helper, err)
			}
			return "", err
		}
		p.put(pr)
		if ctx.Err() != nil {
			return "", fmt.Errorf("analyze: %w", ctx.Err())
		}
		return a.result()
	}
}

func (p *pool) take() *proc {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.idle)
	if n == 0 {
		return nil
	}
	pr := p.idle[n-1]
	p.idle = p.idle[:n-1]
	return pr
}

func (p *pool) put(pr *proc) {
	p.mu.Lock()
	if len(p.idle) < maxIdle {
		p.idle = append(p.idle, pr)
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	pr.end()
}

// closeIdle ends the idle helpers of helper.
func closeIdle(helper string) {
	p := poolFor(helper)
	p.mu.Lock()
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	for _, pr := range idle {
		pr.end()
	}
}
