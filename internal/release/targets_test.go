package release

import (
	"errors"
	"runtime"
	"testing"
)

func TestTargetsCoverRegistryPlatforms(t *testing.T) {
	want := map[string]string{
		"linux-x86_64": "goose-acp-0.1.0-linux-x86_64.tar.gz", "linux-aarch64": "goose-acp-0.1.0-linux-aarch64.tar.gz",
		"darwin-x86_64": "goose-acp-0.1.0-darwin-x86_64.tar.gz", "darwin-aarch64": "goose-acp-0.1.0-darwin-aarch64.tar.gz",
		"windows-x86_64": "goose-acp-0.1.0-windows-x86_64.zip",
	}
	if len(Targets) != len(want) {
		t.Fatalf("%d targets, want %d", len(Targets), len(want))
	}
	for _, tg := range Targets {
		if got := tg.ArchiveName("0.1.0"); got != want[tg.Platform] {
			t.Errorf("%s: archive %q, want %q", tg.Platform, got, want[tg.Platform])
		}
	}
}

// Cross targets use only their named cross compiler; the host target also
// takes the host's own; darwin from elsewhere gets none (pure Go).
func TestCompilerChoice(t *testing.T) {
	t.Setenv("CC", "")
	onPath := func(have ...string) func(string) (string, error) {
		return func(name string) (string, error) {
			for _, h := range have {
				if h == name {
					return "/usr/bin/" + name, nil
				}
			}
			return "", errors.New("not found")
		}
	}
	byPlatform := map[string]Target{}
	for _, tg := range Targets {
		byPlatform[tg.Platform] = tg
	}
	arm := byPlatform["linux-aarch64"]
	if runtime.GOOS == "linux" && runtime.GOARCH == "amd64" {
		if got := arm.compiler(onPath("gcc")); got != "" {
			t.Errorf("linux-aarch64 with only the host gcc: %q, want none", got)
		}
		if got := byPlatform["linux-x86_64"].compiler(onPath("gcc")); got != "/usr/bin/gcc" {
			t.Errorf("host target: %q, want /usr/bin/gcc", got)
		}
		if got := byPlatform["darwin-aarch64"].compiler(onPath("gcc", "clang")); got != "" {
			t.Errorf("darwin from linux: %q, want none", got)
		}
	}
	if got := arm.compiler(onPath("aarch64-linux-gnu-gcc")); got != "/usr/bin/aarch64-linux-gnu-gcc" {
		t.Errorf("linux-aarch64 with the cross gcc: %q", got)
	}
	if got := byPlatform["windows-x86_64"].compiler(onPath("x86_64-w64-mingw32-gcc")); got != "/usr/bin/x86_64-w64-mingw32-gcc" {
		t.Errorf("windows with mingw: %q", got)
	}
}
