package google

import (
	"bytes"
	"context"
	"errors"
)

// Gemini's long decode: a reply longer than one request allows stops with
// finishReason CONTINUATION and a continuationToken, and the client sends
// the same request again with that token to get the rest. Chunks may also
// carry checkpoint tokens, so a dropped stream resumes from its last
// checkpoint. genai did this on its own; this file keeps its rules
// (continuation.go in google.golang.org/genai v1.77.0): one reply may take
// several requests ("hops"), their parts form one message, and their usage
// is summed.

const (
	finishUnspecified  = "FINISH_REASON_UNSPECIFIED"
	finishContinuation = "CONTINUATION"
	// maxReconnectsWithoutProgress bounds resumes that yield no content and
	// no new token before giving up.
	maxReconnectsWithoutProgress = 3
)

// continuation is the state of one reply across hops.
type continuation struct {
	usage      *usageMetadata // summed usage of the finished hops
	resume     []byte         // token the next hop starts from
	reconnects int
	lastErr    error // latest hop error since the reply last made progress
	hop        hopState
}

type hopState struct {
	start, token []byte
	gotChunk     bool
	feedback     bool
	content      bool
	finish       string
	// usage is the hop's latest usage (the server's running total for the
	// hop) plus the earlier hops'.
	usage *usageMetadata
}

// start begins a hop and returns the token to send (nil for the first).
func (c *continuation) start() []byte {
	c.hop = hopState{start: c.resume}
	return c.resume
}

// observe records a decoded chunk and adjusts it for the consumer: an
// intermediate finish reason (the hop ends but the reply goes on) is
// cleared, and usage includes the earlier hops'.
func (c *continuation) observe(r *generateResponse) {
	h := &c.hop
	h.gotChunk = true
	if r.hasPromptFeedback() {
		h.feedback = true
	}
	if len(r.Candidates) > 0 && r.Candidates[0] != nil {
		cand := r.Candidates[0]
		if cand.Content != nil && len(cand.Content.Parts) > 0 {
			h.content = true
		}
		final := cand.FinishReason != "" && cand.FinishReason != finishUnspecified
		if final {
			h.finish = cand.FinishReason
		}
		if len(cand.ContinuationToken) > 0 {
			h.token = cand.ContinuationToken
		} else if final && !resumable(cand.FinishReason) {
			h.token = nil
		}
		if final && canResume(h.token, cand.FinishReason, r.hasPromptFeedback()) {
			cand.FinishReason = ""
		}
	}
	if r.UsageMetadata != nil {
		if c.usage != nil {
			r.UsageMetadata = c.usage.plus(r.UsageMetadata)
		}
		h.usage = r.UsageMetadata
	}
}

// end finishes a hop that ended with hopErr (nil for a clean end) and
// reports whether to resume; if not, it returns the error to report, if
// any. A request the API rejected before any chunk is reported at once;
// transport drops and empty hops are retried from the hop's start token,
// at most maxReconnectsWithoutProgress times in a row.
func (c *continuation) end(ctx context.Context, hopErr error) (bool, error) {
	h := &c.hop
	if h.usage != nil {
		c.usage = h.usage
	}
	if hopErr != nil && ctx.Err() != nil {
		return false, hopErr
	}
	var f *failure
	if hopErr != nil && !h.gotChunk && errors.As(hopErr, &f) {
		return false, hopErr
	}
	progress := h.content || len(h.token) > 0 && !bytes.Equal(h.token, h.start)
	if hopErr != nil {
		c.lastErr = hopErr
	} else if progress {
		c.lastErr = nil
	}
	c.resume, c.reconnects = c.next()
	if canResume(c.resume, h.finish, h.feedback) {
		return true, nil
	}
	if hopErr != nil {
		return false, hopErr
	}
	if h.finish == "" && !h.feedback && c.lastErr != nil {
		return false, c.lastErr
	}
	return false, nil
}

// next is the token to resume from after this hop (nil: do not) and the
// updated count of reconnects without progress.
func (c *continuation) next() ([]byte, int) {
	h := &c.hop
	switch {
	case h.feedback:
		return nil, 0
	case h.finish != "":
		if h.finish == finishContinuation && len(h.token) > 0 && !bytes.Equal(h.token, h.start) {
			return h.token, 0
		}
		return nil, c.reconnects
	case len(h.token) > 0 && !bytes.Equal(h.token, h.start):
		return h.token, 0
	case h.content || c.reconnects >= maxReconnectsWithoutProgress:
		return nil, c.reconnects
	}
	return h.start, c.reconnects + 1
}

// resumable reports a finish reason that lets a token continue the reply.
func resumable(finish string) bool {
	return finish == "" || finish == finishUnspecified || finish == finishContinuation
}

func canResume(token []byte, finish string, feedback bool) bool {
	return !feedback && len(token) > 0 && resumable(finish)
}
