package analyze

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/goose-acp/goose-acp/internal/helperexe"
)

// HelperName is the helper's file name (with .exe on windows).
var HelperName = helperexe.Name("goose-acp-analyze")

// HelperEnv names the helper's path explicitly.
const HelperEnv = "GOOSE_ACP_ANALYZE"

// Find returns the helper to run: $GOOSE_ACP_ANALYZE when set, else
// goose-acp-analyze beside executable (the running goose-acp, symlinks
// resolved; nil means os.Executable), else the first on PATH. None →
// an error matching ErrNoHelper that says where it looked and how to
// build one.
func Find(getenv func(string) string, executable func() (string, error)) (string, error) {
	p, err := helperexe.Find("goose-acp-analyze", HelperEnv, getenv, executable)
	var envErr *helperexe.EnvError
	var missing *helperexe.NotFoundError
	switch {
	case errors.As(err, &envErr):
		return "", &Error{Kind: ErrNoHelper, Msg: fmt.Sprintf("analyze cannot run its helper: %v. Point it at a goose-acp-analyze built with cgo "+
			"(go build -o %s ./cmd/goose-acp-analyze, which needs a C compiler such as gcc or clang) "+
			"or unset it to use the one beside goose-acp.", envErr, envErr.Value)}
	case errors.As(err, &missing):
		return "", &Error{Kind: ErrNoHelper, Msg: fmt.Sprintf("analyze is not available: its helper program %v. It needs cgo and a C compiler (gcc or clang); "+
			"build it from the goose-acp source into goose-acp's directory: go build -o %s ./cmd/goose-acp-analyze",
			missing, missing.Target())}
	}
	return p, err
}

// Analyze runs one analysis in the helper Find returns (with os.Getenv).
func Analyze(ctx context.Context, req Request) (string, error) {
	helper, err := Find(os.Getenv, nil)
	if err != nil {
		return "", err
	}
	return Run(ctx, helper, req)
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
