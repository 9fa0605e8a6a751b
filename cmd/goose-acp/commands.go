package main

// command runs one subcommand and returns its exit code.
type command func(env *environment, args []string) int

// commands is the subcommand table; "" is the default (ACP on stdio).
func commands() map[string]command {
	return map[string]command{}
}
