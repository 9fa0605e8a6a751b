// Package agent owns goose's reply loop (seed 001): one Agent serves many
// sessions; each loaded session owns its extension manager, provider and
// goose mode, and runs one turn at a time.
//
// Adapters (ACP, goosed HTTP) call:
//
//	a := agent.New(agent.Options{Store, Providers, Config, Permissions, Builtins, …})
//	sess, results, err := a.StartSession(ctx, agent.StartOptions{WorkingDir, Extensions, …})
//	sess, results, err := a.ResumeSession(ctx, id, opts)   // reconnects the saved extensions
//	out, err := a.Reply(ctx, sess.ID, userMessage, sink)    // sink(Event) from the calling goroutine
//	a.Confirm(id, toolRequestID, permission.AllowOnce)      // answers a toolConfirmation
//	a.SubmitFrontendToolResult(id, toolRequestID, result)   // answers a frontendToolRequest
//	a.SubmitElicitation(id, elicitationID, "accept", data)  // answers an elicitation
//	a.SetMode / SetModel / AddExtension / RemoveExtension / Tools / CallTool /
//	a.ReadResource / ListResources / ListPrompts / GetPrompt / UpdateWorkingDir /
//	a.SlashCommands / Todo / Mode / Model / Extensions / CloseSession / Close
//	rec, err := a.CreateRecipe(ctx, id)                     // goose's create_recipe
//	PromptTemplates / PromptTemplate / SavePromptTemplate / ResetPromptTemplate(configDir, …)
//
// Every operation that changes a session is here, for every face, and works
// whether or not the session is loaded (sessionops.go, recipeops.go):
//
//	a.DeleteSession / ForkSession(id, ForkOptions{Copy, TruncateAt}) /
//	a.RenameSession / SetMode / UpdateWorkingDir / ImportSession /
//	a.ReplaceConversation / SetRecipeValues / ReloadSession / EnsureLoaded
//	a.Sessions()                                            // read-only SessionReader
//	opts.UseRecipe(rec, values)                             // via RecipeFrom, the one recipe path
//
// Faces read sessions through SessionReader and never write the store.
// A loaded session's decoded conversation is kept between turns while the
// store's revision of it is unchanged (convcache.go), so a turn's own work
// does not grow with the history.
//
// With StartOptions.ConnectInBackground (ACP's session/new, load and
// resume) a session is returned before its extensions have connected
// (connect.go): its first turn stores the user message and loads the
// history meanwhile, then waits for them (a ProgressEvent names the ones
// still starting after a second), and ExtensionResults reports their
// outcomes. Identical stdio/HTTP extension configs share one connection
// across the Agent's sessions (extension.Shared); each session keeps its
// own permissions, tool names and filters.
//
// /rewind [N] and /undo (rewind.go) are slash commands like /compact: they
// put back the files the session's tools changed since the chosen user
// message (core/checkpoint: saved before each change under
// <data>/sessions/<id>/checkpoints, restored through the session's FileIO)
// and cut the stored conversation before that message.
//
// Prompt templates carry goose's registry names (system.md, compaction.md,
// recipe.md, permission_judge.md, session_name.md); a file
// <config>/prompts/<name> overrides one and is read at every render. They
// use Go text/template syntax (the defaults show the fields); an override
// that fails to render is logged and the default is used.
//
// A recipe's sub_recipes become subrecipe__create_task_<name> tools (goose's
// names and schema: task_parameters over the parameters values does not
// fix). A call runs every task at once, each in a new sub_agent session
// on the parent's provider, mode, working dir and builtins, and returns
// each task's last assistant text; tasks run in parallel unless
// sequential_when_repeated (then also one call at a time). The sub-agent's
// confirmations and elicitations go to the parent's client and are
// answered with the parent's session id. StartOptions.Temperature (a
// recipe's settings.temperature) goes into the model config; a lead/worker
// provider yields a ModelChangeEvent (mode lead or worker) whenever the
// replying model changes.
//
// Events (the one event model): MessageEvent (streamed assistant chunks
// sharing the message id, tool responses, actionRequired tool
// confirmations and elicitations, frontendToolRequest, system
// notifications), NotificationEvent (an MCP notification during the tool
// call RequestID), ModelChangeEvent, HistoryReplacedEvent (after
// compaction or /clear), and UsageEvent (after every provider usage report;
// ACP usage_update) and TitleEvent (a generated session name; names that
// are ready only after the turn ended go to Options.OnTitle instead).
//
// Reply returns when the turn is over. Outcome.StopReason tells EndTurn,
// Cancelled (ctx cancelled: the provider stream and every running tool
// stop, and the partial turn is stored with every tool request answered),
// MaxTurns, Refusal (the model refused) and Error (a provider failure,
// shown to the user as goose's "Ran into this error" text). Approvals, frontend tools and elicitations
// are blocking waits inside the turn correlated by id; several may be
// pending, and each selects on ctx.Done(). Elicitations time out after
// Options.ElicitationTimeout (default 300 s) and the server gets an error.
//
// The loop follows goose: persist the user message (an elicitation answer
// only wakes its waiting tool call); slash commands (/compact, /clear,
// config.yaml slash_commands recipes, extension prompts); auto-compaction above
// GOOSE_AUTO_COMPACT_THRESHOLD; per turn repair the conversation, inject
// the MOIM (never stored), stream, answer frontend tools first, skip tools
// in chat mode, run the inspectors (security, permission, repetition) and
// ask for approvals one at a time, run approved calls in parallel while
// forwarding their notifications, rebuild tools and system prompt when
// extensions changed, compact on a context-length error, stop after
// max_turns (default 1000), handle a recipe's final_output tool and retry
// checks, and name the session in the background.
//
// Hints: the system prompt carries the global and project hint files
// (CONTEXT_FILE_NAMES, hints.go). With DYNAMIC_SUBDIRECTORY_HINT_LOADING
// set to 1 or true (goose ships it off), a developer text_editor, read,
// write or edit call on an existing absolute path inside the git root (the
// working dir without one) adds that directory's hint files as a tagged
// "Directory-Specific Context" extra, from the next model call on; a
// directory unused for DYNAMIC_SUBDIRECTORY_HINT_PRUNING_TURNS loop turns
// (default 10) is dropped again (subhints.go). The state lives with the
// loaded session, not in the stored session.
//
// Differences from goose, on purpose: messages are stored as the turn
// goes (assistant reply, then its tool responses) instead of at its end,
// so a cancelled or crashed turn leaves a coherent history; tool
// confirmations and frontend requests are emitted but not stored (as goose
// does; seed 001 stores them); elicitation answers are stored
// agent-invisible; an invalid final_output is not collected (goose collects
// the raw text before validating it); compaction keeps the user's last
// message visible to the user; prompt templates are Go templates, not
// minijinja; a sub-recipe tool runs its tasks itself instead of returning
// task ids for a separate executor tool (summon's delegate can run the
// same sub-recipes as sources too); a refusal is recognised by
// provider.KindRefusal.
//
// Summon's delegate (delegate*.go) runs in the loop rather than through
// the extension's MCP call: a sub_agent child session in Auto mode with a
// forced {summary} final output, goose's provider/model/extension/turn
// precedence, its parent recorded in parent_session_id (children from
// before schema v17 carry it in extension_data "subagent.v0"), progress posted as notifications of the delegate call, at most
// MaxParallelDelegates at once; the parent's cancellation ends it and the
// child is always unloaded. Skills are also slash commands (skillcmd.go).
package agent
