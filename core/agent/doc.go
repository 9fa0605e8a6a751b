// Package agent is goose's reply loop and the session services beside it.
// One Agent serves many sessions; each loaded session owns its extension
// manager, provider and goose mode, and runs one turn at a time.
//
// The loop (the Agent):
//
//	a := agent.New(agent.Options{Store, Providers, Config, Permissions, Builtins, …})
//	sess, results, err := a.StartSession(ctx, agent.StartOptions{WorkingDir, Extensions, …})
//	sess, results, err := a.ResumeSession(ctx, id, opts)  // reconnects the saved extensions
//	out, err := a.Reply(ctx, sess.ID, userMessage, sink)   // sink(Event) from the calling goroutine
//	a.Confirm / SubmitFrontendToolResult / SubmitElicitation // answer the waits inside a turn
//	a.Steer / ActiveRun / SlashCommands / CloseSession / Close / Wait
//
// The services (services.go), small values a face holds on its own:
//
//	a.Sessions()   read (SessionReader), delete, fork, rename, import, archive,
//	               mode, model, thinking effort, working dir, system prompt, reload,
//	               holds (lease.go), context report
//	a.Extensions() a loaded session's extensions, tools, resources, prompts, permissions,
//	               connect results, tool declarations
//	a.Recipes()    apply, create, set values
//	a.Sources()    Desktop's slash commands, summon sources, skills, source store
//
// Every operation that changes a session is here, for every face, and works
// whether or not the session is loaded where it can; faces never write the
// store. Errors carry a core/errkind kind.
//
// Events (events.go) are the one event stream a turn reports: MessageEvent,
// NotificationEvent, ModelChangeEvent, HistoryReplacedEvent, UsageEvent,
// TitleEvent and ProgressEvent. Approvals, frontend tools and elicitations
// are blocking waits inside the turn, correlated by id; each selects on
// the turn's context.
//
// Where the loop departs from goose on purpose, and what each file of the
// loop does (compaction, MOIM, hints, sub-recipes, summon's delegate,
// /rewind, prompt templates), is in docs/agent.md.
package agent
