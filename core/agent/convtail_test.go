package agent

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/sqlite"
)

// compactedHistory is a compacted session as goose leaves it: 40 older
// messages (1.25 MiB) the user still sees but the model does not, the
// summary the model sees instead, and its continuation.
func compactedHistory() []conversation.Message {
	var msgs []conversation.Message
	hidden := conversation.Metadata{UserVisible: true, AgentVisible: false}
	for i := range 40 {
		text := fmt.Sprintf("older message %d: %s", i, strings.Repeat("x", 32<<10))
		m := conversation.UserText(0, text)
		if i%2 == 1 {
			m = conversation.AssistantText(0, text)
		}
		m = m.WithID(fmt.Sprintf("old%d", i))
		m.Metadata = hidden
		msgs = append(msgs, m)
	}
	summary := conversation.UserText(0, "summary of the older messages").WithID("summary")
	summary.Metadata = conversation.Metadata{UserVisible: false, AgentVisible: true}
	cont := conversation.AssistantText(0, AutoContinuation).WithID("continuation")
	cont.Metadata = summary.Metadata
	return append(msgs, summary, cont)
}

// tailRun is what a turn after a resume did, for comparing the tail path
// with the whole read.
type tailRun struct {
	request, stored, stats, cachedStats string
	// resumed is the statistics the agent answered right after the
	// resume, resumedStats the sessions.db reads of them it made.
	resumed                 string
	resumedStats, fullReads int
	// summaries is the second turn's summary requests (Complete).
	summaries string
}

func stepsOr(steps []step, def step) []step {
	if steps == nil {
		return []step{def}
	}
	return steps
}

// runAfterResume opens a compacted session in wd, runs one turn, closes it,
// calls between (another process's writes), resumes it and runs the turn
// the result describes. wholeRead forgets the tail mark first (the
// conversation is read as it was before tails).
func runAfterResume(t *testing.T, wd string, wholeRead bool, between func(db *sqlite.Store, id string)) tailRun {
	t.Helper()
	return runAfterResumeWith(t, wd, wholeRead, tailCase{between: between})
}

// tailCase varies runAfterResume: the agent's config, the first turn's
// replies (say "first" when nil), the resume's options and the second
// turn's replies (say "second" when nil).
type tailCase struct {
	between       func(db *sqlite.Store, id string)
	cfg           mapConfig
	first, second []step
	opts          StartOptions
	// reread reads the session whole before the close: the fake's
	// replies are created 0, so a reply after a tool response (created
	// now) is out of goose's order and leaves the cache to the next read.
	reread bool
}

func runAfterResumeWith(t *testing.T, wd string, wholeRead bool, tc tailCase) tailRun {
	t.Helper()
	between := tc.between
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sessions.db")
	now := func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	db, err := sqlite.Open(ctx, path, sqlite.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	rc := &readCounter{Store: db}
	h := newHarnessWith(t, tc.cfg, func(o *Options) { o.Store = rc })
	h.prov.limit = 100_000_000
	h.prov.uniqueIDs = true
	h.start(StartOptions{WorkingDir: wd})
	if err := db.ReplaceConversation(ctx, h.id, compactedHistory()); err != nil {
		t.Fatal(err)
	}
	h.numberedTurn(1, stepsOr(tc.first, say("first"))...)
	if tc.reread {
		if _, err := h.a.opts.Store.Get(ctx, h.id, true); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.a.CloseSession(h.id); err != nil {
		t.Fatal(err)
	}
	c := h.a.convCache()
	c.mu.Lock()
	_, marked := c.marks[h.id]
	if wholeRead {
		delete(c.marks, h.id)
	}
	c.mu.Unlock()
	if !marked {
		t.Fatal("closing a compacted session left no tail mark")
	}
	if between != nil {
		other, err := sqlite.Open(ctx, path, sqlite.Options{Now: now}) // another process
		if err != nil {
			t.Fatal(err)
		}
		between(other, h.id)
		other.Close()
	}
	rc.full, rc.stats = 0, 0
	if _, _, err := h.a.ResumeSession(ctx, h.id, tc.opts); err != nil {
		t.Fatal(err)
	}
	resumed, err := h.a.opts.Store.Get(ctx, h.id, false) // as ACP's resume answer reads it
	if err != nil {
		t.Fatal(err)
	}
	resumedStats := rc.stats
	rc.full = 0
	completesBefore := len(h.prov.completes)
	h.numberedTurn(2, stepsOr(tc.second, say("second"))...)
	run := tailRun{fullReads: rc.full, request: toJSON(t, h.prov.request(h.prov.numRequests()-1)),
		resumed: toJSON(t, resumed), resumedStats: resumedStats, summaries: toJSON(t, h.prov.completes[completesBefore:])}
	stored, err := db.Get(ctx, h.id, true)
	if err != nil {
		t.Fatal(err)
	}
	run.stored = toJSON(t, stored)
	stats, err := db.Get(ctx, h.id, false)
	if err != nil {
		t.Fatal(err)
	}
	cached, err := h.a.opts.Store.Get(ctx, h.id, false)
	if err != nil {
		t.Fatal(err)
	}
	run.stats, run.cachedStats = toJSON(t, stats), toJSON(t, cached)
	return run
}

// TestResumedCompactedSessionReadsItsTail: resuming a compacted session
// and its first turn read only what the model sees (no whole read of the
// hidden history, no statistics read past every message row), and
// everything they answer and do is what the whole read does: the same request to the model byte for byte, the same
// stored conversation, the same session statistics. Another process's
// writes while the session was closed are seen: an append at the end is
// part of the tail, a rewritten history is read whole.
func TestResumedCompactedSessionReadsItsTail(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name                 string
		between              func(db *sqlite.Store, id string)
		wantReads, wantStats int
	}{
		{"closed and resumed", nil, 0, 0},
		{"appended by another process", func(db *sqlite.Store, id string) {
			if err := db.AppendMessage(ctx, id, conversation.UserText(0, "from elsewhere").WithID("elsewhere")); err != nil {
				t.Fatal(err)
			}
		}, 0, 0},
		{"rewritten by another process", func(db *sqlite.Store, id string) {
			s, err := db.Get(ctx, id, true)
			if err != nil {
				t.Fatal(err)
			}
			if err := db.ReplaceConversation(ctx, id, append(s.Conversation[2:], conversation.UserText(0, "after a rewrite").WithID("rw"))); err != nil {
				t.Fatal(err)
			}
		}, 1, 2},
		{"renamed back to the default", func(db *sqlite.Store, id string) {
			name := DefaultSessionName
			if err := db.Update(ctx, id, session.Update{Name: &name}); err != nil {
				t.Fatal(err)
			}
		}, 1, 0}, // the provisional title is the first user message, a hidden one
	} {
		t.Run(tc.name, func(t *testing.T) {
			wd := t.TempDir()
			tail := runAfterResume(t, wd, false, tc.between)
			whole := runAfterResume(t, wd, true, tc.between)
			if whole.fullReads != 1 {
				t.Fatalf("the whole read took %d full reads", whole.fullReads)
			}
			if tail.fullReads != tc.wantReads {
				t.Errorf("the turn after the resume read the whole conversation %d times, want %d", tail.fullReads, tc.wantReads)
			}
			if tail.resumedStats != tc.wantStats {
				t.Errorf("the resume read the statistics from every message row %d times, want %d", tail.resumedStats, tc.wantStats)
			}
			for _, f := range []struct{ what, got, want string }{
				{"request to the model", tail.request, whole.request},
				{"stored session", tail.stored, whole.stored},
				{"session statistics", tail.stats, whole.stats},
				{"statistics the agent answers", tail.cachedStats, whole.stats},
				{"statistics after the resume", tail.resumed, whole.resumed},
			} {
				if f.got != f.want {
					t.Errorf("%s differs from the whole read's: %s", f.what, firstDifference(f.got, f.want))
				}
			}
		})
	}
}

// TestCompactionAfterTailKeepsHistory: a turn that starts from the tail
// and compacts reads the hidden messages first, so the stored
// conversation keeps them (for the user) exactly as the whole read does.
func TestCompactionAfterTailKeepsHistory(t *testing.T) {
	ctx := context.Background()
	overLimit := func(db *sqlite.Store, id string) {
		total := 90_000_000 // over 80% of the fake's 100 M limit
		if err := db.Update(ctx, id, session.Update{Tokens: &session.TokenCounts{Total: &total}}); err != nil {
			t.Fatal(err)
		}
	}
	wd := t.TempDir()
	tail := runAfterResume(t, wd, false, overLimit)
	whole := runAfterResume(t, wd, true, overLimit)
	if tail.fullReads != 1 {
		t.Errorf("the compacting turn read the whole conversation %d times, want 1", tail.fullReads)
	}
	if tail.stored != whole.stored {
		t.Errorf("stored after compaction: %s", firstDifference(tail.stored, whole.stored))
	}
	if tail.request != whole.request {
		t.Errorf("request after compaction: %s", firstDifference(tail.request, whole.request))
	}
	if !strings.Contains(tail.stored, "older message 0:") {
		t.Fatal("the hidden history was lost")
	}
}

// firstDifference shows where got first differs from want.
func firstDifference(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-80)
	return fmt.Sprintf("at byte %d:\n got …%s\nwant …%s", i, got[from:min(len(got), i+80)], want[from:min(len(want), i+80)])
}

// TestRecipeRetryAfterTailKeepsHistory: a recipe retry resets the stored
// conversation to the turn's start, and that start includes the hidden
// messages the tail left out, as the whole read's does.
func TestRecipeRetryAfterTailKeepsHistory(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("checks run through sh")
	}
	retry := tailCase{
		opts:   StartOptions{Recipe: &Recipe{Retry: &recipe.RetryConfig{MaxRetries: 1, Checks: []recipe.SuccessCheck{{Type: "shell", Command: "false"}}}}},
		second: []step{say("second"), say("again")},
	}
	wd := t.TempDir()
	tail := runAfterResumeWith(t, wd, false, retry)
	whole := runAfterResumeWith(t, wd, true, retry)
	if tail.stored != whole.stored {
		t.Errorf("stored after the retry: %s", firstDifference(tail.stored, whole.stored))
	}
	if tail.request != whole.request {
		t.Errorf("request after the retry: %s", firstDifference(tail.request, whole.request))
	}
	if !strings.Contains(tail.stored, "older message 0:") || !strings.Contains(tail.stored, recipe.MaxRetriesMessage(1)) {
		t.Fatal("the retry lost the hidden history or did not run")
	}
}

// TestToolPairSummariesAfterTail: old tool calls the model still sees are
// summarized after a resume as the whole read summarizes them (their
// pairs are looked up among all messages): the same summary requests, the
// same stored conversation and request.
func TestToolPairSummariesAfterTail(t *testing.T) {
	var first []step
	for i := range 12 {
		first = append(first, calls(call(fmt.Sprintf("c%d", i), "tt__echo", map[string]any{"i": i})))
	}
	tc := tailCase{cfg: mapConfig{"GOOSE_TOOL_CALL_CUTOFF": "1"}, first: append(first, say("done")), reread: true}
	wd := t.TempDir()
	tail := runAfterResumeWith(t, wd, false, tc)
	whole := runAfterResumeWith(t, wd, true, tc)
	if tail.summaries != whole.summaries || !strings.Contains(tail.summaries, "tool_request(tt__echo)") {
		t.Errorf("summary requests: %s", firstDifference(tail.summaries, whole.summaries))
	}
	if tail.stored != whole.stored {
		t.Errorf("stored after the summaries: %s", firstDifference(tail.stored, whole.stored))
	}
	if tail.request != whole.request {
		t.Errorf("request after the summaries: %s", firstDifference(tail.request, whole.request))
	}
}
