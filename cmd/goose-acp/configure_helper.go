package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/goose-acp/goose-acp/internal/helperexe"
)

// configureHelperEnv names goose-acp-configure's path explicitly.
const configureHelperEnv = "GOOSE_ACP_CONFIGURE"

// configureWithFlags is the form that needs no helper.
const configureWithFlags = "Or configure without it: goose-acp configure --provider openai --model gpt-4o-mini --api-key-env OPENAI_API_KEY " +
	"(goose-acp configure --help lists the flags)."

// runConfigureHelper runs the interactive configure, goose-acp-configure,
// on this process's terminal and environment and returns its exit status.
// The helper reads Ctrl-C from the terminal itself; meanwhile this
// process keeps SIGINT (so it cannot end before the helper) and passes
// SIGTERM on.
func runConfigureHelper(env *environment) int {
	helper, err := helperexe.Find("goose-acp-configure", configureHelperEnv, env.getenv, nil)
	if err != nil {
		fmt.Fprintln(env.stderr, configureHelperError(err))
		return exitFailed
	}
	var args []string
	if exe, err := os.Executable(); err == nil {
		args = append(args, "--agent", exe)
	}
	if env.opts.logLevel != "" {
		args = append(args, "--log-level", env.opts.logLevel)
	}
	if env.opts.logFile != "" {
		args = append(args, "--log-file", env.opts.logFile)
	}
	cmd := exec.Command(helper, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = env.stdin, env.stdout, env.stderr
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(env.stderr, "Error: cannot run %s: %v\n%s\n", helper, err, configureWithFlags)
		return exitFailed
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-signals:
				if s != os.Interrupt {
					_ = cmd.Process.Signal(s)
				}
			case <-done:
				return
			}
		}
	}()
	err = cmd.Wait()
	close(done)
	return helperExit(cmd.ProcessState, err, helper, env)
}

// helperExit is the helper's exit status as this process's: its code;
// when signal N ended it (a second Ctrl-C), this process ends by N too
// (unix), else returns 128+N.
func helperExit(ps *os.ProcessState, err error, helper string, env *environment) int {
	if ps == nil {
		fmt.Fprintf(env.stderr, "Error: %s: %v\n", helper, err)
		return exitFailed
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		endBySignal(ws.Signal())
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

// configureHelperError says where the helper was looked for, how to build
// it, and the form that needs none.
func configureHelperError(err error) string {
	var envErr *helperexe.EnvError
	var missing *helperexe.NotFoundError
	switch {
	case errors.As(err, &envErr):
		return fmt.Sprintf("Error: goose-acp configure cannot run its terminal set-up: %v. Point it at a goose-acp-configure "+
			"(go build -o %s ./cmd/goose-acp-configure) or unset it to use the one beside goose-acp.\n%s",
			envErr, envErr.Value, configureWithFlags)
	case errors.As(err, &missing):
		return fmt.Sprintf("Error: goose-acp configure runs its terminal set-up in a separate program, and %v.\n"+
			"Build it from the goose-acp source into goose-acp's directory: go build -o %s ./cmd/goose-acp-configure\n%s",
			missing, missing.Target(), configureWithFlags)
	}
	return "Error: " + err.Error()
}
