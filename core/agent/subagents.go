package agent

// subagents run the sessions a session starts for itself: summon's
// delegate tasks (delegate*.go) and a recipe's sub-recipe tasks
// (subrecipe.go). Each child is a session of the same Agent, driven by the
// same loop, and unloaded when its task ends.
type subagents struct{ a *Agent }
