package agent

import (
	"testing"

	"go.uber.org/goleak"
)

// The opencensus worker is started by a package init (pulled in through
// the provider registry's Google backend), not by anything under test.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("go.opencensus.io/stats/view.(*worker).start"))
}
