// Package proctree starts commands so that no process they start outlives
// the agent, and ends a command's whole tree on cancel or timeout. The
// developer extension's shells and python kernel and core's plugin hooks
// run through it. It imports nothing of ours.
//
// On Linux the agent calls Init first thing: it becomes a child subreaper,
// and every prepared command runs under a supervisor re-executed from the
// same binary — itself a subreaper for the command's whole tree, so setsid
// and nohup do not escape it, started with a parent-death signal from an
// OS thread held until it is reaped (the signal follows the creating
// thread, and Go ends a thread whose locked goroutine exits). Kill SIGTERMs
// the tree, SIGKILLs it after KillGrace, then kills anything still
// carrying the run's MarkerEnv environment marker. StopAll ends every
// command still running (at exit). Without Init (library use) commands get
// a parent-death signal and the marker sweep, but a grandchild outlives a
// SIGKILLed agent. macOS keeps the process-group kill (a setsid'd
// descendant escapes it). Windows puts the agent in a kill-on-close job
// object and each command in its own job for Kill; that code is compiled,
// not run.
//
// Use: cmd.Env set, OwnGroup(cmd) (or a pty's session), p := Prepare(cmd),
// wire stdio (CloseAfterStart for the child's pipe ends), p.Launch(cmd.Start),
// then p.Wait() for the exit code, or p.Kill(p.Waited()) to end it.
package proctree
