package agent

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// Session operations that goose 1.54's sessions.db (v12..v17) made
// possible and Goose Desktop's _goose/unstable methods call: archive,
// projects, cost per project, a markdown transcript.

// DesktopVisibleTypes are the session types goose's ACP server lists and
// aggregates (ACP_VISIBLE_SESSION_TYPES): user, scheduled and acp.
var DesktopVisibleTypes = []session.Type{session.TypeUser, session.TypeScheduled, session.TypeACP}

// Archive soft-deletes a session: archived_at is set to now and a
// loaded session is unloaded (its extensions stop), as goose does. The
// session and its messages stay; Unarchive brings it back.
func (svc Sessions) Archive(ctx context.Context, id string) error {
	if err := svc.exists(ctx, id); err != nil {
		return err
	}
	_ = svc.a.CloseSession(id)
	now := time.Now().UTC()
	return svc.a.opts.Store.Update(ctx, id, session.Update{ArchivedAt: &now})
}

// Unarchive clears archived_at.
func (svc Sessions) Unarchive(ctx context.Context, id string) error {
	if err := svc.exists(ctx, id); err != nil {
		return err
	}
	var zero time.Time
	return svc.a.opts.Store.Update(ctx, id, session.Update{ArchivedAt: &zero})
}

// SetProject files a session under a Desktop project ("" clears
// it). Like goose, only the listed types can be filed; any other session
// is reported as not found.
func (svc Sessions) SetProject(ctx context.Context, id, projectID string) error {
	s, err := svc.a.opts.Store.Get(ctx, id, false)
	if err != nil {
		return err
	}
	if !slices.Contains(DesktopVisibleTypes, s.SessionType) {
		return fmt.Errorf("%w: %s", session.ErrNotFound, id)
	}
	return svc.a.opts.Store.Update(ctx, id, session.Update{ProjectID: &projectID})
}

// ProjectCost is the cost of the listed sessions of one working directory.
type ProjectCost struct {
	WorkingDir string
	// TotalCost sums accumulated_cost; nil when no session has a cost.
	TotalCost        *float64
	SessionCount     int
	SessionsWithCost int
}

// CostByWorkingDir aggregates accumulated cost per working directory over
// the listed session types (goose's aggregate_session_costs), sorted by
// working directory.
func CostByWorkingDir(ctx context.Context, store SessionReader) ([]ProjectCost, error) {
	groups := map[string]*ProjectCost{}
	cursor := ""
	for {
		page, err := store.List(ctx, session.ListOptions{Types: DesktopVisibleTypes, Limit: 500, Cursor: cursor})
		if err != nil {
			return nil, err
		}
		for _, s := range page.Sessions {
			g := groups[s.WorkingDir]
			if g == nil {
				g = &ProjectCost{WorkingDir: s.WorkingDir}
				groups[s.WorkingDir] = g
			}
			g.SessionCount++
			if s.AccumulatedCost != nil {
				total := *s.AccumulatedCost
				if g.TotalCost != nil {
					total += *g.TotalCost
				}
				g.TotalCost = &total
				g.SessionsWithCost++
			}
		}
		if page.NextCursor == "" {
			break
		}
		cursor = page.NextCursor
	}
	out := make([]ProjectCost, 0, len(groups))
	for _, g := range groups {
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].WorkingDir < out[j].WorkingDir })
	return out, nil
}

// ExportMarkdown renders a stored session as a readable transcript: the
// title, then each user-visible message's text under its role, tool calls
// and results named by their tool.
func ExportMarkdown(ctx context.Context, store SessionReader, id string) (string, error) {
	s, err := store.Get(ctx, id, true)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", markdownTitle(s))
	fmt.Fprintf(&b, "- **Session:** `%s`\n- **Working directory:** `%s`\n", s.ID, s.WorkingDir)
	if !s.CreatedAt.IsZero() {
		fmt.Fprintf(&b, "- **Created:** %s\n", s.CreatedAt.UTC().Format(time.RFC3339))
	}
	b.WriteString("\n---\n")
	for _, m := range s.Conversation {
		if !m.Metadata.UserVisible {
			continue
		}
		writeMarkdownMessage(&b, m)
	}
	return b.String(), nil
}

func markdownTitle(s session.Session) string {
	if strings.TrimSpace(s.Name) != "" {
		return s.Name
	}
	return "Session " + s.ID
}

func writeMarkdownMessage(b *strings.Builder, m conversation.Message) {
	role := "User"
	if m.Role == conversation.RoleAssistant {
		role = "Assistant"
	}
	fmt.Fprintf(b, "\n## %s\n\n", role)
	if text := strings.TrimSpace(m.AsText()); text != "" {
		b.WriteString(text)
		b.WriteString("\n")
	}
	for _, r := range m.ToolRequests() {
		fmt.Fprintf(b, "\n_Tool call:_ `%s`\n", toolRequestName(r))
	}
	for range m.ToolResponses() {
		b.WriteString("\n_Tool result_\n")
	}
}

func toolRequestName(r *conversation.ToolRequest) string {
	if r.ToolCall.Value != nil && r.ToolCall.Value.Name != "" {
		return r.ToolCall.Value.Name
	}
	return "unknown tool"
}
