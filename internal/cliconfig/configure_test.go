package cliconfig

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func envOf(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// OpenSetup's failures: a bad log level is a usage error (2), a broken
// config.yaml a failure (1); each is said once on stderr.
func TestOpenSetupFailures(t *testing.T) {
	root := t.TempDir()
	env := envOf(map[string]string{"HOME": root, "GOOSE_PATH_ROOT": root})
	var stderr bytes.Buffer
	if _, _, code := OpenSetup("loud", "", &stderr, env); code != ExitUsage ||
		stderr.String() != "Error: invalid log level \"loud\" (want debug, info, warn or error)\n" {
		t.Errorf("bad level: exit %d stderr %q", code, stderr.String())
	}
	os.MkdirAll(filepath.Join(root, "config"), 0o755)
	os.WriteFile(filepath.Join(root, "config", "config.yaml"), []byte("GOOSE_MODEL: [unclosed\n"), 0o644)
	stderr.Reset()
	if _, _, code := OpenSetup("", "", &stderr, env); code != ExitFailed || !strings.HasPrefix(stderr.String(), "Error: ") ||
		strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("broken config.yaml: exit %d stderr %q", code, stderr.String())
	}
	os.WriteFile(filepath.Join(root, "config", "config.yaml"), []byte("GOOSE_MODEL: m\n"), 0o644)
	stderr.Reset()
	s, closeLog, code := OpenSetup("", "", &stderr, env)
	if code != ExitOK || s == nil || stderr.Len() != 0 {
		t.Fatalf("exit %d stderr %q", code, stderr.String())
	}
	closeLog()
}

func TestIsHostKey(t *testing.T) {
	for name, want := range map[string]bool{"OPENAI_HOST": true, "AZURE_OPENAI_ENDPOINT": true, "LITELLM_BASE_URL": true,
		"OPENAI_API_KEY": false, "OPENAI_BASE_PATH": false, "HOSTNAME": false} {
		if IsHostKey(name) != want {
			t.Errorf("IsHostKey(%s) = %v", name, !want)
		}
	}
}
