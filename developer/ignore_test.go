package developer

import (
	"os"
	"path/filepath"
	"testing"
)

func TestGooseIgnoreRules(t *testing.T) {
	cases := []struct {
		name          string
		global, local string // "" = file absent
		path          string
		want          bool
	}{
		{"defaults env", "", "", ".env", true},
		{"defaults env.local", "", "", "sub/.env.local", true},
		{"defaults secrets", "", "", "secrets.txt", true},
		{"defaults normal", "", "", "normal.txt", false},
		{"local basic", "", "secret.txt\n*.env\n", "secret.txt", true},
		{"local glob", "", "secret.txt\n*.env\n", "test.env", true},
		{"local not matched", "", "secret.txt\n*.env\n", "not_secret.txt", false},
		{"local replaces defaults", "", "secret.txt\n", ".env", false},
		{"global only", "*.key\n", "", "id.key", true},
		{"local negates global", "*.key\n", "!public.key\n", "public.key", false},
		{"dir pattern covers files", "", "node_modules/\n", "node_modules/a/b.js", true},
		{"comment ignored", "", "# secret.txt\n", "secret.txt", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wd, cfg := t.TempDir(), t.TempDir()
			if tc.global != "" {
				os.WriteFile(filepath.Join(cfg, ".gooseignore"), []byte(tc.global), 0o600)
			}
			if tc.local != "" {
				os.WriteFile(filepath.Join(wd, ".gooseignore"), []byte(tc.local), 0o600)
			}
			got := newIgnoreCache(cfg).rulesFor(wd).ignored(filepath.Join(wd, tc.path))
			if got != tc.want {
				t.Fatalf("ignored(%s) = %v, want %v", tc.path, got, tc.want)
			}
		})
	}
}

func TestGooseIgnoreDefaultsAreNotWritten(t *testing.T) {
	wd, cfg := t.TempDir(), t.TempDir()
	c := newIgnoreCache(cfg)
	if !c.rulesFor(wd).ignored(filepath.Join(wd, ".env")) {
		t.Fatal(".env not ignored by default")
	}
	for _, p := range []string{filepath.Join(wd, ".gooseignore"), filepath.Join(cfg, ".gooseignore")} {
		if _, err := os.Stat(p); err == nil {
			t.Fatalf("%s was created", p)
		}
	}
	// A new local file takes effect without a restart.
	os.WriteFile(filepath.Join(wd, ".gooseignore"), []byte("x.txt\n"), 0o600)
	if r := c.rulesFor(wd); !r.ignored(filepath.Join(wd, "x.txt")) || r.ignored(filepath.Join(wd, ".env")) {
		t.Fatal("cache did not reload the new .gooseignore")
	}
}

func TestConfigDir(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	env["HOME"] = "/home/u"
	if got := configDir("", getenv); got != filepath.Join("/home/u", ".config", "goose") && filepath.Separator == '/' {
		t.Fatalf("home: %s", got)
	}
	env["XDG_CONFIG_HOME"] = "/xdg"
	if got := configDir("", getenv); got != filepath.Join("/xdg", "goose") && filepath.Separator == '/' {
		t.Fatalf("xdg: %s", got)
	}
	env["GOOSE_PATH_ROOT"] = "/root"
	if got := configDir("", getenv); got != filepath.Join("/root", "config") {
		t.Fatalf("root: %s", got)
	}
	if got := configDir("/explicit", getenv); got != "/explicit" {
		t.Fatalf("explicit: %s", got)
	}
}
