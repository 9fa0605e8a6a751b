package config

import (
	"errors"
	"testing"
)

func envMap(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestResolvePaths(t *testing.T) {
	tests := []struct {
		name string
		goos string
		env  map[string]string
		home string
		want Paths
	}{
		{"xdg defaults", "linux", nil, "/home/me",
			Paths{"/home/me/.config/goose", "/home/me/.local/share/goose", "/home/me/.local/state/goose"}},
		{"macOS uses xdg too", "darwin", nil, "/Users/me",
			Paths{"/Users/me/.config/goose", "/Users/me/.local/share/goose", "/Users/me/.local/state/goose"}},
		{"xdg vars", "linux", map[string]string{"XDG_CONFIG_HOME": "/c", "XDG_DATA_HOME": "/d", "XDG_STATE_HOME": "/s"}, "/home/me",
			Paths{"/c/goose", "/d/goose", "/s/goose"}},
		{"relative xdg ignored", "linux", map[string]string{"XDG_CONFIG_HOME": "rel"}, "/home/me",
			Paths{"/home/me/.config/goose", "/home/me/.local/share/goose", "/home/me/.local/state/goose"}},
		{"path root", "linux", map[string]string{"GOOSE_PATH_ROOT": "/tmp/g", "XDG_CONFIG_HOME": "/c"}, "/home/me",
			Paths{"/tmp/g/config", "/tmp/g/data", "/tmp/g/state"}},
		{"relative path root ignored", "linux", map[string]string{"GOOSE_PATH_ROOT": "relative/root"}, "/home/me",
			Paths{"/home/me/.config/goose", "/home/me/.local/share/goose", "/home/me/.local/state/goose"}},
		{"windows appdata", "windows", map[string]string{"APPDATA": `C:\Users\me\AppData\Roaming`}, `C:\Users\me`,
			Paths{`C:\Users\me\AppData\Roaming\Block\goose\config`, `C:\Users\me\AppData\Roaming\Block\goose\data`, `C:\Users\me\AppData\Roaming\Block\goose\data`}},
		{"windows without APPDATA", "windows", nil, `C:\Users\me`,
			Paths{`C:\Users\me\AppData\Roaming\Block\goose\config`, `C:\Users\me\AppData\Roaming\Block\goose\data`, `C:\Users\me\AppData\Roaming\Block\goose\data`}},
		{"windows path root", "windows", map[string]string{"GOOSE_PATH_ROOT": `D:\goose`}, `C:\Users\me`,
			Paths{`D:\goose\config`, `D:\goose\data`, `D:\goose\state`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := resolvePaths(tt.goos, envMap(tt.env), tt.home)
			if err != nil || got != tt.want {
				t.Fatalf("got %+v, %v\nwant %+v", got, err, tt.want)
			}
		})
	}
}

func TestResolvePathsWithoutHome(t *testing.T) {
	if _, err := resolvePaths("linux", envMap(nil), ""); !errors.Is(err, ErrNoHome) {
		t.Fatalf("err = %v", err)
	}
	p, err := resolvePaths("linux", envMap(map[string]string{"GOOSE_PATH_ROOT": "/r"}), "")
	if err != nil || p.Config != "/r/config" {
		t.Fatalf("%+v %v", p, err)
	}
}

func TestSystemConfigFile(t *testing.T) {
	if got := systemConfigFile("linux", envMap(nil)); got != "/etc/goose/config.yaml" {
		t.Fatal(got)
	}
	if got := systemConfigFile("windows", envMap(map[string]string{"PROGRAMDATA": `D:\PD`})); got != `D:\PD\goose\config.yaml` {
		t.Fatal(got)
	}
	if got := systemConfigFile("windows", envMap(nil)); got != `C:\ProgramData\goose\config.yaml` {
		t.Fatal(got)
	}
}

func TestPathFiles(t *testing.T) {
	p := Paths{Config: "/c", Data: "/d", State: "/s"}
	for got, want := range map[string]string{
		p.ConfigFile(): "/c/config.yaml", p.SecretsFile(): "/c/secrets.yaml", p.PermissionFile(): "/c/permission.yaml",
		p.SessionsDB(): "/d/sessions/sessions.db", p.LogsDir(): "/s/logs",
	} {
		if got != want {
			t.Errorf("got %s want %s", got, want)
		}
	}
}
