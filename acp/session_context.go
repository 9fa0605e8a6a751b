package acp

import (
	"context"

	"github.com/goose-acp/goose-acp/core/agent"
)

// _goose/unstable/context/report: Desktop's context breakdown dialog
// (newest Desktop, acp/contextReport.ts), decode → agent.ContextReport →
// encode in goose's ContextReportResponse shape.

type contextReportRequest struct {
	SessionID string `json:"sessionId"`
	// UnrolledAgentLoop is Desktop's loop choice; goose-acp has one loop.
	UnrolledAgentLoop *bool `json:"unrolledAgentLoop,omitempty"`
}

type contextModelWire struct {
	Provider     *string `json:"provider"`
	ModelName    string  `json:"modelName"`
	ContextLimit int     `json:"contextLimit"`
}

type contextPartWire struct {
	Label          string  `json:"label"`
	Source         *string `json:"source,omitempty"`
	TokenCount     int     `json:"tokenCount"`
	CharCount      int     `json:"charCount"`
	ContentPreview *string `json:"contentPreview,omitempty"`
}

type contextSegmentWire struct {
	Category       string            `json:"category"`
	Label          string            `json:"label"`
	Source         *string           `json:"source,omitempty"`
	TokenCount     int               `json:"tokenCount"`
	CharCount      int               `json:"charCount"`
	ContentPreview *string           `json:"contentPreview,omitempty"`
	Parts          []contextPartWire `json:"parts"`
}

type contextReportWire struct {
	Model                contextModelWire     `json:"model"`
	EstimatedTotalTokens int                  `json:"estimatedTotalTokens"`
	WireTotalTokens      int                  `json:"wireTotalTokens"`
	LiveTotalTokens      *int                 `json:"liveTotalTokens"`
	Segments             []contextSegmentWire `json:"segments"`
}

func (a *sessionOpsAPI) contextReport(ctx context.Context, req contextReportRequest) (contextReportWire, error) {
	id, err := ensureLoaded(ctx, a.sessions, req.SessionID)
	if err != nil {
		return contextReportWire{}, err
	}
	rep, err := a.agent.Sessions().ContextReport(ctx, id)
	if err != nil {
		return contextReportWire{}, err
	}
	out := contextReportWire{Model: contextModelWire{Provider: rep.Provider, ModelName: rep.Model, ContextLimit: rep.ContextLimit},
		EstimatedTotalTokens: rep.Estimated, WireTotalTokens: rep.Wire, LiveTotalTokens: rep.Live, Segments: []contextSegmentWire{}}
	for _, s := range rep.Segments {
		out.Segments = append(out.Segments, segmentWire(s))
	}
	return out, nil
}

func segmentWire(s agent.ContextSegment) contextSegmentWire {
	w := contextSegmentWire{Category: s.Category, Label: s.Label, Source: s.Source, TokenCount: s.Tokens, CharCount: s.Chars,
		ContentPreview: s.Preview, Parts: []contextPartWire{}}
	for _, p := range s.Parts {
		w.Parts = append(w.Parts, contextPartWire{Label: p.Label, Source: p.Source, TokenCount: p.Tokens, CharCount: p.Chars, ContentPreview: p.Preview})
	}
	return w
}
