package agent

import (
	"strings"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// moimText is goose's info message: time, working dir and the platform
// extensions' contributions.
func (t *turn) moimText() string {
	var b strings.Builder
	b.WriteString("<info-msg>\nIt is currently ")
	b.WriteString(t.a.now().Format("2006-01-02 15:04:00"))
	b.WriteString("\nWorking directory: ")
	b.WriteString(t.wd)
	b.WriteString("\n")
	for _, part := range t.s.mgr.MOIM(t.ctx) {
		b.WriteString("\n")
		b.WriteString(part)
	}
	b.WriteString("\n</info-msg>")
	return b.String()
}

// moimAllowedIssues are the repairs goose accepts after inserting the
// MOIM; anything else means the original conversation is sent.
var moimAllowedIssues = []string{
	"Merged consecutive", "Merged text content", "Removed orphaned tool request", "Removed orphaned tool response",
	"Removed empty message", "Removed leading assistant message", "Removed trailing assistant message",
}

// injectMOIM inserts the info message as a user message at the index of
// the last assistant message (0 if none) and repairs the result. It is
// only ever sent to the provider, never stored.
func (t *turn) injectMOIM(msgs []conversation.Message) []conversation.Message {
	idx := 0
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == conversation.RoleAssistant {
			idx = i
			break
		}
	}
	moim := conversation.UserText(t.a.now().Unix(), t.moimText())
	with := make([]conversation.Message, 0, len(msgs)+1)
	with = append(with, msgs[:idx]...)
	with = append(with, moim)
	with = append(with, msgs[idx:]...)
	fixed, issues := conversation.Fix(with)
	for _, issue := range issues {
		if !allowedIssue(issue) {
			return msgs
		}
	}
	return fixed
}

func allowedIssue(issue string) bool {
	for _, p := range moimAllowedIssues {
		if strings.HasPrefix(issue, p) {
			return true
		}
	}
	return false
}
