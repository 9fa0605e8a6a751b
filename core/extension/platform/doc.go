// Package platform owns goose's in-process platform extensions, each an
// MCP server the extension manager connects over in-memory transports:
// todo (todo_write; its content feeds the per-turn info message),
// extensionmanager (search_available_extensions, manage_extensions,
// list_resources, read_resource), chatrecall (search past sessions) and
// tom (user text from GOOSE_MOIM_MESSAGE_TEXT / _FILE in every turn),
// skills (load_skill over SKILL.md files in goose's directories, listed in
// the system prompt), summon (load and delegate over sub-recipes, recipes
// and agent files; the agent runs the subagents through AgentHooks),
// summarize (one LLM call over files) and apps / code_execution, which
// only answer why they are not available here.
//
// Each server is built once per process and shared by every session: the
// manager connects a server session of its own and binds it to the
// session's Deps and Env (Platform.Bind), and the tool handlers find
// that binding by their request's server session. What differs between
// sessions comes with each session's Platform: MOIM, Close and the
// instructions of skills and summon (their skills and sources).
package platform
