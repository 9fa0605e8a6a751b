package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"debug/buildinfo"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "-version is required"},
		{[]string{"-version", "dev"}, `version "dev" is not a semantic version`},
		{[]string{"-version", "1.0.0", "-platforms", "linux-riscv64"}, `unknown platform "linux-riscv64"`},
		{[]string{"-version", "1.0.0", "extra"}, "-version is required (and takes no other arguments)"},
	} {
		var out, errOut bytes.Buffer
		err := run(tc.args, &out, &errOut)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.args, err, tc.want)
		}
	}
}

// TestReleaseHostTarget builds the real release for this machine's
// platform only (one full -trimpath build, about a minute; -short leaves it
// out) and checks what a user downloads: the archive hashes to SHA256SUMS
// and agent.json, and the binary inside prints the stamped version.
func TestReleaseHostTarget(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a release binary (about a minute); run without -short")
	}
	platform := map[string]string{"linux/amd64": "linux-x86_64", "linux/arm64": "linux-aarch64",
		"darwin/amd64": "darwin-x86_64", "darwin/arm64": "darwin-aarch64"}[runtime.GOOS+"/"+runtime.GOARCH]
	if platform == "" {
		t.Skipf("no tar.gz release target for %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := run([]string{"-version", "v9.8.7", "-platforms", platform, "-out", out}, &stdout, &stderr); err != nil {
		t.Fatalf("release: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	t.Logf("%s", stdout.String())
	name := "goose-acp-9.8.7-" + platform + ".tar.gz"
	data, err := os.ReadFile(filepath.Join(out, name))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	hexSum := hex.EncodeToString(sum[:])
	sums, _ := os.ReadFile(filepath.Join(out, "SHA256SUMS"))
	if string(sums) != hexSum+"  "+name+"\n" {
		t.Errorf("SHA256SUMS = %q, want %q", sums, hexSum+"  "+name+"\n")
	}
	var agent struct {
		Version      string
		Distribution struct {
			Binary map[string]struct{ Archive, Cmd, SHA256 string }
		}
	}
	raw, _ := os.ReadFile(filepath.Join(out, "agent.json"))
	if err := json.Unmarshal(raw, &agent); err != nil {
		t.Fatal(err)
	}
	if b := agent.Distribution.Binary[platform]; agent.Version != "9.8.7" || b.SHA256 != hexSum || b.Cmd != "./goose-acp" || !strings.HasSuffix(b.Archive, "/"+name) {
		t.Errorf("agent.json: %s", raw)
	}
	if err := validateAgentJSON(raw); err != nil {
		t.Errorf("agent.json against the registry schema: %v", err)
	}
	notes, _ := os.ReadFile(filepath.Join(out, "NOTES.md"))
	if !strings.Contains(string(notes), "| "+platform+" | "+name+" |") {
		t.Errorf("NOTES.md has no row for %s:\n%s", platform, notes)
	}
	bin := extract(t, data, "goose-acp")
	got, err := exec.Command(bin, "--version").Output()
	if err != nil || string(got) != "goose-acp 9.8.7\n" {
		t.Errorf("goose-acp --version: %q, %v; want the stamped version", got, err)
	}
	// goose-acp is cgo-free; analyze runs in the helper beside it, built
	// with cgo where this host has a C compiler (NOTES.md says which).
	if info, err := buildinfo.ReadFile(bin); err != nil || setting(info, "CGO_ENABLED") != "0" {
		t.Errorf("goose-acp build info: CGO_ENABLED=%q, %v; want 0", setting(info, "CGO_ENABLED"), err)
	}
	// `goose-acp configure` without flags runs goose-acp-configure beside
	// it: pure Go, and it answers (here: no terminal, the refusal).
	configure := extract(t, data, "goose-acp-configure")
	if info, err := buildinfo.ReadFile(configure); err != nil || setting(info, "CGO_ENABLED") != "0" {
		t.Errorf("goose-acp-configure build info: CGO_ENABLED=%q, %v; want 0", setting(info, "CGO_ENABLED"), err)
	}
	var refusal bytes.Buffer
	cfg := exec.Command(configure)
	cfg.Stdin, cfg.Stderr = strings.NewReader(""), &refusal
	if err := cfg.Run(); cfg.ProcessState == nil || cfg.ProcessState.ExitCode() != 2 ||
		!strings.HasPrefix(refusal.String(), "Error: goose-acp configure needs an interactive terminal") {
		t.Errorf("goose-acp-configure without a terminal: %v, stderr %q; want exit 2 and the refusal", err, refusal.String())
	}
	helper := extract(t, data, "goose-acp-analyze")
	info, err := buildinfo.ReadFile(helper)
	if err != nil {
		t.Fatal(err)
	}
	cgo := setting(info, "CGO_ENABLED") == "1"
	if !strings.Contains(string(notes), "| "+platform+" | "+name+" | "+map[bool]string{true: "yes | yes", false: "no | no"}[cgo]+" |") {
		t.Errorf("NOTES.md row for %s does not match the helper (cgo %v):\n%s", platform, cgo, notes)
	}
	src := filepath.Join(t.TempDir(), "a.py")
	os.WriteFile(src, []byte("def f():\n    return 1\n"), 0o644)
	cmd := exec.Command(helper)
	cmd.Stdin = strings.NewReader(`{"path":` + strconv.Quote(src) + `}`)
	answer, err := cmd.Output()
	want := `{"text":"FILE: ` + src + ` [2L, 1F, 0C]\n\nF: f:1\n\n"}` + "\n"
	if !cgo {
		want = `{"text":"","error":{"kind":"no_cgo","message":"analyze is not available: ` + helper + ` was built without cgo`
	}
	if err != nil || !strings.HasPrefix(string(answer), want) {
		t.Errorf("goose-acp-analyze answered %q, %v; want %q", answer, err, want)
	}
}

func setting(info *debug.BuildInfo, key string) string {
	if info == nil {
		return ""
	}
	for _, s := range info.Settings {
		if s.Key == key {
			return s.Value
		}
	}
	return ""
}

// validateAgentJSON checks a real agent.json against the registry's schema
// kept in internal/release/testdata.
func validateAgentJSON(raw []byte) error {
	f, err := os.Open(filepath.Join("..", "..", "internal", "release", "testdata", "agent.schema.json"))
	if err != nil {
		return err
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("agent.schema.json", doc); err != nil {
		return err
	}
	sch, err := c.Compile("agent.schema.json")
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// extract writes the archive member name to a temp file and returns it.
func extract(t *testing.T, tgz []byte, name string) string {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err != nil {
			t.Fatalf("%s not in the archive: %v", name, err)
		}
		if h.Name != name {
			continue
		}
		path := filepath.Join(t.TempDir(), name)
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, os.FileMode(h.Mode))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(f, tr); err != nil {
			t.Fatal(err)
		}
		f.Close()
		return path
	}
}
