package providertest

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that no server or stream goroutine outlives the tests of
// any format in this package.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
