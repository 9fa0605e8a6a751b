package config

import (
	"os"
	"reflect"
	"testing"
	"time"
)

// Lookup answers as Get does, without an error: the environment first, a
// missing key or an unreadable file is not set, and the value is a copy.
func TestLookupIsGetWithoutTheError(t *testing.T) {
	e := newTestEnv(t)
	e.env["GOOSE_MODE"] = "chat"
	e.env["GOOSE_EMPTY"] = ""
	writeAll(t, e.paths.ConfigFile(), "GOOSE_MODEL: gpt-4o\nGOOSE_MODE: auto\nnested:\n  a: 1\nnothing: null\nGOOSE_EMPTY: x\n")
	c := e.open(t)
	check := func(when string) {
		t.Helper()
		for _, key := range []string{"GOOSE_MODEL", "GOOSE_MODE", "goose_mode", "nested", "nothing", "GOOSE_EMPTY", "MISSING"} {
			want, err := c.Get(key)
			got, ok := c.Lookup(key)
			if ok != (err == nil) || !reflect.DeepEqual(got, want) {
				t.Errorf("%s: Lookup(%q) = %v, %v; Get = %v, %v", when, key, got, ok, want, err)
			}
		}
	}
	check("readable")
	v, _ := c.Lookup("nested")
	v.(map[string]any)["a"] = "changed"
	if again, _ := c.Lookup("nested"); again.(map[string]any)["a"] != int64(1) {
		t.Fatalf("Lookup handed out the cached value: %v", again)
	}
	writeAll(t, e.paths.ConfigFile(), "GOOSE_MODEL: [unclosed\n")
	later := time.Now().Add(time.Second)
	if err := os.Chtimes(e.paths.ConfigFile(), later, later); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get("GOOSE_MODEL"); err == nil {
		t.Fatal("a broken config.yaml still reads")
	}
	check("unreadable")
}
