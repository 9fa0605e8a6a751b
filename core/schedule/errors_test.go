package schedule

import (
	"fmt"
	"testing"

	"github.com/goose-acp/goose-acp/core/errkind"
)

// The scheduler's errors carry goose's text and their sentinel's kind, so
// a face answers them by kind without knowing the scheduler.
func TestErrorKinds(t *testing.T) {
	_, cronErr := NormalizeCron("* * *")
	for _, c := range []struct {
		err  error
		want errkind.Kind
	}{
		{jobNotFound("nightly"), errkind.NotFound},
		{jobExists("nightly"), errkind.Conflict},
		{cronErr, errkind.Invalid},
		{fmt.Errorf("updating: %w", jobNotFound("nightly")), errkind.NotFound},
	} {
		if got := errkind.Of(c.err); got != c.want {
			t.Errorf("%v: kind %v, want %v", c.err, got, c.want)
		}
	}
	if d := errkind.Detail(jobNotFound("nightly")); d != "Job ID 'nightly' not found." {
		t.Errorf("detail %q", d)
	}
}
