package main

import (
	"fmt"
	"os"

	"github.com/goose-acp/goose-acp/developer"
	"github.com/goose-acp/goose-acp/internal/cliconfig"
)

// runMCP serves a built-in extension as an MCP server on stdio; only
// "developer" exists (goose's classic developer tool surface).
func runMCP(env *environment, args []string) int {
	if len(args) != 1 || args[0] != "developer" {
		fmt.Fprintln(env.stderr, "usage: goose-acp mcp developer")
		return 2
	}
	log, closeLog, err := cliconfig.NewLogger(env.opts.logLevel, env.opts.logFile, env.stderr, env.getenv)
	if err != nil {
		fmt.Fprintln(env.stderr, "goose-acp:", err)
		return 2
	}
	defer closeLog()
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(env.stderr, "goose-acp:", err)
		return 1
	}
	opts := developer.Options{Surface: developer.Classic, WorkingDir: wd, Logger: log, Getenv: env.getenv}
	if err := developer.ServeStdio(env.ctx, env.stdin, env.stdout, opts); err != nil && env.ctx.Err() == nil {
		log.Error("developer MCP server stopped", "err", err)
		return 1
	}
	return 0
}
