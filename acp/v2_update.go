package acp

import (
	"encoding/base64"
	"encoding/json"
	"sync"

	"github.com/google/uuid"
)

// v2 reports the same session activity with other updates: tool calls are
// upserts (tool_call_update only, with the cancel capability while they
// run), plans are plan_update, modes are config options (no
// current_mode_update), diffs are structured changes with a git patch,
// and shell output goes to agent-owned display terminals
// (terminal_update, terminal_output_chunk) instead of Zed's
// _meta.terminal_* extension.

// v2PlanID is the one plan a session has.
const v2PlanID = "plan"

// v2Frames returns the v2 updates that say what u says (none for an
// update v2 has no place for). live marks updates of a running turn (not a
// replay): its unfinished tool calls can be cancelled.
func v2Frames(u SessionUpdate, live bool, terms *v2Terminals) []map[string]any {
	switch u.SessionUpdate {
	case UpdateUserMessageChunk, UpdateAgentMessageChunk, UpdateAgentThoughtChunk:
		id := u.MessageID
		if id == "" {
			id = "msg_" + uuid.NewString()
		}
		return []map[string]any{withMeta(map[string]any{"sessionUpdate": u.SessionUpdate, "messageId": id, "content": u.Content}, u.Meta)}
	case UpdateToolCall, UpdateToolCallUpdate:
		return terms.track(v2ToolCall(u, live), u)
	case UpdatePlan:
		entries := u.Entries
		if entries == nil {
			entries = []PlanEntry{}
		}
		return []map[string]any{withMeta(map[string]any{"sessionUpdate": "plan_update",
			"plan": map[string]any{"type": "items", "planId": v2PlanID, "entries": entries}}, u.Meta)}
	case UpdateCurrentMode:
		return nil // the mode is a config option (config_option_update)
	case UpdateAvailableCommands:
		cmds := u.AvailableCommands
		if cmds == nil {
			cmds = []AvailableCommand{}
		}
		return []map[string]any{withMeta(map[string]any{"sessionUpdate": u.SessionUpdate, "availableCommands": cmds}, u.Meta)}
	case UpdateConfigOption:
		return []map[string]any{withMeta(map[string]any{"sessionUpdate": u.SessionUpdate, "configOptions": v2ConfigOptions(u.ConfigOptions)}, u.Meta)}
	}
	// usage_update, session_info_update, notice, compaction_update: the
	// same in v2.
	b, err := u.MarshalJSON()
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	return []map[string]any{m}
}

func withMeta(m map[string]any, meta Meta) map[string]any {
	if len(meta) > 0 {
		m["_meta"] = meta
	}
	return m
}

// v2ToolCall is a tool call's upsert, preceded by the display terminal
// Zed's _meta.terminal_info would have created and followed by the output
// _meta.terminal_output would have carried.
func v2ToolCall(u SessionUpdate, live bool) []map[string]any {
	meta := Meta{}
	for k, v := range u.Meta {
		meta[k] = v
	}
	var before, after []map[string]any
	if info, ok := meta["terminal_info"].(map[string]any); ok {
		delete(meta, "terminal_info")
		before = append(before, terminalUpdate(info, u.RawInput, live))
	}
	if out, ok := meta["terminal_output"].(map[string]any); ok {
		delete(meta, "terminal_output")
		data, _ := out["data"].(string)
		after = append(after, map[string]any{"sessionUpdate": "terminal_output_chunk", "terminalId": out["terminal_id"],
			"data": base64.StdEncoding.EncodeToString([]byte(data))})
	}
	if exit, ok := meta["terminal_exit"].(map[string]any); ok {
		delete(meta, "terminal_exit")
		after = append(after, map[string]any{"sessionUpdate": "terminal_update", "terminalId": exit["terminal_id"],
			"exitStatus": map[string]any{"exitCode": exit["exit_code"], "signal": exit["signal"]}, "capabilities": nil})
	}
	call := map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": u.ToolCallID}
	if u.Title != nil {
		call["title"] = *u.Title
	}
	if u.Kind != "" {
		call["kind"] = u.Kind
	}
	if u.Status != "" {
		call["status"] = u.Status
		if live && (u.Status == "pending" || u.Status == "in_progress") {
			call["capabilities"] = map[string]any{"cancel": map[string]any{}}
		} else if final(u.Status) {
			call["capabilities"] = nil
		}
	}
	if u.ToolContent != nil {
		call["content"] = v2ToolContent(u.ToolContent)
	}
	if len(u.Locations) > 0 {
		call["locations"] = u.Locations
	}
	if u.RawInput != nil {
		call["rawInput"] = u.RawInput
	}
	if u.RawOutput != nil {
		call["rawOutput"] = u.RawOutput
	}
	withMeta(call, meta)
	// An update that only carried terminal output has nothing left to say
	// about the call.
	if len(call) == 2 && len(after) > 0 {
		return append(before, after...)
	}
	return append(append(before, call), after...)
}

func final(status string) bool {
	return status == "completed" || status == "failed" || status == "cancelled"
}

// terminalUpdate announces a display terminal: its command (the shell
// call's), working directory and, while it runs, that terminal/cancel
// stops it.
func terminalUpdate(info map[string]any, rawInput any, live bool) map[string]any {
	t := map[string]any{"sessionUpdate": "terminal_update", "terminalId": info["terminal_id"]}
	if cwd, ok := info["cwd"].(string); ok && cwd != "" {
		t["cwd"] = cwd
	}
	if args, ok := rawInput.(map[string]any); ok {
		if cmd, ok := args["command"].(string); ok {
			t["command"] = cmd
		}
	}
	if live {
		t["capabilities"] = map[string]any{"cancel": map[string]any{}}
	}
	return t
}

// v2ToolContent converts tool-call content: a diff becomes one structured
// change with a git patch, a terminal names a display terminal.
func v2ToolContent(content []ToolCallContent) []map[string]any {
	out := []map[string]any{}
	for _, c := range content {
		switch c.Type {
		case "diff":
			op := "modify"
			if c.OldText == nil {
				op = "add"
			}
			d := map[string]any{"type": "diff", "changes": []map[string]any{{"operation": op, "path": c.Path, "fileType": "text"}}}
			if c.NewText != nil {
				d["patch"] = map[string]any{"format": "git_patch", "text": gitPatch(c.Path, c.OldText, *c.NewText)}
			}
			out = append(out, d)
		case "terminal":
			out = append(out, map[string]any{"type": "terminal", "terminalId": c.TerminalID})
		default:
			out = append(out, map[string]any{"type": "content", "content": c.Content})
		}
	}
	return out
}

// v2Terminals are a session's display terminals announced and not yet
// exited: a call that ends without saying how its terminal did (a
// cancelled command that printed nothing) still ends its terminal.
type v2Terminals struct {
	mu   sync.Mutex
	open map[any]bool
}

// track notes the terminals frames open and close, and closes the call's
// terminal when its final update left it open.
func (t *v2Terminals) track(frames []map[string]any, u SessionUpdate) []map[string]any {
	if t == nil {
		return frames
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, f := range frames {
		if f["sessionUpdate"] != "terminal_update" {
			continue
		}
		if _, exited := f["exitStatus"]; exited {
			delete(t.open, f["terminalId"])
		} else {
			if t.open == nil {
				t.open = map[any]bool{}
			}
			t.open[f["terminalId"]] = true
		}
	}
	if final(u.Status) && t.open[u.ToolCallID] {
		delete(t.open, u.ToolCallID)
		frames = append(frames, map[string]any{"sessionUpdate": "terminal_update", "terminalId": u.ToolCallID,
			"exitStatus": map[string]any{"exitCode": nil, "signal": nil}, "capabilities": nil})
	}
	return frames
}
