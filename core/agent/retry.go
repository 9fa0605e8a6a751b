package agent

import (
	"fmt"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/recipe"
)

// RetryErrorFormat is goose's text when the retry logic itself fails.
const RetryErrorFormat = "Retry logic encountered an error: %s"

// retryOutcome is what the recipe retry logic decided.
type retryOutcome int

const (
	retrySkipped retryOutcome = iota
	retryPassed
	retryAgain
	retryExhausted
	retryFailed
)

// recipeRetry runs goose's retry step when the model stopped calling
// tools: success checks; on failure the on_failure command and a reset
// of the agent's view to the turn's initial messages, up to max_retries.
func (t *turn) recipeRetry() retryOutcome {
	t.s.mu.Lock()
	r := t.s.recipe
	t.s.mu.Unlock()
	if r == nil || r.Retry == nil || r.Retry.MaxRetries <= 0 {
		return retrySkipped
	}
	cfg := *r.Retry
	getenv := t.a.opts.Getenv
	passed, err := recipe.RunChecks(t.ctx, cfg, getenv)
	if err != nil {
		t.retryError(err)
		return retryFailed
	}
	if passed {
		return retryPassed
	}
	if t.retries >= cfg.MaxRetries {
		_ = t.persistAndEmit(t.assistantText(recipe.MaxRetriesMessage(cfg.MaxRetries)))
		return retryExhausted
	}
	if err := recipe.RunOnFailure(t.ctx, cfg, getenv); err != nil {
		t.retryError(err)
		return retryFailed
	}
	t.retries++
	t.conv = append([]conversation.Message(nil), t.initial...)
	if t.s.final != nil {
		t.s.final.consume()
	}
	t.s.repetition.Reset()
	return retryAgain
}

func (t *turn) retryError(err error) {
	if t.ctx.Err() != nil {
		return
	}
	_ = t.persistAndEmit(t.assistantText(fmt.Sprintf(RetryErrorFormat, err)))
}
