package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// configureHome is a goose home with a config.yaml the user already has
// (comments, their own keys in their own order) and no keyring.
func configureHome(t *testing.T) (root string, env []string) {
	t.Helper()
	root = t.TempDir()
	dir := filepath.Join(root, "config")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "config.yaml", userConfig)
	writeFile(t, dir, "secrets.yaml", "GITHUB_TOKEN: ghp-mine\n")
	return root, []string{"GOOSE_PATH_ROOT=" + root, "HOME=" + root, "GOOSE_DISABLE_KEYRING=1", "PATH=" + os.Getenv("PATH")}
}

const userConfig = "# my goose settings\nGOOSE_MODE: approve\nGOOSE_MODEL: old-model # was this\nmy_setting: 42\n"

func runConfigure(t *testing.T, env []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, append([]string{"configure"}, args...)...)
	cmd.Env = env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr, cmd.Stdin = &out, &errOut, strings.NewReader("")
	_ = cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("configure did not exit within 30s; stderr:\n%s", errOut.String())
	}
	return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
}

func readConfigFile(t *testing.T, root, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "config", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The user's keys keep their order, values and comments; GOOSE_MODEL is
// replaced in place; new keys are appended.
func keptPrefix(model string) string {
	return "# my goose settings\nGOOSE_MODE: approve\nGOOSE_MODEL: " + model + " # was this\nmy_setting: 42\n"
}

func TestConfigureNonInteractiveEveryProvider(t *testing.T) {
	for _, tc := range []struct {
		format          providertest.Format
		provider, model string
		keyName         string // "" when the provider takes no key
		hostKey         string
	}{
		{providertest.OpenAI, "openai", "gpt-4o-mini", "OPENAI_API_KEY", "OPENAI_HOST"},
		{providertest.Anthropic, "anthropic", "claude-sonnet-4-5", "ANTHROPIC_API_KEY", "ANTHROPIC_HOST"},
		{providertest.Google, "google", "gemini-2.5-flash", "GOOGLE_API_KEY", "GOOGLE_HOST"},
		{providertest.Ollama, "ollama", "qwen3", "", "OLLAMA_HOST"},
	} {
		t.Run(tc.provider, func(t *testing.T) {
			llm := providertest.Start(tc.format, providertest.NewScript(providertest.Turn{Text: []string{"ok"}}))
			defer llm.Close()
			root, env := configureHome(t)
			args := []string{"--provider", tc.provider, "--model", tc.model, "--host", llm.URL}
			if tc.keyName != "" {
				env = append(env, "MY_KEY=sk-from-env")
				args = append(args, "--api-key-env", "MY_KEY")
			}
			code, stdout, stderr := runConfigure(t, env, args...)
			if code != 0 {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			configPath := filepath.Join(root, "config", "config.yaml")
			want := "Saved GOOSE_PROVIDER=" + tc.provider + " and GOOSE_MODEL=" + tc.model + " to " + configPath + "\n"
			if tc.keyName != "" {
				want += "Stored " + tc.keyName + " in " + filepath.Join(root, "config", "secrets.yaml") + "\n"
			}
			if stdout != want {
				t.Fatalf("stdout %q\nwant   %q", stdout, want)
			}
			got := readConfigFile(t, root, "config.yaml")
			// goose's migration adds the platform extensions on any write;
			// the new keys follow them.
			wantEnd := "GOOSE_PROVIDER: " + tc.provider + "\n" + tc.hostKey + ": " + llm.URL + "\n"
			if !strings.HasPrefix(got, keptPrefix(tc.model)+"extensions:\n") || !strings.HasSuffix(got, "\n"+wantEnd) {
				t.Fatalf("config.yaml:\n%s\nwant it to start with:\n%s\nand end with:\n%s", got, keptPrefix(tc.model), wantEnd)
			}
			wantSecrets := "GITHUB_TOKEN: ghp-mine\n"
			if tc.keyName != "" {
				wantSecrets += tc.keyName + ": sk-from-env\n"
			}
			if s := readConfigFile(t, root, "secrets.yaml"); s != wantSecrets {
				t.Fatalf("secrets.yaml:\n%s\nwant:\n%s", s, wantSecrets)
			}
			// The one test completion went out with the key, before saving.
			var posts int
			for _, r := range llm.Requests() {
				if r.Method == "POST" {
					posts++
					if tc.keyName != "" && !strings.Contains(strings.Join(r.Header.Values("Authorization"), "")+r.Header.Get("x-api-key")+r.Header.Get("x-goog-api-key")+r.Query, "sk-from-env") {
						t.Fatalf("test request without the key: %+v", r.Header)
					}
				}
			}
			if posts != 1 {
				t.Fatalf("%d completion requests, want 1", posts)
			}
		})
	}
}

func TestConfigureRejectedKeySavesNothing(t *testing.T) {
	llm := providertest.Start(providertest.OpenAI, providertest.NewScript(providertest.Turn{Status: 401,
		ErrorBody: `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`}))
	defer llm.Close()
	root, env := configureHome(t)
	code, stdout, stderr := runConfigure(t, append(env, "K=bad"), "--provider", "openai", "--model", "gpt-4o", "--host", llm.URL, "--api-key-env", "K")
	want := "Error: the test request to openai (model gpt-4o) failed: openai: authentication error (status 401): " +
		"Authentication failed. Status: 401 Unauthorized. Response: Incorrect API key provided; nothing was saved\n"
	if code != 1 || stdout != "" || stderr != want {
		t.Fatalf("exit %d stdout %q\nstderr %q\nwant   %q", code, stdout, stderr, want)
	}
	if got := readConfigFile(t, root, "config.yaml"); got != userConfig {
		t.Fatalf("config.yaml changed:\n%s", got)
	}
	if got := readConfigFile(t, root, "secrets.yaml"); got != "GITHUB_TOKEN: ghp-mine\n" {
		t.Fatalf("secrets.yaml changed:\n%s", got)
	}
}

func TestConfigureRefusesWithoutTerminalOrFlags(t *testing.T) {
	_, env := configureHome(t)
	code, stdout, stderr := runConfigure(t, env)
	want := "Error: goose-acp configure needs an interactive terminal (stdin is not one).\n" +
		"For scripts: goose-acp configure --provider openai --model gpt-4o-mini --api-key-env OPENAI_API_KEY\n"
	if code != 2 || stdout != "" || stderr != want {
		t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
	}
}

func TestConfigureBadFlags(t *testing.T) {
	root, env := configureHome(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--provider", "nope", "--model", "m"}, `Error: unknown provider: "nope" (known: `},
		{[]string{"--provider", "anthropic", "--model", "m"}, "Error: Anthropic needs ANTHROPIC_API_KEY: give it a value"},
		{[]string{"--provider", "openai", "--model", "m", "--api-key-env", "UNSET_VAR"}, "Error: --api-key-env UNSET_VAR: UNSET_VAR is not set in the environment\n"},
		{[]string{"--model", "m"}, "Error: --provider is required with flags\n"},
		{[]string{"--provider", "ollama", "--api-key-env", "X"}, "Error: ollama takes no API key; drop --api-key-env\n"},
	} {
		code, _, stderr := runConfigure(t, env, tc.args...)
		if code != 2 || !strings.HasPrefix(stderr, tc.want) {
			t.Errorf("%v: exit %d stderr %q, want prefix %q", tc.args, code, stderr, tc.want)
		}
	}
	if got := readConfigFile(t, root, "config.yaml"); got != userConfig {
		t.Fatalf("config.yaml changed:\n%s", got)
	}
}

// A key that only the shell has is used for the test but not stored,
// and configure says so.
func TestConfigureNotesAKeyLeftInTheEnvironment(t *testing.T) {
	llm := providertest.Start(providertest.OpenAI, providertest.NewScript(providertest.Turn{Text: []string{"ok"}}))
	defer llm.Close()
	root, env := configureHome(t)
	code, _, stderr := runConfigure(t, append(env, "OPENAI_API_KEY=sk-shell"), "--provider", "openai", "--model", "gpt-4o", "--host", llm.URL)
	want := "Note: OPENAI_API_KEY was read from this shell's environment and not stored; editors started without it will not see it (add --api-key-env OPENAI_API_KEY to store it).\n"
	if code != 0 || stderr != want {
		t.Fatalf("exit %d stderr %q", code, stderr)
	}
	if s := readConfigFile(t, root, "secrets.yaml"); s != "GITHUB_TOKEN: ghp-mine\n" {
		t.Fatalf("secrets.yaml:\n%s", s)
	}
}
