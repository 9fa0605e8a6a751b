// Package platform owns goose's in-process platform extensions, each an
// in-process server (inproc) the extension manager calls directly:
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
// Each server is built once per process and shared by every session: a
// session's Platform is that server bound to the session's Deps and Env
// (inproc.Server.With), and the tool handlers find the binding in their
// call's context. Its MCP twin (inproc.Server.MCP) is what the goldens
// pin. What differs between sessions comes with each session's Platform:
// MOIM, Close and the instructions of skills and summon (their skills and
// sources).
package platform
