// Package shellrun runs one shell command for the developer tools: it
// picks the shell as goose does (Select: $GOOSE_SHELL, $SHELL, bash, sh;
// pwsh, powershell, cmd on Windows) with goose's flags and quoting, builds
// the command's environment (EnvOverrides, MergeEnv), starts it under
// internal/proctree with pipes or a pty, and collects its output in
// arrival order into bounded buffers (the head and a tail window are kept,
// totals stay exact) until it exits, is cancelled or times out (SIGTERM,
// then SIGKILL after KillGrace). Output keeps flowing for a moment after
// the shell exits, no longer: a backgrounded grandchild cannot hold the
// call open. It imports only internal/proctree of ours.
package shellrun
