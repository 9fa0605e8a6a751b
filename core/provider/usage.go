package provider

import "github.com/goose-acp/goose-acp/core/conversation"

// Int returns a pointer to v, for Usage fields.
func Int(v int) *int { return &v }

// NewUsage returns usage with total = input + output.
func NewUsage(input, output int) Usage {
	return Usage{InputTokens: Int(input), OutputTokens: Int(output), TotalTokens: Int(input + output)}
}

// Add sums two usages field by field; a field stays nil only when both
// are nil (goose's accumulated_* counters).
func (u Usage) Add(o Usage) Usage {
	return Usage{
		InputTokens:  addOpt(u.InputTokens, o.InputTokens),
		OutputTokens: addOpt(u.OutputTokens, o.OutputTokens),
		TotalTokens:  addOpt(u.TotalTokens, o.TotalTokens),
	}
}

func addOpt(a, b *int) *int {
	switch {
	case a == nil && b == nil:
		return nil
	case a == nil:
		return Int(*b)
	case b == nil:
		return Int(*a)
	}
	return Int(*a + *b)
}

// Merge overlays the fields o reports onto u (later stream events refine
// earlier ones).
func (u Usage) Merge(o Usage) Usage {
	if o.InputTokens != nil {
		u.InputTokens = o.InputTokens
	}
	if o.OutputTokens != nil {
		u.OutputTokens = o.OutputTokens
	}
	if o.TotalTokens != nil {
		u.TotalTokens = o.TotalTokens
	}
	return u
}

// EnsureTokens fills counts the provider did not report with goose's
// estimates: input from the request, output from the reply, total as
// their sum.
func (pu *ProviderUsage) EnsureTokens(req Request, reply conversation.Message) {
	u := &pu.Usage
	if u.InputTokens == nil {
		u.InputTokens = Int(CountChatTokens(req.System, req.Messages, req.Tools))
	}
	if u.OutputTokens == nil {
		u.OutputTokens = Int(CountChatTokens("", []conversation.Message{reply}, nil))
	}
	if u.TotalTokens == nil {
		u.TotalTokens = Int(*u.InputTokens + *u.OutputTokens)
	}
}
