package agent

// The Agent is the turn loop: it loads sessions, runs their turns and
// answers the waits inside a turn. The operations faces offer beside the
// loop are services over the same agent, each a small value a face can
// hold on its own:
//
//	a.Sessions()   stored and loaded sessions: read, delete, fork, rename,
//	               import, archive, mode, model, working dir, system prompt
//	a.Extensions() a loaded session's extensions, tools, resources, prompts
//	a.Recipes()    recipes applied to, created from or set on a session
//	a.Sources()    Desktop's "/" and "@" menus, skills and projects
//
// Each works whether or not the session is loaded where it can: a loaded
// session's live state changes with its row, an unloaded one only has its
// row. Faces call these and never write the store.

// Sessions are the session operations every face offers.
type Sessions struct{ a *Agent }

// Extensions are the operations on a loaded session's extensions.
type Extensions struct{ a *Agent }

// Recipes are the recipe operations on sessions.
type Recipes struct{ a *Agent }

// Sources are what Desktop discovers for a working directory: slash
// commands, summon's sources, skills, and where skills and projects are
// written.
type Sources struct{ a *Agent }

// Sessions returns the session operations.
func (a *Agent) Sessions() Sessions { return Sessions{a} }

// Extensions returns the operations on loaded sessions' extensions.
func (a *Agent) Extensions() Extensions { return Extensions{a} }

// Recipes returns the recipe operations.
func (a *Agent) Recipes() Recipes { return Recipes{a} }

// Sources returns Desktop's discovery queries.
func (a *Agent) Sources() Sources { return Sources{a} }
