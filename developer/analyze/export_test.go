package analyze

// IdlePIDs lists the helper processes of helper waiting for a call, the
// next to serve last.
func IdlePIDs(helper string) []int {
	p := poolFor(helper)
	p.mu.Lock()
	defer p.mu.Unlock()
	var pids []int
	for _, pr := range p.idle {
		pids = append(pids, pr.cmd.Process.Pid)
	}
	return pids
}

// CloseIdle ends the idle helper processes of helper.
var CloseIdle = closeIdle

// MaxHelpers and MaxIdle are the pool's bounds.
const MaxHelpers, MaxIdle = maxHelpers, maxIdle
