//go:build !unix

package sqlite_test

// crashChildEnv is unused off unix: the crash test needs SIGKILL.
const crashChildEnv = "GOOSE_ACP_SESSION_CRASH_CHILD"

func runCrashChild(string) int { return 2 }
