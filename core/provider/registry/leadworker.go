package registry

import (
	"context"
	"iter"
	"log/slog"
	"slices"
	"strings"
	"sync"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
)

// LeadWorkerSettings are goose's lead/worker knobs.
type LeadWorkerSettings struct {
	// LeadTurns: replies served by the lead before the worker takes over
	// (GOOSE_LEAD_TURNS, default 3).
	LeadTurns int
	// FailureThreshold: consecutive worker replies showing task failure
	// before falling back to the lead (GOOSE_LEAD_FAILURE_THRESHOLD, 2).
	FailureThreshold int
	// FallbackTurns: replies the lead serves in fallback mode
	// (GOOSE_LEAD_FALLBACK_TURNS, 2).
	FallbackTurns int
}

// LeadWorker is goose's lead/worker provider: a stronger lead model for
// the first turns, then a cheaper worker, falling back to the lead after
// repeated task failures. A worker that fails outright (before producing
// anything) is retried once on the lead. Unlike goose it keeps streaming
// instead of collecting each reply.
type LeadWorker struct {
	lead, worker provider.Provider
	set          LeadWorkerSettings
	log          *slog.Logger

	mu                sync.Mutex
	turns, failures   int
	fallback          bool
	fallbackRemaining int
}

// NewLeadWorker wraps lead and worker.
func NewLeadWorker(lead, worker provider.Provider, set LeadWorkerSettings, log *slog.Logger) *LeadWorker {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &LeadWorker{lead: lead, worker: worker, set: set, log: log}
}

// Metadata reports the lead's metadata, as goose does.
func (lw *LeadWorker) Metadata() provider.Metadata { return lw.lead.Metadata() }

// ModelConfig reports the lead's model, as goose does.
func (lw *LeadWorker) ModelConfig() model.Config { return lw.lead.ModelConfig() }

// Models returns the lead and worker model names.
func (lw *LeadWorker) Models() (lead, worker string) {
	return lw.lead.ModelConfig().ModelName, lw.worker.ModelConfig().ModelName
}

// Settings returns the lead/worker settings.
func (lw *LeadWorker) Settings() LeadWorkerSettings { return lw.set }

// ActiveModel is the model the next reply will use.
func (lw *LeadWorker) ActiveModel() string {
	p, _ := lw.active()
	return p.ModelConfig().ModelName
}

// Reset starts counting turns afresh (a new conversation).
func (lw *LeadWorker) Reset() {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	lw.turns, lw.failures, lw.fallback, lw.fallbackRemaining = 0, 0, false, 0
}

func (lw *LeadWorker) active() (provider.Provider, bool) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if lw.turns < lw.set.LeadTurns || lw.fallback {
		return lw.lead, true
	}
	return lw.worker, false
}

// Stream implements provider.Provider. Each side uses its own model
// config; a request's model override is ignored, as in goose.
func (lw *LeadWorker) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Chunk, error] {
	return func(yield func(provider.Chunk, error) bool) {
		req.Model = nil
		p, isLead := lw.active()
		var reply conversation.Conversation
		yielded, failed, stopped := lw.pipe(ctx, p, req, &reply, yield)
		if stopped {
			return
		}
		if failed != nil && !yielded && !isLead && ctx.Err() == nil {
			lw.log.Warn("worker failed; retrying with the lead model", "err", failed)
			var leadErr error
			_, leadErr, stopped = lw.pipe(ctx, lw.lead, req, &reply, yield)
			if stopped {
				return
			}
			if leadErr == nil {
				failed = nil
			}
		}
		if failed != nil {
			yield(provider.Chunk{}, failed) // technical failures do not count as turns
			return
		}
		if last, ok := reply.Last(); ok {
			lw.record(last)
		} else {
			lw.record(conversation.Message{})
		}
	}
}

// pipe forwards p's stream, collecting the reply; stopped means the
// consumer quit.
func (lw *LeadWorker) pipe(ctx context.Context, p provider.Provider, req provider.Request, reply *conversation.Conversation,
	yield func(provider.Chunk, error) bool) (yielded bool, failed error, stopped bool) {
	for c, err := range p.Stream(ctx, req) {
		if err != nil {
			return yielded, err, false
		}
		yielded = true
		if c.Message != nil {
			reply.Push(*c.Message)
		}
		if !yield(c, nil) {
			return yielded, nil, true
		}
	}
	return yielded, nil, false
}

// record updates turn and failure tracking after a successful reply.
func (lw *LeadWorker) record(m conversation.Message) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if taskFailed(m) {
		lw.failures++
		if lw.turns >= lw.set.LeadTurns && !lw.fallback && lw.failures >= lw.set.FailureThreshold {
			lw.fallback, lw.fallbackRemaining, lw.failures = true, lw.set.FallbackTurns, 0
			lw.log.Warn("switching to lead model after consecutive task failures", "turns", lw.set.FallbackTurns)
		}
	} else {
		lw.failures = 0
		if lw.fallback {
			lw.fallbackRemaining--
			if lw.fallbackRemaining <= 0 {
				lw.fallback = false
				lw.log.Info("switching back to worker model")
			}
		}
	}
	lw.turns++
}

// Complete implements provider.Provider.
func (lw *LeadWorker) Complete(ctx context.Context, req provider.Request) (conversation.Message, provider.ProviderUsage, error) {
	return provider.Collect(ctx, lw, req)
}

// FetchModels lists both sides' models, sorted and deduplicated.
func (lw *LeadWorker) FetchModels(ctx context.Context) ([]string, error) {
	a, err := lw.lead.FetchModels(ctx)
	if err != nil {
		return nil, err
	}
	b, err := lw.worker.FetchModels(ctx)
	if err != nil {
		return nil, err
	}
	all := append(a, b...)
	slices.Sort(all)
	return slices.Compact(all), nil
}

// taskFailed is goose's detect_task_failures.
func taskFailed(m conversation.Message) bool {
	for _, c := range m.Content {
		switch {
		case c.ToolRequest != nil && !c.ToolRequest.ToolCall.IsOK():
			return true
		case c.ToolResponse != nil && !c.ToolResponse.ToolResult.IsOK():
			return true
		case c.ToolResponse != nil && hasErrorIndicators(c.ToolResponse.ToolResult.Value.Content):
			return true
		case c.Text != nil && hasCorrectionPattern(c.Text.Text):
			return true
		}
	}
	return false
}

var errorIndicators = []string{"error:", "failed:", "exception:", "traceback", "syntax error", "permission denied",
	"file not found", "command not found", "compilation failed", "test failed", "assertion failed"}

func hasErrorIndicators(blocks []conversation.ToolContent) bool {
	for _, b := range blocks {
		if b.Type != "text" {
			continue
		}
		lower := strings.ToLower(b.Text)
		for _, s := range errorIndicators {
			if strings.Contains(lower, s) {
				return true
			}
		}
	}
	return false
}

var correctionPhrases = []string{"that's wrong", "that's not right", "that doesn't work", "try again", "let me correct",
	"actually, ", "no, that's", "that's incorrect", "fix this", "this is broken", "this doesn't"}

func hasCorrectionPattern(text string) bool {
	lower := strings.ToLower(text)
	for _, s := range correctionPhrases {
		if strings.Contains(lower, s) {
			return true
		}
	}
	return strings.HasPrefix(lower, "no,") || strings.HasPrefix(lower, "wrong") || strings.HasPrefix(lower, "incorrect")
}

// leadWorker builds goose's lead/worker pair for a Create call.
func (r *Registry) leadWorker(e entry, cfg model.Config, leadModel string) (provider.Provider, error) {
	leadName := e.metadata.Name
	if v, ok := r.Value("GOOSE_LEAD_PROVIDER"); ok && v != "" {
		leadName = v
	}
	le, err := r.entry(leadName)
	if err != nil {
		return nil, err
	}
	leadCfg := model.FromSettings(leadModel, r.limitOptions(le.metadata, "GOOSE_LEAD_CONTEXT_LIMIT"))
	lead, err := r.build(le, leadCfg)
	if err != nil {
		return nil, err
	}
	workerCfg := cfg
	workerCfg.ContextLimit = nil // goose re-resolves it with GOOSE_WORKER_CONTEXT_LIMIT
	workerCfg = r.completeModel(e.metadata, workerCfg, "GOOSE_WORKER_CONTEXT_LIMIT")
	worker, err := r.build(e, workerCfg)
	if err != nil {
		return nil, err
	}
	return NewLeadWorker(lead, worker, LeadWorkerSettings{
		LeadTurns:        r.intValue("GOOSE_LEAD_TURNS", 3),
		FailureThreshold: r.intValue("GOOSE_LEAD_FAILURE_THRESHOLD", 2),
		FallbackTurns:    r.intValue("GOOSE_LEAD_FALLBACK_TURNS", 2),
	}, r.log), nil
}
