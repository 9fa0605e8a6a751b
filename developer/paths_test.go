package developer

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/goose-acp/goose-acp/core/pathpolicy"
)

func TestIsAbsPathPerOS(t *testing.T) {
	cases := []struct {
		goos, path string
		want       bool
	}{
		{"linux", "/etc/hosts", true},
		{"linux", "etc/hosts", false},
		{"darwin", "/Users/x", true},
		{"windows", `C:\Windows\System32`, true},
		{"windows", `c:/Users/x`, true},
		{"windows", `\\server\share\f.txt`, true},
		{"windows", `//server/share`, true},
		{"windows", `C:relative`, false},
		{"windows", `src\main.rs`, false},
		{"windows", `/unix/style`, false},
	}
	for _, tc := range cases {
		if got := isAbsPath(tc.path, tc.goos); got != tc.want {
			t.Errorf("isAbsPath(%q, %s) = %v, want %v", tc.path, tc.goos, got, tc.want)
		}
	}
}

func TestExpandPath(t *testing.T) {
	env := map[string]string{"HOME": "/home/u", "USERPROFILE": `C:\Users\u`, "APPDATA": `C:\Users\u\AppData\Roaming`}
	getenv := func(k string) string { return env[k] }
	cases := []struct{ goos, in, want string }{
		{"linux", "~", "/home/u"},
		{"linux", "~/x.txt", "/home/u/x.txt"},
		{"linux", "~other/x", "~other/x"},
		{"linux", "a/~/b", "a/~/b"},
		{"windows", `~\x.txt`, `C:\Users\u\x.txt`},
		{"windows", `%APPDATA%\goose`, `C:\Users\u\AppData\Roaming\goose`},
		{"windows", `%USERPROFILE%\d`, `C:\Users\u\d`},
	}
	for _, tc := range cases {
		if got := pathpolicy.ExpandHome(tc.in, tc.goos, getenv); got != tc.want {
			t.Errorf("ExpandHome(%q, %s) = %q, want %q", tc.in, tc.goos, got, tc.want)
		}
	}
}

func TestResolvePolicy(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlink fixtures need unix permissions")
	}
	wd := t.TempDir()
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "target.txt"), []byte("x"), 0o600)
	os.Symlink(outside, filepath.Join(wd, "escape"))
	os.Mkdir(filepath.Join(wd, "inner"), 0o755)
	os.Symlink(filepath.Join(wd, "inner"), filepath.Join(wd, "ok-link"))
	home := t.TempDir()
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	open := newPathPolicy(getenv, nil)
	closed := newPathPolicy(getenv, []string{filepath.Join(home, "allowed")})
	cases := []struct {
		name    string
		policy  pathPolicy
		in      string
		want    string
		wantErr error
	}{
		{"relative", open, "a/b.txt", filepath.Join(wd, "a/b.txt"), nil},
		{"dot segments inside", open, "a/../b.txt", filepath.Join(wd, "b.txt"), nil},
		{"relative traversal", open, "../x.txt", "", ErrOutsideRoots},
		{"deep traversal", open, "a/../../x.txt", "", ErrOutsideRoots},
		{"absolute unrestricted", open, filepath.Join(outside, "target.txt"), filepath.Join(outside, "target.txt"), nil},
		{"absolute restricted", closed, filepath.Join(outside, "target.txt"), "", ErrOutsideRoots},
		{"allowed root", closed, filepath.Join(home, "allowed", "f"), filepath.Join(home, "allowed", "f"), nil},
		{"tilde", closed, "~/allowed/f", filepath.Join(home, "allowed", "f"), nil},
		{"symlink escape relative", open, "escape/target.txt", "", ErrSymlinkEscape},
		{"symlink escape new file", open, "escape/new/file.txt", "", ErrSymlinkEscape},
		{"symlink escape absolute", open, filepath.Join(wd, "escape", "target.txt"), "", ErrSymlinkEscape},
		{"symlink inside", open, "ok-link/f.txt", filepath.Join(wd, "ok-link/f.txt"), nil},
		{"uri", open, "file:///etc/passwd", "", ErrURIPath},
		{"mcp uri", open, "skill://x", "", ErrURIPath},
		{"colon is not uri", open, "my:file", filepath.Join(wd, "my:file"), nil},
		{"empty", open, "", "", ErrEmptyPath},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.policy.resolve(tc.in, wd)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("resolve(%q) = %q, %v; want %v", tc.in, got, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("resolve(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
		})
	}
	_, err := open.resolve("skill://x", wd)
	if err.Error() != "'skill://x' is an MCP resource URI, not a filesystem path. Use the read_resource tool (it takes server + uri) for raw URIs, or load_skill for named skills." {
		t.Fatalf("uri text: %q", err)
	}
}

func TestWindowsRootedAndDriveRelative(t *testing.T) {
	cases := []struct {
		p, wd, want string
		err         error
	}{
		{`C:\abs\f.txt`, `D:\work`, `C:\abs\f.txt`, nil},
		{`\\srv\share\f`, `D:\work`, `\\srv\share\f`, nil},
		{`\Windows\win.ini`, `D:\work`, `D:\Windows\win.ini`, nil},
		{`/etc/x`, `D:\work`, `D:/etc/x`, nil},
		{`\top`, `\\srv\share\proj`, `\\srv\share\top`, nil},
		{`src\main.rs`, `D:\work`, `src\main.rs`, nil},
		{`C:notes.txt`, `D:\work`, "", ErrDriveRelative},
		{`c:`, `D:\work`, "", ErrDriveRelative},
	}
	for _, tc := range cases {
		got, err := windowsRooted(tc.p, tc.p, tc.wd)
		if !errors.Is(err, tc.err) || got != tc.want {
			t.Errorf("windowsRooted(%q, wd %q) = %q, %v; want %q, %v", tc.p, tc.wd, got, err, tc.want, tc.err)
		}
	}
	_, err := windowsRooted("C:notes.txt", "C:notes.txt", `D:\work`)
	if err.Error() != `Path 'C:notes.txt' is relative to the current directory of drive C:; use an absolute path such as C:\… or a path relative to the working directory` {
		t.Errorf("text = %q", err)
	}
	for _, tc := range []struct{ p, want string }{
		{`C:\x`, "C:"}, {`\\srv\share\a\b`, `\\srv\share`}, {`//srv/share`, `//srv\share`}, {`\\srv`, ""}, {`rel`, ""},
	} {
		if got := windowsVolume(tc.p); got != tc.want {
			t.Errorf("windowsVolume(%q) = %q, want %q", tc.p, got, tc.want)
		}
	}
}
