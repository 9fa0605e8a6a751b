package agent

import (
	"fmt"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// The per-turn context ("MOIM") as goose 1.54 sends it (agents/moim.rs,
// state_machine/inference_preparation.rs): before each provider call of a
// turn the agent composes a <turn-context> block — the time the turn
// started, the working directory, the platform extensions' contributions,
// and the compaction and turn-budget signals once they matter — and, when
// it differs from the turn's last block, appends it to the conversation
// as an agent-only user message. It is stored, so every later request of
// the turn (and of later turns) carries the same bytes, which keeps the
// provider's prompt cache warm; the system prompt's "# Turn Context"
// section tells the model what the block is.
const (
	turnContextTag = "turn-context"
	// minContextForTurnContext: models with a smaller context window get
	// no block (goose's MIN_CONTEXT_FOR_MOIM).
	minContextForTurnContext = 32_000
)

// turnContextText composes the block: the turn's start time (minutes, with
// the UTC offset), the working directory, then each non-empty part after a
// blank line. Values are XML-escaped as goose does.
func turnContextText(start time.Time, wd string, parts []string) string {
	lines := []string{
		"<" + turnContextTag + ">",
		xmlTag("current-time", start.Format("2006-01-02 15:04:00 -07:00")),
		xmlTag("working-directory", wd),
	}
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			lines = append(lines, "", p)
		}
	}
	lines = append(lines, "</"+turnContextTag+">")
	return strings.Join(lines, "\n")
}

func xmlTag(name, value string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
	return "<" + name + ">" + r.Replace(value) + "</" + name + ">"
}

// compactionPart is "~Nk tokens remaining" before auto-compaction, once
// half of the compaction point is used (goose's compaction_part); "" when
// compaction is off or far away.
func compactionPart(total, limit int, threshold float64) string {
	if total <= 0 || limit <= 0 || threshold <= 0 || threshold >= 1 {
		return ""
	}
	at := int(float64(limit) * threshold)
	if at <= 0 || float64(total)/float64(at) < 0.5 {
		return ""
	}
	return xmlTag("compaction", fmt.Sprintf("~%dk tokens remaining", max(at-total, 0)/1000))
}

// turnBudgetPart is "<turn-budget>n/max used</turn-budget>" once half of
// the turn's autonomous budget is spent (goose's turn_budget_part).
func turnBudgetPart(taken, maxTurns int) string {
	if maxTurns <= 0 || taken*2 < maxTurns {
		return ""
	}
	return fmt.Sprintf("<turn-budget>%d/%d used</turn-budget>", taken, maxTurns)
}

// withoutTurnContext drops the <turn-context> messages: requests that are
// not turns of the loop (recipe creation) do not need them.
func withoutTurnContext(msgs []conversation.Message) []conversation.Message {
	return conversation.Conversation(msgs).WithoutTurnContext()
}

// addTurnContext appends the turn's context block before a provider call
// when it changed since the turn's last one; taken is the number of model
// replies the turn has had so far.
func (t *turn) addTurnContext(taken int) error {
	t.s.mu.Lock()
	total, limit := t.s.tokens.Total, t.s.model.Limit()
	t.s.mu.Unlock()
	if limit < minContextForTurnContext {
		return nil
	}
	parts := t.s.mgr.MOIM(t.ctx)
	if total != nil {
		parts = append(parts, compactionPart(*total, limit, t.a.cfg.float("GOOSE_AUTO_COMPACT_THRESHOLD", DefaultCompactionThreshold)))
	}
	parts = append(parts, turnBudgetPart(taken, t.s.maxTurns))
	text := turnContextText(t.started, t.wd, parts)
	if text == t.lastTurnContext {
		return nil
	}
	// Stamped like the message it follows, so goose's order (created,
	// then row id) keeps it right after that message whatever the clocks.
	created := t.a.now().Unix()
	if n := len(t.conv); n > 0 {
		created = t.conv[n-1].Created
	}
	m := conversation.UserText(created, text).WithID(t.a.msgID())
	m.Metadata = conversation.Metadata{AgentVisible: true, TurnContext: true}
	if err := t.persist(m); err != nil {
		return err
	}
	t.lastTurnContext = text
	return nil
}
