package config

import (
	"fmt"
	"os"
	"testing"
	"time"
)

// Edits made by another program apply on the next read, even with the
// parsed view cached: the file's stamp changed.
func TestExternalEditIsSeen(t *testing.T) {
	e := newTestEnv(t)
	user := e.paths.ConfigFile()
	writeAll(t, user, "GOOSE_MODEL: gpt-4o\n")
	c := e.open(t)
	if v, _ := c.GetString("GOOSE_MODEL"); v != "gpt-4o" {
		t.Fatalf("first read %q", v)
	}
	writeAll(t, user, "GOOSE_MODEL: gpt-4.1\n")
	later := time.Now().Add(time.Second)
	if err := os.Chtimes(user, later, later); err != nil {
		t.Fatal(err)
	}
	if v, _ := c.GetString("GOOSE_MODEL"); v != "gpt-4.1" {
		t.Fatalf("after an external edit %q", v)
	}
	if err := os.Remove(user); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get("GOOSE_MODEL"); err == nil {
		t.Fatal("a removed file's value is still served")
	}
}

// Our own writes apply at once, and what Get and GetAll hand out can be
// changed by the caller without changing the config.
func TestCachedViewIsNotShared(t *testing.T) {
	e := newTestEnv(t)
	writeAll(t, e.paths.ConfigFile(), "nested:\n  a: 1\n")
	c := e.open(t)
	v, err := c.Get("nested")
	if err != nil {
		t.Fatal(err)
	}
	v.(map[string]any)["a"] = "changed"
	all, _ := c.GetAll()
	all["nested"].(map[string]any)["b"] = 2
	again, _ := c.Get("nested")
	if got := fmt.Sprint(again); got != "map[a:1]" {
		t.Fatalf("cached view changed by a caller: %s", got)
	}
	if err := c.Set("GOOSE_MODEL", "o3"); err != nil {
		t.Fatal(err)
	}
	if v, _ := c.GetString("GOOSE_MODEL"); v != "o3" {
		t.Fatalf("own write not seen: %q", v)
	}
}
