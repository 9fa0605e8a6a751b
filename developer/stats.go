package developer

import (
	"sync/atomic"
	"time"

	"github.com/goose-acp/goose-acp/developer/shellrun"
)

// ShellStats counts shell calls and their latency. Pass one in
// Options.Stats to read it; all fields are safe for concurrent use.
type ShellStats struct {
	Started     atomic.Int64
	Succeeded   atomic.Int64 // exit code 0
	Failed      atomic.Int64 // non-zero exit
	Cancelled   atomic.Int64
	TimedOut    atomic.Int64
	SpawnErrors atomic.Int64
	// TotalNanos is the summed wall time of finished calls.
	TotalNanos atomic.Int64
}

// record books one finished run.
func (st *ShellStats) record(res *shellrun.Result) {
	st.TotalNanos.Add(int64(res.Duration))
	switch {
	case res.Cancelled:
		st.Cancelled.Add(1)
	case res.TimedOut:
		st.TimedOut.Add(1)
	case res.ExitCode != nil && *res.ExitCode == 0:
		st.Succeeded.Add(1)
	default:
		st.Failed.Add(1)
	}
}

// MeanLatency is the average wall time of finished calls.
func (st *ShellStats) MeanLatency() time.Duration {
	n := st.Succeeded.Load() + st.Failed.Load() + st.Cancelled.Load() + st.TimedOut.Load()
	if n == 0 {
		return 0
	}
	return time.Duration(st.TotalNanos.Load() / n)
}
