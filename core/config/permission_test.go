package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func newPermissions(t *testing.T) (*Permissions, string) {
	t.Helper()
	dir := t.TempDir()
	p, err := OpenPermissions(filepath.Join(dir, PermissionFileName))
	if err != nil {
		t.Fatal(err)
	}
	return p, dir
}

func mustSetUser(t *testing.T, p *Permissions, tool string, l PermissionLevel) {
	t.Helper()
	if err := p.SetUser(tool, l); err != nil {
		t.Fatal(err)
	}
}

func wantLevel(t *testing.T, got PermissionLevel, ok bool, want PermissionLevel) {
	t.Helper()
	if want == "" {
		if ok {
			t.Fatalf("got %q, want no entry", got)
		}
		return
	}
	if !ok || got != want {
		t.Fatalf("got %q (%v), want %q", got, ok, want)
	}
}

func TestPermissionsEmpty(t *testing.T) {
	p, dir := newPermissions(t)
	user, smart, err := p.Snapshot()
	if err != nil || len(user) != 0 || len(smart) != 0 {
		t.Fatalf("snapshot = %v %v %v", user, smart, err)
	}
	l, ok := p.User("non_existent_tool")
	wantLevel(t, l, ok, "")
	if _, err := os.Stat(filepath.Join(dir, permissionLockName)); !os.IsNotExist(err) {
		t.Fatal("a read created the lock file")
	}
}

func TestPermissionReadsDoNotCreateLockFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, PermissionFileName)
	writeFile(t, path, "user:\n  always_allow:\n    - git__status\n  ask_before: []\n  never_allow: []\n")
	p, err := OpenPermissions(path)
	if err != nil {
		t.Fatal(err)
	}
	l, ok := p.User("git__status")
	wantLevel(t, l, ok, AlwaysAllow)
	if _, err := os.Stat(filepath.Join(dir, permissionLockName)); !os.IsNotExist(err) {
		t.Fatal("a read created the lock file")
	}
}

func TestPermissionLevels(t *testing.T) {
	p, _ := newPermissions(t)
	mustSetUser(t, p, "tool4", AlwaysAllow)
	mustSetUser(t, p, "tool5", AskBefore)
	mustSetUser(t, p, "tool6", NeverAllow)
	if err := p.SetSmart("tool2", AskBefore); err != nil {
		t.Fatal(err)
	}
	for tool, want := range map[string]PermissionLevel{"tool4": AlwaysAllow, "tool5": AskBefore, "tool6": NeverAllow} {
		l, ok := p.User(tool)
		wantLevel(t, l, ok, want)
	}
	l, ok := p.Smart("tool2")
	wantLevel(t, l, ok, AskBefore)
	l, ok = p.User("tool2")
	wantLevel(t, l, ok, "")
}

func TestPermissionFileFormat(t *testing.T) {
	p, _ := newPermissions(t)
	mustSetUser(t, p, "developer__shell", AlwaysAllow)
	if err := p.SetSmart("github__create_issue", AskBefore); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(p.Path())
	if err != nil {
		t.Fatal(err)
	}
	want := "smart_approve:\n  always_allow: []\n  ask_before:\n    - github__create_issue\n  never_allow: []\n" +
		"user:\n  always_allow:\n    - developer__shell\n  ask_before: []\n  never_allow: []\n"
	if string(got) != want {
		t.Fatalf("permission.yaml =\n%s\nwant\n%s", got, want)
	}
}

func TestPersistedNeverAllowTakesPrecedence(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, PermissionFileName)
	writeFile(t, path, `user:
  always_allow:
    - denied_from_allow
    - allowed
  ask_before:
    - denied_from_ask
    - prompted
  never_allow:
    - denied_from_allow
    - denied_from_ask
    - denied
`)
	p, err := OpenPermissions(path)
	if err != nil {
		t.Fatal(err)
	}
	for tool, want := range map[string]PermissionLevel{
		"denied_from_allow": NeverAllow, "denied_from_ask": NeverAllow, "allowed": AlwaysAllow,
		"prompted": AskBefore, "denied": NeverAllow, "unknown": "",
	} {
		l, ok := p.User(tool)
		wantLevel(t, l, ok, want)
	}
	user, _, err := p.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if user["denied_from_allow"] != NeverAllow || user["prompted"] != AskBefore || len(user) != 5 {
		t.Fatalf("snapshot user = %v", user)
	}
}

func TestPermissionUpdateReplacesExistingLevel(t *testing.T) {
	p, _ := newPermissions(t)
	mustSetUser(t, p, "tool7", AlwaysAllow)
	mustSetUser(t, p, "tool7", NeverAllow)
	l, ok := p.User("tool7")
	wantLevel(t, l, ok, NeverAllow)
	m, err := p.load()
	if err != nil {
		t.Fatal(err)
	}
	s := m[permissionUserSection]
	if len(s.AlwaysAllow) != 0 || len(s.AskBefore) != 0 || len(s.NeverAllow) != 1 {
		t.Fatalf("user section = %+v", s)
	}
}

func TestRemoveExtension(t *testing.T) {
	p, _ := newPermissions(t)
	mustSetUser(t, p, "git__status", AlwaysAllow)
	mustSetUser(t, p, "git__tool__with__delimiter", AskBefore)
	mustSetUser(t, p, "github__delete_repo", NeverAllow)
	mustSetUser(t, p, "gitlab__deploy", AskBefore)
	mustSetUser(t, p, "__cli__ent____tool", NeverAllow)

	if err := p.RemoveExtension("git"); err != nil {
		t.Fatal(err)
	}
	for tool, want := range map[string]PermissionLevel{
		"git__status": "", "git__tool__with__delimiter": "",
		"github__delete_repo": NeverAllow, "gitlab__deploy": AskBefore,
	} {
		l, ok := p.User(tool)
		wantLevel(t, l, ok, want)
	}
	if err := p.RemoveExtension("__cli__ent__"); err != nil {
		t.Fatal(err)
	}
	l, ok := p.User("__cli__ent____tool")
	wantLevel(t, l, ok, "")
	if err := p.RemoveExtension(""); err != nil {
		t.Fatal(err)
	}
	l, ok = p.User("github__delete_repo")
	wantLevel(t, l, ok, NeverAllow)
}

func TestRemoveExtensionPreservesNewerPermissions(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, PermissionFileName)
	deleting, _ := OpenPermissions(path)
	mustSetUser(t, deleting, "git__status", AlwaysAllow)
	newer, _ := OpenPermissions(path)
	mustSetUser(t, newer, "github__status", AskBefore)
	if err := deleting.RemoveExtension("git"); err != nil {
		t.Fatal(err)
	}
	persisted, err := OpenPermissions(path)
	if err != nil {
		t.Fatal(err)
	}
	l, ok := persisted.User("git__status")
	wantLevel(t, l, ok, "")
	l, ok = persisted.User("github__status")
	wantLevel(t, l, ok, AskBefore)
}

func TestReadsFailClosedWhenFileBreaks(t *testing.T) {
	p, _ := newPermissions(t)
	mustSetUser(t, p, "git__status", AlwaysAllow)
	writeFile(t, p.Path(), "{{invalid yaml: [broken")
	l, ok := p.User("git__status")
	wantLevel(t, l, ok, NeverAllow)
	l, ok = p.Smart("anything")
	wantLevel(t, l, ok, NeverAllow)
	if _, _, err := p.Snapshot(); !errors.Is(err, ErrCorruptPermissions) {
		t.Fatalf("snapshot err = %v", err)
	}
	// A write must not replace the user's (broken) file.
	if err := p.SetUser("x", AlwaysAllow); !errors.Is(err, ErrCorruptPermissions) {
		t.Fatalf("SetUser err = %v", err)
	}
	got, _ := os.ReadFile(p.Path())
	if string(got) != "{{invalid yaml: [broken" {
		t.Fatalf("corrupt file was rewritten: %q", got)
	}
}

func TestReadsSeeExternalChanges(t *testing.T) {
	p, _ := newPermissions(t)
	mustSetUser(t, p, "git__status", AlwaysAllow)
	writeFile(t, p.Path(), "{}\n")
	l, ok := p.User("git__status")
	wantLevel(t, l, ok, "")
}

func TestUpdateDoesNotRestoreExternallyDeletedPermissions(t *testing.T) {
	p, _ := newPermissions(t)
	mustSetUser(t, p, "git__status", AlwaysAllow)
	if err := os.Remove(p.Path()); err != nil {
		t.Fatal(err)
	}
	mustSetUser(t, p, "github__status", AskBefore)
	persisted, err := OpenPermissions(p.Path())
	if err != nil {
		t.Fatal(err)
	}
	l, ok := persisted.User("git__status")
	wantLevel(t, l, ok, "")
	l, ok = persisted.User("github__status")
	wantLevel(t, l, ok, AskBefore)
}

func TestCorruptedPermissionFileRefused(t *testing.T) {
	for _, content := range []string{"{{invalid yaml: [broken", "user: 5\n", "user:\n  always_allow: {a: b}\n"} {
		dir := t.TempDir()
		path := filepath.Join(dir, PermissionFileName)
		writeFile(t, path, content)
		_, err := OpenPermissions(path)
		want := "Corrupted permission config at " + path + ". Fix or remove the file to continue."
		if err == nil || err.Error() != want || !errors.Is(err, ErrCorruptPermissions) {
			t.Fatalf("%q: err = %v", content, err)
		}
	}
}

func TestSetRejectsUnknownLevel(t *testing.T) {
	p, _ := newPermissions(t)
	if err := p.SetUser("t", "sometimes"); err == nil || !strings.Contains(err.Error(), "sometimes") {
		t.Fatalf("err = %v", err)
	}
}

func TestPermissionUpdatesWaitForLockHolder(t *testing.T) {
	p, dir := newPermissions(t)
	held, err := lockExclusive(filepath.Join(dir, permissionLockName))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- p.SetUser("github__status", AskBefore) }()
	select {
	case err := <-done:
		t.Fatalf("update finished while the lock was held: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	held.unlock()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("update never finished")
	}
}

func TestConcurrentPermissionWritersLoseNothing(t *testing.T) {
	_, dir := newPermissions(t)
	path := filepath.Join(dir, PermissionFileName)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := OpenPermissions(path) // separate instances, like separate processes
			if err != nil {
				t.Error(err)
				return
			}
			if err := p.SetUser(string(rune('a'+i))+"__tool", AlwaysAllow); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	p, _ := OpenPermissions(path)
	user, _, err := p.Snapshot()
	if err != nil || len(user) != 8 {
		t.Fatalf("user = %v, err = %v", user, err)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// goose writes permission.yaml with serde_yaml: list items at the key's
// indentation and sections in any order.
func TestReadsGooseWrittenPermissionFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, PermissionFileName)
	writeFile(t, path, "smart_approve:\n  always_allow: []\n  ask_before:\n  - github__create_issue\n  never_allow: []\nuser:\n  always_allow:\n  - developer__shell\n  ask_before: []\n  never_allow: []\n")
	p, err := OpenPermissions(path)
	if err != nil {
		t.Fatal(err)
	}
	l, ok := p.User("developer__shell")
	wantLevel(t, l, ok, AlwaysAllow)
	l, ok = p.Smart("github__create_issue")
	wantLevel(t, l, ok, AskBefore)
}
