package memory_test

import (
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/memory"
	"github.com/goose-acp/goose-acp/core/session/sessiontest"
)

func TestContract(t *testing.T) {
	sessiontest.Run(t, func(t *testing.T, now func() time.Time) session.Store {
		return memory.New(now)
	})
}
