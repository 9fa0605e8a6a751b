package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

type testEnv struct {
	dir    string
	paths  Paths
	system string
	env    map[string]string
}

func newTestEnv(t *testing.T) *testEnv {
	t.Helper()
	dir := t.TempDir()
	return &testEnv{
		dir:    dir,
		paths:  Paths{Config: filepath.Join(dir, "config"), Data: filepath.Join(dir, "data"), State: filepath.Join(dir, "state")},
		system: filepath.Join(dir, "etc", "config.yaml"),
		env:    map[string]string{},
	}
}

func (e *testEnv) open(t *testing.T) *Config {
	t.Helper()
	c, err := Open(Options{Paths: e.paths, Getenv: envMap(e.env), SystemFile: e.system})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func writeAll(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, content)
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestLayering(t *testing.T) {
	e := newTestEnv(t)
	extra1, extra2 := filepath.Join(e.dir, "team.yaml"), filepath.Join(e.dir, "project.yaml")
	e.env["GOOSE_ADDITIONAL_CONFIG_FILES"] = extra1 + string(os.PathListSeparator) + extra2
	writeAll(t, e.system, `
GOOSE_PROVIDER: openai
GOOSE_MODEL: gpt-4o
ONLY_SYSTEM: 1
extensions:
  github:
    enabled: false
    type: stdio
    name: github
    description: GitHub MCP
    cmd: npx
    args: [-y, server-github]
    timeout: 300
`)
	writeAll(t, extra1, "GOOSE_MODEL: gpt-4.1\nextensions:\n  github:\n    enabled: true\n")
	writeAll(t, extra2, "GOOSE_MODE: approve\n")
	writeAll(t, e.paths.ConfigFile(), "GOOSE_MODE: smart_approve\nextensions:\n  github:\n    timeout: 60\n")
	c := e.open(t)

	for key, want := range map[string]any{
		"GOOSE_PROVIDER": "openai", "GOOSE_MODEL": "gpt-4.1", "GOOSE_MODE": "smart_approve", "ONLY_SYSTEM": int64(1),
	} {
		got, err := c.Get(key)
		if err != nil || got != want {
			t.Errorf("%s = %#v, %v; want %#v", key, got, err, want)
		}
	}
	exts, errs := c.Extensions()
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	gh := exts["github"]
	if !gh.Enabled || gh.Config.Cmd != "npx" || gh.Config.TimeoutSeconds() != 60 || len(gh.Config.Args) != 2 {
		t.Fatalf("github = %+v", gh)
	}
	if want := []string{e.system, extra1, extra2, e.paths.ConfigFile()}; strings.Join(c.Files(), "|") != strings.Join(want, "|") {
		t.Fatalf("files = %v", c.Files())
	}
}

func TestEnvOverride(t *testing.T) {
	e := newTestEnv(t)
	writeAll(t, e.paths.ConfigFile(), "goose_model: from-file\nGOOSE_PROVIDER: anthropic\n")
	e.env["GOOSE_MODEL"] = "gpt-4o"
	e.env["GOOSE_TEMPERATURE"] = "0.5"
	c := e.open(t)
	if v, _ := c.Get("goose_model"); v != "gpt-4o" {
		t.Fatalf("lowercase key not overridden by uppercase env: %v", v)
	}
	if v, _ := c.Get("GOOSE_TEMPERATURE"); v != 0.5 {
		t.Fatalf("temperature = %#v", v)
	}
	all, err := c.GetAll()
	if err != nil || all["goose_model"] != "from-file" || all["GOOSE_PROVIDER"] != "anthropic" || len(all) != 2 {
		t.Fatalf("GetAll = %v, %v", all, err)
	}
	if _, err := c.Get("missing_key"); !errors.Is(err, ErrNotFound) || err.Error() != "Configuration value not found: missing_key" {
		t.Fatalf("err = %v", err)
	}
}

func TestParseEnvValue(t *testing.T) {
	tests := []struct {
		in   string
		want any
	}{
		{`{"a":[1,2.5]}`, map[string]any{"a": []any{int64(1), 2.5}}},
		{`["x"]`, []any{"x"}},
		{`"quoted"`, "quoted"},
		{`null`, nil},
		{`true`, true},
		{` TRUE `, true},
		{`False`, false},
		{`42`, int64(42)},
		{` 42 `, int64(42)},
		{`-7`, int64(-7)},
		{`1.5`, 1.5},
		{` 2.5e3`, 2500.0},
		{`9223372036854775808`, 9223372036854775808.0},
		{`inf`, "inf"},
		{`NaN`, "NaN"},
		{`0x10`, "0x10"},
		{`openai`, "openai"},
		{`gpt-4o`, "gpt-4o"},
		{` spaced value `, " spaced value "},
		{``, ""},
	}
	for _, tt := range tests {
		if got := ParseEnvValue(tt.in); fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", tt.want) {
			t.Errorf("ParseEnvValue(%q) = %#v, want %#v", tt.in, got, tt.want)
		}
	}
}

func TestDecode(t *testing.T) {
	e := newTestEnv(t)
	writeAll(t, e.paths.ConfigFile(), "XXX_TIMEOUT: \"300\"\nBAD: invalid\nNUM: 300\nFLAG: \"true\"\nLIST: [a, b]\n")
	c := e.open(t)
	if n, err := c.GetInt("XXX_TIMEOUT"); err != nil || n != 300 {
		t.Fatalf("quoted number = %d, %v", n, err)
	}
	if s, err := c.GetString("XXX_TIMEOUT"); err != nil || s != "300" {
		t.Fatalf("quoted number as string = %q, %v", s, err)
	}
	if s, err := c.GetString("NUM"); err != nil || s != "300" {
		t.Fatalf("number as string = %q, %v", s, err)
	}
	if _, err := c.GetInt("BAD"); err == nil {
		t.Fatal("invalid string read as a number")
	}
	if b, err := c.GetBool("FLAG"); err != nil || !b {
		t.Fatalf("flag = %v, %v", b, err)
	}
	var list []string
	if err := c.Decode("LIST", &list); err != nil || strings.Join(list, ",") != "a,b" {
		t.Fatalf("list = %v, %v", list, err)
	}
}

func TestSetWritesUserFile(t *testing.T) {
	e := newTestEnv(t)
	writeAll(t, e.system, "SYSTEM_ONLY: yes\n")
	c := e.open(t)
	for k, v := range map[string]any{"key1": "value1", "key2": 42, "key3": true, "key4": "300", "key5": map[string]any{"field1": "hello", "field2": 42}} {
		if err := c.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	got := readString(t, e.paths.ConfigFile())
	for _, want := range []string{"key1: value1\n", "key2: 42\n", "key3: true\n", "key4: \"300\"\n", "key5:\n  field1: hello\n  field2: 42\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("config.yaml lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "SYSTEM_ONLY") {
		t.Fatal("system values were copied into the user file")
	}
	var s struct {
		Field1 string `json:"field1"`
		Field2 int    `json:"field2"`
	}
	if err := c.Decode("key5", &s); err != nil || s.Field1 != "hello" || s.Field2 != 42 {
		t.Fatalf("complex = %+v, %v", s, err)
	}
	if err := c.Delete("key1"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get("key1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleted key still there: %v", err)
	}
	if err := c.Delete("never_there"); err != nil {
		t.Fatal(err)
	}
}

func TestSetKeepsOrderAndComments(t *testing.T) {
	e := newTestEnv(t)
	writeAll(t, e.paths.ConfigFile(), "# my settings\nZED: 1 # keep me\nALPHA: 2\n")
	c := e.open(t)
	if err := c.Set("ALPHA", 3); err != nil {
		t.Fatal(err)
	}
	if err := c.Set("NEW", "x"); err != nil {
		t.Fatal(err)
	}
	want := "# my settings\nZED: 1 # keep me\nALPHA: 3\nNEW: x\n"
	if got := readString(t, e.paths.ConfigFile()); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestCorruptConfig(t *testing.T) {
	e := newTestEnv(t)
	corrupt := "GOOSE_PROVIDER: openai\nextensions:\n  dev: [unclosed\n"
	writeAll(t, e.paths.ConfigFile(), corrupt)
	_, err := Open(Options{Paths: e.paths, Getenv: envMap(nil), SystemFile: e.system})
	var pe *ParseError
	if !errors.As(err, &pe) || !errors.Is(err, ErrCorruptConfig) || pe.Path != e.paths.ConfigFile() ||
		!strings.Contains(err.Error(), e.paths.ConfigFile()) || !strings.Contains(err.Error(), "line ") {
		t.Fatalf("err = %v", err)
	}

	// A config opened before the file broke refuses to write over it.
	writeAll(t, e.paths.ConfigFile(), "A: 1\n")
	c := e.open(t)
	writeAll(t, e.paths.ConfigFile(), corrupt)
	if err := c.Set("recovery_key", "value"); !errors.Is(err, ErrCorruptConfig) {
		t.Fatalf("Set err = %v", err)
	}
	if err := c.SetExtension(ExtensionEntry{Config: ExtensionConfig{Type: ExtensionBuiltin, Name: "x"}}); !errors.Is(err, ErrCorruptConfig) {
		t.Fatalf("SetExtension err = %v", err)
	}
	if got := readString(t, e.paths.ConfigFile()); got != corrupt {
		t.Fatalf("corrupt file was overwritten:\n%s", got)
	}
	if _, err := c.Get("A"); !errors.Is(err, ErrCorruptConfig) {
		t.Fatalf("Get err = %v", err)
	}

	writeAll(t, e.paths.ConfigFile(), "- just\n- a list\n")
	if _, err := Open(Options{Paths: e.paths, Getenv: envMap(nil), SystemFile: e.system}); !errors.Is(err, ErrCorruptConfig) ||
		!strings.Contains(err.Error(), "not a mapping") {
		t.Fatalf("list err = %v", err)
	}
}

func TestEmptyAndMissingFiles(t *testing.T) {
	e := newTestEnv(t)
	writeAll(t, e.paths.ConfigFile(), "")
	c := e.open(t)
	if all, err := c.GetAll(); err != nil || len(all) != 0 {
		t.Fatalf("%v %v", all, err)
	}
	if err := c.Set("k", "v"); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, e.paths.ConfigFile()); got != "k: v\n" {
		t.Fatalf("got %q", got)
	}
}

func TestWriteFollowsOneSymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	e := newTestEnv(t)
	real := filepath.Join(e.dir, "real_config.yaml")
	writeAll(t, real, "{}\n")
	if err := os.MkdirAll(e.paths.Config, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, e.paths.ConfigFile()); err != nil {
		t.Fatal(err)
	}
	c := e.open(t)
	if err := c.Set("key1", "value1"); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(e.paths.ConfigFile()); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Fatal("config path is no longer a symlink")
	}
	if got := readString(t, real); got != "key1: value1\n" {
		t.Fatalf("target = %q", got)
	}

	// Two hops are refused.
	link1 := filepath.Join(e.dir, "link1.yaml")
	if err := os.Symlink(real, link1); err != nil {
		t.Fatal(err)
	}
	os.Remove(e.paths.ConfigFile())
	if err := os.Symlink(link1, e.paths.ConfigFile()); err != nil {
		t.Fatal(err)
	}
	if err := c.Set("key2", "v"); err == nil || !strings.Contains(err.Error(), "Too many symlink levels") {
		t.Fatalf("err = %v", err)
	}
}

func TestConcurrentWritersLoseNothing(t *testing.T) {
	e := newTestEnv(t)
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := e.open(t) // separate instances share only the lock file
			for j := range 3 {
				if err := c.Set(fmt.Sprintf("key%d_%d", i, j), i*10+j); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	all, err := e.open(t).GetAll()
	if err != nil || len(all) != 18 {
		t.Fatalf("%d keys, %v: %v", len(all), err, all)
	}
}

func TestYAMLScalarsStayJSONShaped(t *testing.T) {
	e := newTestEnv(t)
	writeAll(t, e.paths.ConfigFile(), "D: 2024-01-01\nT: 2024-01-01 10:00:00\nF: .inf\nN: -.NaN\nO: 0o17\nY: yes\nZ: ~\nBIG: 18446744073709551615\n")
	all, err := e.open(t).GetAll()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"D": "2024-01-01", "T": "2024-01-01 10:00:00", "F": ".inf", "N": "-.NaN", "O": int64(15), "Y": "yes", "Z": nil, "BIG": 18446744073709551615.0}
	if fmt.Sprintf("%#v", all) != fmt.Sprintf("%#v", want) {
		t.Fatalf("got  %#v\nwant %#v", all, want)
	}
}

func TestOpenNeedsConfigDir(t *testing.T) {
	if _, err := Open(Options{}); err == nil || !strings.Contains(err.Error(), "ResolvePaths") {
		t.Fatalf("err = %v", err)
	}
}
