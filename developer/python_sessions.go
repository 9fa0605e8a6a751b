package developer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/goose-acp/goose-acp/developer/pykernel"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// pySessions holds one kernel slot per agent session (the call's
// agent-session-id) and MCP connection. A kernel ends when its connection
// closes (the session's developer extension goes away), after pyIdleTTL
// without a cell, when it dies, or with the agent (the shell's process
// machinery).
type pySessions struct {
	mu      sync.Mutex
	slots   map[pyKey]*pySlot
	watched map[any]bool
	// Test overrides (0 = goose's values).
	cellTimeout, idleTTL time.Duration
}

type pyKey struct {
	conn any // the call's callContext.conn: nil for calls without one (unit tests)
	id   string
}

// pySlot is one session's kernel; mu is held for a whole cell, so cells
// of one session run one at a time.
type pySlot struct {
	mu     sync.Mutex
	k      *pykernel.Kernel
	dir    string // the kernel's working directory
	reset  bool   // the next cell reports pyResetNotice
	idle   *time.Timer
	used   time.Time
	closed bool
	// stateDir holds the session's snapshot while the connection lives
	// (in-process only: a restarted agent starts empty).
	stateDir string
}

func (p *pySessions) ttl() time.Duration {
	if p.idleTTL > 0 {
		return p.idleTTL
	}
	return pyIdleTTL
}

// slot returns the session's slot, and the first time an MCP connection
// is seen, arranges for its kernels to end with it (a direct server's end
// with its Close, see NewDirect).
func (p *pySessions) slot(id string, conn any) *pySlot {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.slots == nil {
		p.slots, p.watched = map[pyKey]*pySlot{}, map[any]bool{}
	}
	if ss, ok := conn.(*mcp.ServerSession); ok && ss != nil && !p.watched[ss] {
		p.watched[ss] = true
		go func() {
			_ = ss.Wait()
			p.closeConn(ss)
		}()
	}
	key := pyKey{conn, id}
	sl := p.slots[key]
	if sl == nil {
		sl = &pySlot{}
		p.slots[key] = sl
	}
	return sl
}

// closeConn kills the kernels of one connection.
func (p *pySessions) closeConn(ss any) {
	p.mu.Lock()
	var slots []*pySlot
	for key, sl := range p.slots {
		if key.conn == ss {
			slots = append(slots, sl)
			delete(p.slots, key)
		}
	}
	delete(p.watched, ss)
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, sl := range slots {
		wg.Go(func() {
			sl.mu.Lock()
			defer sl.mu.Unlock()
			sl.closed = true
			sl.stop()
			if sl.stateDir != "" {
				os.RemoveAll(sl.stateDir)
			}
		})
	}
	wg.Wait()
}

// stop kills the kernel (caller holds mu).
func (sl *pySlot) stop() {
	if sl.idle != nil {
		sl.idle.Stop()
	}
	if sl.k != nil {
		sl.k.Kill()
		sl.k = nil
	}
}

// armIdle schedules the idle shutdown (caller holds mu). A timer, not a
// reaper goroutine: nothing runs while sessions sit idle.
func (sl *pySlot) armIdle(ttl time.Duration) {
	sl.used = time.Now()
	if sl.idle != nil {
		sl.idle.Stop()
	}
	sl.idle = time.AfterFunc(ttl, func() {
		if !sl.mu.TryLock() {
			return // a cell is running; it re-arms the timer
		}
		defer sl.mu.Unlock()
		if sl.k != nil && time.Since(sl.used) >= ttl {
			sl.k.Kill()
			sl.k = nil
			// The next cell restores the snapshot and says so; without
			// one it must say the variables are gone.
			sl.reset = sl.stateDir == ""
		}
	})
}

// run executes one cell in the session's kernel, starting it on first use.
func (p *pySessions) run(ctx context.Context, s *service, cc callContext, code string) (pyCellOutput, error) {
	sl := p.slot(cc.sessionID, cc.conn)
	sl.mu.Lock()
	defer sl.mu.Unlock()
	if sl.closed {
		return pyCellOutput{}, errors.New("the session no longer exists")
	}
	if sl.idle != nil {
		sl.idle.Stop()
	}
	defer sl.armIdle(p.ttl())
	restore := ""
	if sl.k == nil {
		spec, err := s.kernelSpecFor(cc)
		if err != nil {
			return pyCellOutput{}, err
		}
		spec.StatePath = sl.statePath(s)
		if sl.k, err = pykernel.Start(spec); err != nil {
			return pyCellOutput{}, err
		}
		sl.dir, restore = cc.workingDir, sl.k.RestoreNotice()
	} else if cc.workingDir != sl.dir {
		// The session's working dir changed: follow it before the cell, as
		// goose's update_working_dir does.
		if r, err := sl.k.Simple(map[string]any{"op": "chdir", "dir": cc.workingDir}, pyChdirTimeout); err != nil || !r.OK {
			s.log.Warn("python session could not change directory", "dir", cc.workingDir, "err", err)
		} else {
			sl.dir = cc.workingDir
		}
	}
	out, err := sl.k.Exec(ctx, code, s.cellTimeout())
	if err != nil {
		sl.k.Kill()
		sl.k = nil
		sl.reset = true
		return pyCellOutput{}, errors.New(err.Error() + "\n" + pyResetNotice)
	}
	reset := sl.reset
	sl.reset = false
	return pyCellOutput{Outcome: out, reset: reset, restore: restore}, nil
}

// statePath is the slot's snapshot file, its owner-only directory made on
// first use; "" (no snapshots) when it cannot be made.
func (sl *pySlot) statePath(s *service) string {
	if sl.stateDir == "" {
		dir, err := os.MkdirTemp("", "goose-python-state-")
		if err != nil {
			s.log.Warn("python session snapshots disabled", "err", err)
			return ""
		}
		sl.stateDir = dir
	}
	return filepath.Join(sl.stateDir, "session.pkl")
}
