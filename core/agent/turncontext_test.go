package agent

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
)

// turnContexts are the <turn-context> messages of the stored conversation.
func turnContexts(h *harness) []conversation.Message {
	var out []conversation.Message
	for _, m := range h.store.rawConversationOf(h.id) {
		if m.Metadata.TurnContext {
			out = append(out, m)
		}
	}
	return out
}

// goose 1.54 appends the turn context after the prompt, stores it
// (agent-only, marked turnContext) and sends the same bytes on every
// request of the turn: the tool turn's second request carries the block
// the first one did, and nothing is added for it.
func TestTurnContextIsStoredAndStableForTheTurn(t *testing.T) {
	h := newHarness(t, nil, calls(call("c1", "tt__echo", map[string]any{"q": 1})), say("done"))
	wd := t.TempDir()
	h.start(StartOptions{WorkingDir: wd})
	h.reply(context.Background(), "go", nil)
	want := "<turn-context>\n<current-time>2026-01-02 03:04:00 +00:00</current-time>\n<working-directory>" + wd + "</working-directory>\n</turn-context>"
	tc := turnContexts(h)
	if len(tc) != 1 || tc[0].AsText() != want || tc[0].Role != conversation.RoleUser ||
		tc[0].Metadata != (conversation.Metadata{AgentVisible: true, TurnContext: true}) {
		t.Fatalf("turn contexts = %s", toJSON(t, tc))
	}
	raw := h.store.rawConversationOf(h.id)
	if raw[1].AsText() != want || raw[0].AsText() != "go" {
		t.Fatalf("the block does not follow the prompt: %s", toJSON(t, raw))
	}
	for i := range 2 {
		first := h.prov.request(i).Messages[0]
		if first.Role != conversation.RoleUser || first.AsText() != "go\n"+want {
			t.Fatalf("request %d starts with %s", i, toJSON(t, first))
		}
	}
	// The next turn gets a block of its own; the old one stays.
	h.prov.mu.Lock()
	h.prov.steps = append(h.prov.steps, say("again"))
	h.prov.mu.Unlock()
	h.reply(context.Background(), "more", nil)
	if tc := turnContexts(h); len(tc) != 2 {
		t.Fatalf("turn contexts after two turns = %d", len(tc))
	}
	last := h.prov.request(2).Messages
	if got := last[len(last)-1].AsText(); got != "more\n"+want {
		t.Fatalf("second turn ends with %q", got)
	}
}

// Once half of the turn's autonomous budget is used the block says how
// much, and a changed block is appended before the call that needs it.
func TestTurnBudgetSignal(t *testing.T) {
	steps := []step{}
	for i := range 3 {
		steps = append(steps, calls(call(fmt.Sprintf("c%d", i), "tt__echo", map[string]any{"q": i})))
	}
	h := newHarness(t, nil, append(steps, say("done"))...)
	h.start(StartOptions{MaxTurns: 4})
	h.reply(context.Background(), "go", nil)
	var budgets []string
	for _, m := range turnContexts(h) {
		_, b, _ := strings.Cut(m.AsText(), "\n\n")
		budgets = append(budgets, strings.TrimSuffix(b, "\n</turn-context>"))
	}
	if strings.Join(budgets, "|") != "|<turn-budget>2/4 used</turn-budget>|<turn-budget>3/4 used</turn-budget>" {
		t.Fatalf("budgets = %q", budgets)
	}
	// Each request carries the blocks appended so far; the last one is the
	// newest (3 of 4 replies used).
	msgs := h.prov.request(3).Messages
	if got := msgs[len(msgs)-1].AsText(); !strings.HasSuffix(got, "<turn-budget>3/4 used</turn-budget>\n</turn-context>") {
		t.Fatalf("fourth request ends with %q", got)
	}
}

// The compaction signal appears once half of the way to auto-compaction is
// used: the last call's 60k of 100k tokens, compaction at 80 %.
func TestCompactionSignal(t *testing.T) {
	h := newHarness(t, nil, step{text: []string{"first"}, usage: &provider.Usage{TotalTokens: provider.Int(60_000)}}, say("second"))
	h.prov.limit = 100_000
	h.start(StartOptions{})
	h.reply(context.Background(), "one", nil)
	h.reply(context.Background(), "two", nil)
	tc := turnContexts(h)
	if len(tc) != 2 || strings.Contains(tc[0].AsText(), "<compaction>") ||
		!strings.Contains(tc[1].AsText(), "\n\n<compaction>~20k tokens remaining</compaction>\n</turn-context>") {
		t.Fatalf("turn contexts = %s", toJSON(t, tc))
	}
}

func TestCompactionPart(t *testing.T) {
	for _, c := range []struct {
		total, limit int
		th           float64
		want         string
	}{
		{40_000, 100_000, 0.8, "<compaction>~40k tokens remaining</compaction>"},
		{39_999, 100_000, 0.8, ""},
		{90_000, 100_000, 0.8, "<compaction>~0k tokens remaining</compaction>"},
		{60_000, 100_000, 0, ""},
		{60_000, 100_000, 1, ""},
		{0, 100_000, 0.8, ""},
	} {
		if got := compactionPart(c.total, c.limit, c.th); got != c.want {
			t.Errorf("compactionPart(%d, %d, %v) = %q, want %q", c.total, c.limit, c.th, got, c.want)
		}
	}
	if got := turnBudgetPart(49, 100); got != "" {
		t.Errorf("budget at 49/100 = %q", got)
	}
	if got := turnBudgetPart(50, 100); got != "<turn-budget>50/100 used</turn-budget>" {
		t.Errorf("budget at 50/100 = %q", got)
	}
}

// Below 32k tokens of context goose sends no turn context.
func TestNoTurnContextForSmallContexts(t *testing.T) {
	h := newHarness(t, nil, say("hi"))
	h.prov.limit = 16_000
	h.start(StartOptions{})
	h.reply(context.Background(), "go", nil)
	if tc := turnContexts(h); len(tc) != 0 {
		t.Fatalf("turn contexts = %s", toJSON(t, tc))
	}
	if got := h.prov.request(0).Messages[0].AsText(); got != "go" {
		t.Fatalf("request = %q", got)
	}
}

// Values are XML-escaped, extension parts follow after a blank line.
func TestTurnContextText(t *testing.T) {
	got := turnContextText(time.Date(2026, 1, 2, 3, 4, 59, 0, time.UTC), "/w/<a&b>", []string{"Current tasks and notes:\n- [ ] x", "", " "})
	want := "<turn-context>\n<current-time>2026-01-02 03:04:00 +00:00</current-time>\n<working-directory>/w/&lt;a&amp;b&gt;</working-directory>\n\nCurrent tasks and notes:\n- [ ] x\n</turn-context>"
	if got != want {
		t.Fatalf("got %q", got)
	}
}
