package agent

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/session"
)

// Tool-pair summarization (goose ≤ 1.54's context_mgmt): once a session
// holds many tool calls, the oldest ones — a batch of ten at a time, never
// the current turn's — are each replaced by a one-line summary the model
// writes, long before the whole conversation needs compacting. The pair's
// request and response stay for the user (agent-invisible); the summary
// is an agent-only user message stored right after them. It runs at most
// once per turn, beside the turn's provider call, and is on unless
// GOOSE_TOOL_PAIR_SUMMARIZATION is false.

// toolPairBatch is how many tool calls one round summarizes.
const toolPairBatch = 10

// ToolPairSummaryPrompt is the system prompt of a summary request,
// carrying goose's (context_mgmt/mod.rs summarize_tool_call).
const ToolPairSummaryPrompt = `Summarize a tool call and its response in one message, so the conversation keeps what happened in fewer tokens.

Reply with a single message saying what happened. A tool call usually asks for something with a set of parameters, and its result is often structured output: a call might look up a project on GitHub and get a JSON document back. For that you could reply with something like:

"A call to GitHub fetched the project's status"

if that is what it was.`

// toolCallCutoff is how many tool calls a session keeps whole before the
// oldest are summarized (goose's compute_tool_call_cutoff): 3 per 20k
// tokens of the context up to the compaction point, between 10 and 500.
func toolCallCutoff(contextLimit int, threshold float64) int {
	if threshold <= 0 || threshold > 1 {
		threshold = DefaultCompactionThreshold
	}
	effective := int(float64(contextLimit) * threshold)
	return min(max(3*effective/20_000, 10), 500)
}

// toolIDsToSummarize is the next batch (goose's tool_ids_to_summarize):
// the oldest agent-visible tool calls, once more than cutoff plus a batch
// of them lie before the protected last ones.
func toolIDsToSummarize(conv []conversation.Message, cutoff, protect int) []string {
	var ids []string
	for _, m := range conv {
		if !m.Metadata.AgentVisible {
			continue
		}
		for _, r := range m.ToolRequests() {
			ids = append(ids, r.ID)
		}
	}
	if len(ids)-protect <= cutoff+toolPairBatch {
		return nil
	}
	return ids[:toolPairBatch]
}

// toolPairSummary is one summarized call: its summary message and the
// stored messages holding its request and response.
type toolPairSummary struct {
	summary conversation.Message
	pair    []conversation.Message
}

// toolPairs is one turn's tool-pair summarization.
type toolPairs struct {
	t *turn
	// started: the turn already summarized (at most once per turn).
	started bool
}

// start summarizes the next batch of the conversation as it stands,
// unless this turn already did or the feature is off; the returned channel
// delivers the summaries once (nil: nothing started). protect is the
// number of this turn's tool calls.
func (tp *toolPairs) start(protect int) <-chan []toolPairSummary {
	t := tp.t
	if tp.started || t.prov == nil || tp.off() {
		return nil
	}
	t.s.mu.Lock()
	limit := t.s.model.Limit()
	t.s.mu.Unlock()
	cutoff := t.a.cfg.int("GOOSE_TOOL_CALL_CUTOFF", toolCallCutoff(limit, t.a.cfg.float("GOOSE_AUTO_COMPACT_THRESHOLD", DefaultCompactionThreshold)))
	if len(toolIDsToSummarize(t.conv, cutoff, protect)) == 0 {
		return nil
	}
	// A pair is looked up among all messages (its request may be hidden).
	if err := t.tail.expand(t); err != nil {
		t.a.log.Warn("tool pair summaries skipped", "session", t.s.id, "error", err)
		return nil
	}
	conv := slices.Clone(t.conv)
	ids := toolIDsToSummarize(conv, cutoff, protect)
	tp.started = true
	out := make(chan []toolPairSummary, 1)
	ctx, prov := t.ctx, t.prov
	go func() {
		var done []toolPairSummary
		hidden := map[string]bool{}
		for _, id := range ids {
			pair, ok := toolPair(conv, id)
			if !ok || slices.ContainsFunc(pair, func(m conversation.Message) bool { return hidden[m.IDOrEmpty()] }) {
				continue
			}
			summary, err := tp.summarize(ctx, prov, pair)
			if err != nil {
				t.a.log.Warn("summarizing a tool call failed", "session", t.s.id, "tool_call", id, "error", err)
				continue
			}
			for _, m := range pair {
				hidden[m.IDOrEmpty()] = true
			}
			done = append(done, toolPairSummary{summary: summary, pair: pair})
		}
		out <- done
	}()
	return out
}

func (tp *toolPairs) off() bool {
	v, ok := tp.t.a.cfg.lookup("GOOSE_TOOL_PAIR_SUMMARIZATION")
	return ok && (strings.EqualFold(strings.TrimSpace(v), "false") || strings.TrimSpace(v) == "0")
}

// toolPair finds the two stored messages holding tool call id's request
// and response; false unless there are exactly two, with ids, answering
// the same calls (a message with sibling calls answered elsewhere is left
// alone, as goose does).
func toolPair(conv []conversation.Message, id string) ([]conversation.Message, bool) {
	var pair []conversation.Message
	for _, m := range conv {
		if m.ID == nil {
			continue
		}
		holds := slices.ContainsFunc(m.ToolRequests(), func(r *conversation.ToolRequest) bool { return r.ID == id }) ||
			slices.ContainsFunc(m.ToolResponses(), func(r *conversation.ToolResponse) bool { return r.ID == id })
		if holds {
			pair = append(pair, m)
		}
	}
	if len(pair) != 2 {
		return nil, false
	}
	var reqs, resps []string
	for _, m := range pair {
		for _, r := range m.ToolRequests() {
			reqs = append(reqs, r.ID)
		}
		for _, r := range m.ToolResponses() {
			resps = append(resps, r.ID)
		}
	}
	slices.Sort(reqs)
	slices.Sort(resps)
	return pair, slices.Equal(reqs, resps)
}

// summarize asks the model for the pair's summary: an agent-only user
// message stamped like the pair's response.
func (tp *toolPairs) summarize(ctx context.Context, p provider.Provider, pair []conversation.Message) (conversation.Message, error) {
	a := tp.t.a
	req := provider.Request{System: ToolPairSummaryPrompt, Messages: []conversation.Message{
		conversation.UserText(a.now().Unix(), renderForSummary(pair)),
	}}
	m, _, err := p.Complete(ctx, req)
	if err != nil {
		return conversation.Message{}, err
	}
	m.Role = conversation.RoleUser
	m.Created = pair[len(pair)-1].Created
	m.Metadata = conversation.Metadata{AgentVisible: true}
	m.ID = nil
	return m.WithID(a.msgID()), nil
}

// apply waits for the summaries (none when the turn was cancelled) and
// stores them: each pair hidden from the model, its summary added after
// it.
func (tp *toolPairs) apply(ch <-chan []toolPairSummary) error {
	t := tp.t
	if ch == nil {
		return nil
	}
	done := <-ch
	if t.ctx.Err() != nil {
		return nil
	}
	ctx := context.WithoutCancel(t.ctx)
	for _, s := range done {
		for _, m := range s.pair {
			md := m.Metadata
			md.AgentVisible = false
			if err := tp.setMetadata(ctx, m, md); err != nil {
				return err
			}
		}
		if err := t.a.opts.Store.AppendMessage(ctx, t.s.id, s.summary); err != nil {
			return err
		}
		t.conv = insertInOrder(t.conv, s.summary)
	}
	return nil
}

// setMetadata changes one stored message's metadata, in place when the
// store can, else by rewriting the conversation.
func (tp *toolPairs) setMetadata(ctx context.Context, m conversation.Message, md conversation.Metadata) error {
	t := tp.t
	i := slices.IndexFunc(t.conv, func(c conversation.Message) bool { return c.ID != nil && *c.ID == m.IDOrEmpty() })
	if i < 0 {
		return nil
	}
	t.conv[i].Metadata = md
	if ms, ok := t.a.opts.Store.(session.MetadataSetter); ok {
		err := ms.SetMessageMetadata(ctx, t.s.id, m.IDOrEmpty(), md)
		if !errors.Is(err, errMetadataUnsupported) {
			return err
		}
	}
	return t.a.opts.Store.ReplaceConversation(ctx, t.s.id, t.conv)
}

// countToolCalls counts the tool requests of msgs.
func countToolCalls(msgs []conversation.Message) int {
	n := 0
	for _, m := range msgs {
		n += len(m.ToolRequests())
	}
	return n
}

// insertInOrder puts m where goose's order (created, then insertion) puts
// it: after every message created at or before it.
func insertInOrder(conv []conversation.Message, m conversation.Message) []conversation.Message {
	i := len(conv)
	for i > 0 && conv[i-1].Created > m.Created {
		i--
	}
	return slices.Insert(conv, i, m)
}
