package main

// command runs one subcommand and returns its exit code.
type command func(env *environment, args []string) int

// commands is the subcommand table; "" is the default (ACP on stdio).
func commands() map[string]command {
	return map[string]command{
		"":    runACP,
		"acp": runACPCommand,
		"deeplink": func(env *environment, args []string) int {
			return runDeeplink(env.ctx, args, env.stdout, env.stderr, env.getenv)
		},
		"recipe": func(env *environment, args []string) int {
			return runRecipe(env.ctx, args, env.stdin, env.stdout, env.stderr, env.getenv)
		},
		"mcp":       runMCP,
		"agent":     runAgent,
		"serve":     runServe,
		"run":       runHeadless,
		"configure": runConfigure,
		"plugin":    runPlugin,
	}
}
