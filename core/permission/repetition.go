package permission

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// RepetitionFindingID is goose's finding id for a repetition denial.
const RepetitionFindingID = "REP-001"

// RepetitionInspector denies a call once the same tool with identical
// arguments has been called more than Max times in a row. Max 0 disables
// it (goose's default). Inspect does not advance the count; Record does,
// for each call that actually runs.
type RepetitionInspector struct {
	Max int

	mu     sync.Mutex
	last   string
	repeat int
}

func (r *RepetitionInspector) Name() string  { return RepetitionInspectorName }
func (r *RepetitionInspector) Enabled() bool { return r.Max > 0 }

func callKey(c Call) string {
	b, _ := json.Marshal(c.Args) // map keys are sorted: identical args, identical key
	return c.Name + "\x00" + string(b)
}

// Inspect implements Inspector, checking each call against a copy of the
// state advanced by the calls before it in the batch.
func (r *RepetitionInspector) Inspect(_ context.Context, calls []Call, _ []conversation.Message) ([]Result, error) {
	r.mu.Lock()
	last, repeat := r.last, r.repeat
	r.mu.Unlock()
	var out []Result
	for _, c := range calls {
		k := callKey(c)
		if k == last {
			repeat++
		} else {
			last, repeat = k, 1
		}
		if repeat > r.Max {
			out = append(out, Result{
				RequestID: c.ID, Action: Deny, Confidence: 1, Inspector: RepetitionInspectorName,
				Reason:    fmt.Sprintf("Tool '%s' has exceeded maximum repetitions", c.Name),
				FindingID: RepetitionFindingID,
			})
		}
	}
	return out, nil
}

// Record counts a call that ran.
func (r *RepetitionInspector) Record(c Call) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if k := callKey(c); k == r.last {
		r.repeat++
	} else {
		r.last, r.repeat = k, 1
	}
}

// Reset clears the count (recipe retries do this).
func (r *RepetitionInspector) Reset() {
	r.mu.Lock()
	r.last, r.repeat = "", 0
	r.mu.Unlock()
}
