package developer

import (
	"context"
	"os/exec"
	"sync"

	"github.com/goose-acp/goose-acp/developer/shellrun"
)

// ErrSpawn marks a shell that could not be started.
var ErrSpawn = shellrun.ErrSpawn

// runLocal runs the command through shellrun, tracked in the service's
// process table only while it runs.
func (s *service) runLocal(ctx context.Context, req shellrun.Request) (*shellrun.Result, error) {
	return shellrun.Run(ctx, req, s.procs.track)
}

// processTable tracks running shell processes; entries exist only while a
// command runs, so repeated calls never accumulate state.
type processTable struct {
	mu   sync.Mutex
	next int64
	m    map[int64]*exec.Cmd
}

func newProcessTable() *processTable { return &processTable{m: map[int64]*exec.Cmd{}} }

func (t *processTable) add(c *exec.Cmd) int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.next++
	t.m[t.next] = c
	return t.next
}

// track adds c and returns the function that removes it.
func (t *processTable) track(c *exec.Cmd) func() {
	id := t.add(c)
	return func() { t.remove(id) }
}

func (t *processTable) remove(id int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.m, id)
}

// Len is the number of shell processes currently running.
func (t *processTable) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.m)
}
