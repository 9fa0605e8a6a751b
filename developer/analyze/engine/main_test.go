package engine

import (
	"testing"

	"go.uber.org/goleak"
)

// Directory and focus analyses parse on worker goroutines; none may outlive
// a call.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
