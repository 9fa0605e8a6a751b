package release

import (
	"bytes"
	"context"
	"debug/buildinfo"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/goose-acp/goose-acp/internal/earlyinfo"
)

// parserModules mean the helper carries `analyze`: the official
// tree-sitter cgo bindings.
var parserModules = []string{"github.com/tree-sitter/go-tree-sitter"}

// binary is one target's built goose-acp and its helpers, and what the
// analyze helper carries.
type binary struct {
	path      string // goose-acp, always built without cgo
	configure string // goose-acp-configure, always built without cgo
	helper    string // goose-acp-analyze
	// cgo and analyze are the helper's: built with cgo, links a parser.
	cgo     bool
	analyze bool
	// note says why a target's helper has no cgo (no compiler, or its
	// build failed).
	note string
}

// goBuild compiles pkg (./cmd/…) under root for t into dir/<platform>/name,
// with cgo when cc is a C compiler. -trimpath keeps the build machine's
// paths out of the binary; -s -w drop the symbol tables (buildinfo stays,
// so `go version -m` still lists the modules).
func goBuild(ctx context.Context, root, dir, version string, t Target, cc, pkg, name string) (string, error) {
	out := filepath.Join(dir, t.Platform, name)
	ldflags := "-s -w -X " + earlyinfo.StampVar + "=" + version
	args := []string{"build", "-trimpath", "-o", out}
	env := append(os.Environ(), "GOOS="+t.GOOS, "GOARCH="+t.GOARCH, "CGO_ENABLED=0")
	if cc != "" {
		env = append(env, "CGO_ENABLED=1", "CC="+cc)
		if t.GOOS == "linux" || t.GOOS == "windows" {
			// A static binary runs on any glibc (or without the mingw
			// runtime DLLs); netgo/osusergo keep libc's resolver and user
			// lookup, which cannot be linked statically, out of it.
			args = append(args, "-tags", "netgo,osusergo")
			ldflags += " -linkmode external -extldflags -static"
		}
	}
	args = append(args, "-ldflags", ldflags, pkg)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build %s for %s/%s (cgo: %v): %w\n%s", pkg, t.GOOS, t.GOARCH, cc != "", err, stderr.Bytes())
	}
	return out, nil
}

// build makes t's binaries: goose-acp and goose-acp-configure (the
// interactive configure) without cgo (no C library to start in every
// editor process), and goose-acp-analyze with cgo when a compiler
// for t exists and cgo is wanted, falling back to a pure-Go helper (which
// answers how to get analyze) when that fails, so every platform ships
// and the notes say which lack analyze and why.
func build(ctx context.Context, o *Options, dir string, t Target) (binary, error) {
	agent, err := goBuild(ctx, o.Root, dir, o.Version, t, "", "./cmd/goose-acp", t.Exe())
	if err != nil {
		return binary{}, err
	}
	configure, err := goBuild(ctx, o.Root, dir, o.Version, t, "", "./cmd/goose-acp-configure", t.ConfigureExe())
	if err != nil {
		return binary{}, err
	}
	cc := ""
	note := ""
	if o.CGO {
		cc = t.compiler(exec.LookPath)
		if cc == "" {
			note = "no C compiler for " + t.GOOS + "/" + t.GOARCH
			if len(t.CC) > 0 {
				note += " (" + strings.Join(t.CC, ", ") + ")"
			}
			note += ": " + t.Hint
		}
	} else {
		note = "built with -cgo=false"
	}
	helper, err := goBuild(ctx, o.Root, dir, o.Version, t, cc, "./cmd/goose-acp-analyze", t.HelperExe())
	if err != nil && cc != "" {
		note = fmt.Sprintf("cgo build with %s failed (%s); built without cgo", filepath.Base(cc), lastLine(err.Error()))
		helper, err = goBuild(ctx, o.Root, dir, o.Version, t, "", "./cmd/goose-acp-analyze", t.HelperExe())
	}
	if err != nil {
		return binary{}, err
	}
	b := binary{path: agent, configure: configure, helper: helper, note: note}
	b.cgo, b.analyze, err = inspect(helper)
	return b, err
}

// inspect reads from a binary itself (any OS's format) whether it was
// built with cgo and whether it links a parser, i.e. has `analyze`.
func inspect(path string) (cgo, analyze bool, err error) {
	info, err := buildinfo.ReadFile(path)
	if err != nil {
		return false, false, fmt.Errorf("reading build info of %s: %w", path, err)
	}
	for _, s := range info.Settings {
		if s.Key == "CGO_ENABLED" {
			cgo = s.Value == "1"
		}
	}
	for _, d := range info.Deps {
		for _, m := range parserModules {
			if d.Path == m {
				analyze = true
			}
		}
	}
	return cgo, analyze, nil
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
