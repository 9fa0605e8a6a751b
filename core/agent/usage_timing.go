package agent

import (
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// callTiming times one provider call for the usage report: from the
// request to the first message chunk and to the usage.
type callTiming struct {
	start, firstAt time.Time
	elapsed, ttft  time.Duration
}

func (c *callTiming) first(now time.Time) {
	if c.firstAt.IsZero() {
		c.firstAt = now
	}
}

// done returns the timing as of now (the usage chunk).
func (c callTiming) done(now time.Time) callTiming {
	c.elapsed = now.Sub(c.start)
	if !c.firstAt.IsZero() {
		c.ttft = c.firstAt.Sub(c.start)
	}
	return c
}

// streamMessageID is the id of the reply being streamed: the one given to
// id-less chunks, else the last streamed message's own.
func streamMessageID(reply conversation.Conversation, streamID string) string {
	if streamID != "" {
		return streamID
	}
	if n := len(reply); n > 0 {
		return reply[n-1].IDOrEmpty()
	}
	return ""
}
