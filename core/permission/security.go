package permission

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/toolinfo"
)

// Security defaults (SECURITY_PROMPT_THRESHOLD).
const DefaultSecurityThreshold = 0.8

// SecurityInspector flags dangerous shell commands with goose's pattern
// set. It is off unless Enable is set (SECURITY_PROMPT_ENABLED). There are
// no ML classifiers here, so the context score is always 0 and only
// Critical patterns (0.95 > 0.8) produce a finding, as in goose without ML.
type SecurityInspector struct {
	Enable    bool
	Threshold float64
	// NewFindingID returns the part after "SEC-" (goose: a simple uuid).
	NewFindingID func() string
	Logger       *slog.Logger
}

func (s *SecurityInspector) Name() string  { return SecurityInspectorName }
func (s *SecurityInspector) Enabled() bool { return s.Enable }

// Inspect implements Inspector.
func (s *SecurityInspector) Inspect(_ context.Context, calls []Call, _ []conversation.Message) ([]Result, error) {
	threshold := s.Threshold
	if threshold <= 0 {
		threshold = DefaultSecurityThreshold
	}
	var out []Result
	for _, c := range calls {
		// Only shells are scanned (goose: shell); which tool is
		// one is what the tool declares, not its name.
		if c.Kind != toolinfo.Execute {
			continue
		}
		text := ScanText(c.Name, c.Args)
		matches := Scan(text)
		if len(matches) == 0 {
			continue
		}
		top := matches[0]
		conf := top.Pattern.Risk.Confidence()
		// The context is "known safe" (score 0 < threshold) without ML, so
		// only critical patterns keep their score.
		if top.Pattern.Risk != RiskCritical {
			conf = 0
		}
		if !(conf > threshold) {
			continue
		}
		id := "SEC-" + s.NewFindingID()
		prompt := SecurityPrompt(top, text, id)
		out = append(out, Result{
			RequestID: c.ID, Action: RequireApproval, Prompt: &prompt, Confidence: conf,
			Reason: top.Pattern.Description, Inspector: SecurityInspectorName, FindingID: id,
		})
	}
	return out, nil
}

// ScanText is the text goose scans for a call: the tool name and its
// pretty-printed arguments.
func ScanText(name string, args map[string]any) string {
	if args == nil {
		args = map[string]any{}
	}
	b, _ := json.MarshalIndent(args, "", "  ")
	return fmt.Sprintf("Tool: %s\n%s", name, b)
}

// SecurityPrompt is goose's approval prompt for a pattern finding.
func SecurityPrompt(m Match, command, findingID string) string {
	explanation := fmt.Sprintf("Pattern-based detection: %s (Risk: %s)\nFound: '%s'\n\nCommand:\n%s",
		m.Pattern.Description, m.Pattern.Risk, truncateRunes(m.Text, 50), truncateRunes(command, 300))
	return fmt.Sprintf("🔒 Security Alert: Pattern-based Detection\n\n%s\n\nFinding ID: %s", explanation, findingID)
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}
