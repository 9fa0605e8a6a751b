package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/internal/release"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	fs.SetOutput(stderr)
	version := fs.String("version", "", "semantic version to stamp and publish, e.g. 0.1.0 (required)")
	out := fs.String("out", "", "output directory (default dist/VERSION under the module root)")
	cgo := fs.Bool("cgo", true, "build the analyze helper with cgo (and so a parser) where a C compiler for the target is on PATH; goose-acp itself is always built without cgo")
	platforms := fs.String("platforms", "", "comma-separated registry platforms to build (default all: "+allPlatforms()+")")
	url := fs.String("download-url", release.DefaultDownloadURL, "archive URL template for agent.json ({version}, {archive})")
	license := fs.String("license", "Apache-2.0", "SPDX license id for agent.json (the repository's LICENSE; left out when empty)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *version == "" || fs.NArg() > 0 {
		fs.Usage()
		return errors.New("-version is required (and takes no other arguments)")
	}
	v, err := release.NormalizeVersion(*version)
	if err != nil {
		return err
	}
	targets, err := pick(*platforms)
	if err != nil {
		return err
	}
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	if *out == "" {
		*out = filepath.Join(root, "dist", v)
	}
	meta := release.DefaultMeta
	meta.License = *license
	mtime, err := sourceDate(root)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "goose-acp %s → %s\n", v, *out)
	_, err = release.Run(context.Background(), release.Options{
		Version: v, Root: root, Out: *out, CGO: *cgo, Targets: targets,
		DownloadURL: *url, Meta: meta, MTime: mtime, Log: stdout,
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote SHA256SUMS, agent.json and NOTES.md in %s\n", *out)
	return nil
}

func allPlatforms() string {
	var names []string
	for _, t := range release.Targets {
		names = append(names, t.Platform)
	}
	return strings.Join(names, ",")
}

// pick selects targets by registry platform name.
func pick(list string) ([]release.Target, error) {
	if list == "" {
		return release.Targets, nil
	}
	var out []release.Target
	for _, name := range strings.Split(list, ",") {
		found := false
		for _, t := range release.Targets {
			if t.Platform == strings.TrimSpace(name) {
				out = append(out, t)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown platform %q (known: %s)", name, allPlatforms())
		}
	}
	return out, nil
}

func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	gomod := strings.TrimSpace(string(out))
	if err != nil || gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("run this inside the goose-acp module (go env GOMOD: %q, %v)", gomod, err)
	}
	return filepath.Dir(gomod), nil
}

// sourceDate stamps archived files reproducibly: SOURCE_DATE_EPOCH when
// set, else the HEAD commit's time, else now.
func sourceDate(root string) (time.Time, error) {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH=%q: %w", s, err)
		}
		return time.Unix(n, 0).UTC(), nil
	}
	cmd := exec.Command("git", "log", "-1", "--format=%ct")
	cmd.Dir = root
	if out, err := cmd.Output(); err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64); err == nil {
			return time.Unix(n, 0).UTC(), nil
		}
	}
	return time.Now().UTC().Truncate(time.Second), nil
}
