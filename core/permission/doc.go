// Package permission owns goose's tool-permission policy: the modes
// (auto, approve, smart_approve, chat), the user's decisions on a prompt,
// the permission.yaml levels as a small Store interface, and the three
// inspectors the agent runs before every tool call, in goose's order:
// security (shell-command patterns, off unless SECURITY_PROMPT_ENABLED),
// permission (mode + permission.yaml + read-only annotations + think
// tools, which only write the session's notes + the smart-approve LLM
// check) and repetition (max_tool_repetitions).
//
// The permission inspector's rule is the pure function Evaluate; Merge
// combines every inspector's results the way goose does (permission gives
// the baseline, other inspectors only tighten it). Nothing here performs a
// tool call or waits for the user: the agent loop does that.
package permission
