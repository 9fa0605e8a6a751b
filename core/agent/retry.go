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
// of the conversation (the agent's view and the stored one, as goose
// replaces the session's conversation) to the turn's initial messages, up
// to max_retries.
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
	if err := t.tail.expand(t); err != nil {
		t.retryError(err)
		return retryFailed
	}
	if err := t.a.opts.Store.ReplaceConversation(t.ctx, t.s.id, t.initial); err != nil {
		t.retryError(err)
		return retryFailed
	}
	t.conv = append([]conversation.Message(nil), t.initial...)
	t.lastTurnContext = ""
	if t.s.final != nil {
		t.s.final.consume()
	}
	t.s.repetition.Reset()
	t.emit(RetryEvent{Attempt: t.retries, MaxRetries: cfg.MaxRetries})
	t.emit(HistoryReplacedEvent{Conversation: append([]conversation.Message(nil), t.initial...)})
	return retryAgain
}

// RetryEvent reports that a recipe's success checks failed and the turn
// starts again from its initial messages (attempt of max_retries). The
// stored conversation was reset too; a HistoryReplacedEvent follows.
type RetryEvent struct{ Attempt, MaxRetries int }

func (RetryEvent) isEvent() {}

func (t *turn) retryError(err error) {
	if t.ctx.Err() != nil {
		return
	}
	_ = t.persistAndEmit(t.assistantText(fmt.Sprintf(RetryErrorFormat, err)))
}
