package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// openSourceLicences are the licences goose-acp may link, each with text
// that its licence file carries (white space collapsed).
var openSourceLicences = map[string][]*regexp.Regexp{
	"MIT": {regexp.MustCompile(`Permission is hereby granted, free of charge`),
		regexp.MustCompile(`(?i)licen[cs]e\W+MIT\b`)}, // a README's "## License\n\nMIT"
	"Apache-2.0":   {regexp.MustCompile(`Apache License,? Version 2\.0`)},
	"BSD-2-Clause": {regexp.MustCompile(`Redistribution and use in source and binary forms`)},
	"BSD-3-Clause": {regexp.MustCompile(`Redistribution and use in source and binary forms.*(Neither the name|names of its contributors|name of the copyright holder)`)},
	"ISC":          {regexp.MustCompile(`Permission to use, copy, modify, and(/or)? distribute this software`)},
	"MPL-2.0":      {regexp.MustCompile(`Mozilla Public License,? [Vv]ersion 2\.0`)},
}

type allowed struct{ licences, file string }

func readAllowlist(t *testing.T) map[string]allowed {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "licenses-allowlist.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]allowed{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 3 {
			t.Fatalf("allowlist line %q: want module, licence, file", line)
		}
		out[fields[0]] = allowed{strings.Join(fields[1:len(fields)-1], " "), fields[len(fields)-1]}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// linkedModules lists the modules whose packages go into goose-acp and
// its helpers (analyze, configure), with their directories, for the native build (cgo
// as the environment says) and the darwin and windows cross-builds.
func linkedModules(t *testing.T) map[string]string {
	t.Helper()
	mods := map[string]string{}
	for _, env := range [][]string{nil, {"GOOS=darwin", "CGO_ENABLED=0"}, {"GOOS=windows", "CGO_ENABLED=0"}} {
		cmd := exec.Command("go", "list", "-deps", "-f", "{{with .Module}}{{if not .Main}}{{.Path}}\t{{.Dir}}{{end}}{{end}}", ".", "../goose-acp-analyze", "../goose-acp-configure")
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -deps %v: %v", env, err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if path, dir, ok := strings.Cut(line, "\t"); ok {
				mods[path] = dir
			}
		}
	}
	return mods
}

// TestLinkedModulesAreOpenSource fails on any module linked into goose-acp
// that is not on testdata/licenses-allowlist.txt with an open-source
// licence its own licence file confirms.
func TestLinkedModulesAreOpenSource(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	allow := readAllowlist(t)
	mods := linkedModules(t)
	if _, ok := mods["github.com/modelcontextprotocol/go-sdk"]; !ok {
		t.Fatalf("go list found no goose-acp dependencies: %v", mods)
	}
	for path, dir := range mods {
		a, ok := allow[path]
		if !ok {
			t.Errorf("%s is linked into goose-acp or a helper (goose-acp-analyze, goose-acp-configure) but not on testdata/licenses-allowlist.txt; read its licence and add it if it is open source", path)
			continue
		}
		if err := checkLicence(dir, a); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
}

func checkLicence(dir string, a allowed) error {
	if dir == "" {
		return fmt.Errorf("not in the module cache (run go mod download)")
	}
	raw, err := os.ReadFile(filepath.Join(dir, a.file))
	if err != nil {
		return fmt.Errorf("licence file: %w", err)
	}
	text := strings.Join(strings.Fields(string(raw)), " ")
	for _, id := range strings.Split(a.licences, " AND ") {
		sigs, ok := openSourceLicences[id]
		if !ok {
			return fmt.Errorf("licence %q is not on the open-source list", id)
		}
		if !matchesAny(sigs, text) {
			return fmt.Errorf("%s does not carry the %s licence the allowlist names", a.file, id)
		}
	}
	return nil
}

func matchesAny(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

func TestLicenceCheckCatchesWrongClaims(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("LICENSE", "Permission is hereby granted,\n  free of charge, to any person")
	write("PROPRIETARY", "All rights reserved. You may not redistribute this software.")
	for _, tt := range []struct {
		a    allowed
		want string
	}{
		{allowed{"MIT", "LICENSE"}, ""},
		{allowed{"Apache-2.0", "LICENSE"}, "LICENSE does not carry the Apache-2.0 licence the allowlist names"},
		{allowed{"MIT", "PROPRIETARY"}, "PROPRIETARY does not carry the MIT licence the allowlist names"},
		{allowed{"BUSL-1.1", "LICENSE"}, `licence "BUSL-1.1" is not on the open-source list`},
		{allowed{"MIT AND Apache-2.0", "LICENSE"}, "LICENSE does not carry the Apache-2.0 licence the allowlist names"},
	} {
		err := checkLicence(dir, tt.a)
		if got := fmt.Sprint(err); (tt.want == "" && err != nil) || (tt.want != "" && got != tt.want) {
			t.Errorf("checkLicence(%v) = %v, want %q", tt.a, err, tt.want)
		}
	}
}
