package permission

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
)

// JudgeToolName is the tool the smart-approve judge asks the model to call.
const JudgeToolName = "platform__tool_by_tool_permission"

// JudgeSystemPrompt is goose's fallback judge system prompt.
const JudgeSystemPrompt = "You are a good analyst and can detect operations whether they have read-only operations."

var judgeSchema = []byte(`{"type":"object","properties":{"read_only_tools":{"type":"array","items":{"type":"string"},"description":"Optional list of tool names which has read-only operations."}},"required":[]}`)

// JudgeRequestText is goose's user message for the judge: the names joined
// with ", " and printed as a quoted string (Rust's {:?} of a String).
func JudgeRequestText(names []string) string {
	return fmt.Sprintf("Here are the tool requests: %s\n\nAnalyze the tool requests and list the tools that perform read-only operations. "+
		"\n\nGuidelines for Read-Only Operations: "+
		"\n- Read-only operations do not modify any data or state. "+
		"\n- Examples include file reading, SELECT queries in SQL, and directory listing. "+
		"\n- Write operations include INSERT, UPDATE, DELETE, and file writing. "+
		"\n\nPlease provide a list of tool names that qualify as read-only:", strconv.Quote(strings.Join(names, ", ")))
}

// ErrJudgeNoAnswer means the model did not call the judge tool.
var ErrJudgeNoAnswer = errors.New("permission judge: model did not call " + JudgeToolName)

// LLMJudge returns a Judge that asks p (one non-streaming Complete) which
// of the calls are read-only. The model answers with tool names; every call
// of a named tool counts as read-only.
func LLMJudge(p provider.Provider, now func() time.Time) Judge {
	return LLMJudgeWithPrompt(p, now, JudgeSystemPrompt)
}

// LLMJudgeWithPrompt is LLMJudge with the system prompt from the
// permission_judge.md template (empty means JudgeSystemPrompt).
func LLMJudgeWithPrompt(p provider.Provider, now func() time.Time, system string) Judge {
	if strings.TrimSpace(system) == "" {
		system = JudgeSystemPrompt
	}
	return func(ctx context.Context, calls []Call) (map[string]bool, error) {
		names := make([]string, 0, len(calls))
		for _, c := range calls {
			names = append(names, c.Name)
		}
		text := JudgeRequestText(names)
		msg, _, err := p.Complete(ctx, provider.Request{
			System:   system,
			Messages: []conversation.Message{conversation.UserText(now().Unix(), text)},
			Tools: []provider.Tool{{Name: JudgeToolName, InputSchema: judgeSchema,
				Description: "Analyze the tool requests and determine which ones perform read-only operations."}},
		})
		if err != nil {
			return nil, fmt.Errorf("permission judge: %w", err)
		}
		readOnly := map[string]bool{}
		for _, req := range msg.ToolRequests() {
			if !req.ToolCall.IsOK() || req.ToolCall.Value.Name != JudgeToolName {
				continue
			}
			list, _ := req.ToolCall.Value.Arguments["read_only_tools"].([]any)
			for _, v := range list {
				if name, ok := v.(string); ok {
					readOnly[name] = true
				}
			}
			out := map[string]bool{}
			for _, c := range calls {
				if readOnly[c.Name] {
					out[c.ID] = true
				}
			}
			return out, nil
		}
		return nil, ErrJudgeNoAnswer
	}
}
