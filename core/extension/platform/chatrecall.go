package platform

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/extension/inproc"
)

const chatRecallInstructions = "Chat Recall searches your past conversations with goose. Use it to find earlier discussions, decisions or code by keyword, or load a past session's messages by id."

// Chat recall limits.
const (
	chatRecallDefaultLimit = 10
	chatRecallMaxLimit     = 50
)

// chatRecallServer is chatrecall's server, one per process; a search
// leaves out the calling session, found by its request's server session.
var chatRecallServer = newSharedServer(ChatRecall, func(sh *sharedServer) *inproc.Server {
	s := newServer(ChatRecall, "Chat Recall", chatRecallInstructions)
	s.AddTool(&mcp.Tool{
		Name:        "chatrecall",
		Description: "Search past conversations by keywords (query) or load one session's messages (session_id). Optional after_date / before_date (YYYY-MM-DD) narrow a search; limit defaults to 10 (max 50).",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","description":"Keywords to search for"},"session_id":{"type":"string","description":"Load this session's messages"},"limit":{"type":"integer","description":"Maximum results (default 10, max 50)"},"after_date":{"type":"string","description":"Only sessions updated on or after this date (YYYY-MM-DD)"},"before_date":{"type":"string","description":"Only sessions updated before this date (YYYY-MM-DD)"}}}`),
		Annotations: &mcp.ToolAnnotations{Title: "Recall past chats", ReadOnlyHint: true, DestructiveHint: boolp(false), OpenWorldHint: boolp(false)},
	}, sh.handle(func(ctx context.Context, b *binding, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return b.d.recall(ctx, b.env.SessionID, req)
	}))
	return s
})

func (d Deps) chatRecall(ctx context.Context, env extension.Env) (extension.Platform, error) {
	return chatRecallServer.platform(&binding{d: d, env: env}), nil
}

func (d Deps) recall(ctx context.Context, current string, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var p struct {
		Query     string `json:"query"`
		SessionID string `json:"session_id"`
		Limit     int    `json:"limit"`
		After     string `json:"after_date"`
		Before    string `json:"before_date"`
	}
	if err := decode(req, &p); err != nil {
		return errorResult("Invalid arguments: %v", err), nil
	}
	limit := p.Limit
	if limit <= 0 {
		limit = chatRecallDefaultLimit
	}
	limit = min(limit, chatRecallMaxLimit)
	if p.SessionID != "" {
		return d.loadSession(ctx, p.SessionID, limit)
	}
	if strings.TrimSpace(p.Query) == "" {
		return errorResult("Provide either query or session_id"), nil
	}
	after, err1 := parseDate(p.After)
	before, err2 := parseDate(p.Before)
	if err1 != nil || err2 != nil {
		return errorResult("Dates must be YYYY-MM-DD"), nil
	}
	hits, err := d.Store.Search(ctx, p.Query, limit+1)
	if err != nil {
		return errorResult("Search failed: %v", err), nil
	}
	var b strings.Builder
	n := 0
	for _, h := range hits {
		if h.Session.ID == current || n >= limit {
			continue
		}
		if (!after.IsZero() && h.Session.UpdatedAt.Before(after)) || (!before.IsZero() && !h.Session.UpdatedAt.Before(before)) {
			continue
		}
		n++
		fmt.Fprintf(&b, "Session %s (%s) — %s\n", h.Session.ID, h.Session.UpdatedAt.Format("2006-01-02"), h.Session.Name)
		for _, s := range h.Snippets {
			fmt.Fprintf(&b, "  > %s\n", oneLine(s, 300))
		}
	}
	if n == 0 {
		return textResult(fmt.Sprintf("No past conversations found for %q.", p.Query)), nil
	}
	return textResult(fmt.Sprintf("Found %d session(s):\n\n%s", n, b.String())), nil
}

func (d Deps) loadSession(ctx context.Context, id string, limit int) (*mcp.CallToolResult, error) {
	sess, err := d.Store.Get(ctx, id, true)
	if err != nil {
		return errorResult("Session '%s' not found", id), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Session %s: %s (%s)\n\n", sess.ID, sess.Name, sess.WorkingDir)
	msgs := sess.Conversation
	if max := limit * 10; len(msgs) > max {
		msgs = msgs[len(msgs)-max:]
	}
	for _, m := range msgs {
		if !m.Metadata.UserVisible {
			continue
		}
		if t := strings.TrimSpace(m.AsText()); t != "" {
			fmt.Fprintf(&b, "[%s]: %s\n", m.Role, oneLine(t, 2000))
		}
	}
	return textResult(b.String()), nil
}

func parseDate(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	return time.Parse("2006-01-02", s)
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
