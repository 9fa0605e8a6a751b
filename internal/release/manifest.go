package release

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Meta is the registry entry's fixed part.
type Meta struct {
	ID          string
	Name        string
	Description string
	Repository  string
	// License is an SPDX id; empty leaves the field out (the repository
	// has no LICENSE file yet, so nothing is claimed).
	License string
	Authors []string
}

// DefaultMeta describes goose-acp.
var DefaultMeta = Meta{
	ID:          "goose-acp",
	Name:        "goose-acp",
	Description: "The goose agent in Go: goose's agent loop, developer tools, config and sessions as one binary for ACP editors",
	Repository:  "https://github.com/goose-acp/goose-acp",
}

// DefaultDownloadURL is where the archives are published; {version} and
// {archive} are filled in per target.
const DefaultDownloadURL = "https://github.com/goose-acp/goose-acp/releases/download/v{version}/{archive}"

// Artifact is one platform's built archive.
type Artifact struct {
	Target  Target
	Archive string // file name
	SHA256  string // hex of the archive's bytes
	CGO     bool   // the analyze helper was built with cgo
	Analyze bool   // the analyze helper links a parser
	Note    string
}

// agentJSON mirrors the registry's agent.schema.json (field order as in
// its examples).
type agentJSON struct {
	ID           string       `json:"id"`
	Name         string       `json:"name"`
	Version      string       `json:"version"`
	Description  string       `json:"description"`
	Repository   string       `json:"repository,omitempty"`
	Authors      []string     `json:"authors,omitempty"`
	License      string       `json:"license,omitempty"`
	Distribution distribution `json:"distribution"`
}

type distribution struct {
	Binary map[string]binaryTarget `json:"binary"`
}

type binaryTarget struct {
	Archive string   `json:"archive"`
	Cmd     string   `json:"cmd"`
	Args    []string `json:"args,omitempty"`
	SHA256  string   `json:"sha256"`
}

// Manifest renders agent.json for version from the artifacts. goose-acp
// serves ACP on stdio with no arguments, so no target sets args.
func Manifest(m Meta, version, downloadURL string, arts []Artifact) ([]byte, error) {
	if len(arts) == 0 {
		return nil, fmt.Errorf("release: no archives to list in agent.json")
	}
	a := agentJSON{ID: m.ID, Name: m.Name, Version: version, Description: m.Description,
		Repository: m.Repository, Authors: m.Authors, License: m.License,
		Distribution: distribution{Binary: map[string]binaryTarget{}}}
	for _, art := range arts {
		if _, dup := a.Distribution.Binary[art.Target.Platform]; dup {
			return nil, fmt.Errorf("release: two archives for %s", art.Target.Platform)
		}
		a.Distribution.Binary[art.Target.Platform] = binaryTarget{
			Archive: archiveURL(downloadURL, version, art.Archive),
			Cmd:     "./" + art.Target.Exe(),
			SHA256:  art.SHA256,
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(a); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func archiveURL(tmpl, version, archive string) string {
	return strings.NewReplacer("{version}", version, "{archive}", archive).Replace(tmpl)
}

// Sums renders SHA256SUMS in sha256sum's format (`sha256sum -c` checks it).
func Sums(arts []Artifact) []byte {
	sorted := append([]Artifact(nil), arts...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Archive < sorted[j].Archive })
	var b strings.Builder
	for _, a := range sorted {
		fmt.Fprintf(&b, "%s  %s\n", a.SHA256, a.Archive)
	}
	return []byte(b.String())
}

// Notes renders NOTES.md: per platform, the archive and whether its
// analyze helper has a parser (cgo), with the reason when it does not.
func Notes(version string, arts []Artifact) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# goose-acp %s\n\n", version)
	b.WriteString("goose-acp is built without cgo on every platform. `analyze` (code structure through tree-sitter) runs in goose-acp-analyze, the helper beside it in each archive, and works only where the helper links a tree-sitter parser, which needs cgo; the cgo and analyze columns below are read from the helper's build info. Everything else is the same on every platform.\n\n")
	b.WriteString("| platform | archive | cgo | analyze | note |\n|---|---|---|---|---|\n")
	for _, a := range arts {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", a.Target.Platform, a.Archive, yesNo(a.CGO), yesNo(a.Analyze), a.Note)
	}
	return []byte(b.String())
}

func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}
