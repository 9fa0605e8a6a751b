package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func runHelper(stdin string, args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errOut, func(string) string { return "" })
	return code, out.String(), errOut.String()
}

// Without a terminal the helper refuses as goose-acp configure always has.
func TestRefusesWithoutTerminal(t *testing.T) {
	code, stdout, stderr := runHelper("")
	want := "Error: goose-acp configure needs an interactive terminal (stdin is not one).\n" +
		"For scripts: goose-acp configure --provider openai --model gpt-4o-mini --api-key-env OPENAI_API_KEY\n"
	if code != 2 || stdout != "" || stderr != want {
		t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
	}
}

func TestUsage(t *testing.T) {
	if code, stdout, stderr := runHelper("", "--help"); code != 0 || stdout != usage || stderr != "" {
		t.Errorf("--help: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	if code, stdout, stderr := runHelper("", "--provider", "openai"); code != 2 || stdout != "" ||
		stderr != "Error: flag provided but not defined: -provider\n\n"+usage {
		t.Errorf("flags form: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	if code, _, stderr := runHelper("", "extra"); code != 2 || stderr != "Error: unexpected arguments [\"extra\"]\n\n"+usage {
		t.Errorf("argument: exit %d stderr %q", code, stderr)
	}
}
