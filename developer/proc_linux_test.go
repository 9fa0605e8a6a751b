//go:build linux

package developer

import (
	"os"

	"github.com/goose-acp/goose-acp/internal/proctree"
)

// The test binary is its own shell supervisor, as goose-acp is, so every
// shell test here runs the way the agent does.
func init() { proctree.Init(os.Args) }
