package release

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Options configure Run.
type Options struct {
	// Version is the release's semantic version; a leading "v" is dropped.
	Version string
	// Root is the module root holding ./cmd/goose-acp.
	Root string
	// Out receives the archives, SHA256SUMS, agent.json, icon.svg and NOTES.md; it
	// is emptied first so SHA256SUMS lists only this release.
	Out string
	// CGO builds the analyze helper with cgo where a C compiler for the
	// target exists (goose-acp itself is always built without cgo).
	CGO bool
	// Targets to build; nil means all of Targets.
	Targets []Target
	// DownloadURL is agent.json's archive URL template.
	DownloadURL string
	Meta        Meta
	// MTime stamps every archived file (SOURCE_DATE_EPOCH when set).
	MTime time.Time
	// Log receives one line per target.
	Log io.Writer
}

var semver = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`)

// NormalizeVersion checks v is a semantic version (as the registry's
// schema requires) and drops a leading "v".
func NormalizeVersion(v string) (string, error) {
	v = strings.TrimPrefix(v, "v")
	if !semver.MatchString(v) {
		return "", fmt.Errorf("release: version %q is not a semantic version like 1.2.3", v)
	}
	return v, nil
}

// Run builds every target, archives goose-acp, goose-acp-configure and
// goose-acp-analyze with README.md, and writes
// SHA256SUMS, agent.json, icon.svg and NOTES.md into o.Out.
func Run(ctx context.Context, o Options) ([]Artifact, error) {
	v, err := NormalizeVersion(o.Version)
	if err != nil {
		return nil, err
	}
	o.Version = v
	if o.Targets == nil {
		o.Targets = Targets
	}
	if err := os.RemoveAll(o.Out); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp("", "goose-acp-release-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	var arts []Artifact
	for _, t := range o.Targets {
		art, err := buildTarget(ctx, &o, work, t)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(o.Log, "%-15s %-45s cgo=%-3s analyze=%-3s %s\n", t.Platform, art.Archive, yesNo(art.CGO), yesNo(art.Analyze), art.Note)
		arts = append(arts, art)
	}
	manifest, err := Manifest(o.Meta, o.Version, o.DownloadURL, arts)
	if err != nil {
		return nil, err
	}
	for name, data := range releaseFiles(o.Version, manifest, arts) {
		if err := os.WriteFile(filepath.Join(o.Out, name), data, 0o644); err != nil {
			return nil, err
		}
	}
	return arts, nil
}

// Icon is the registry entry's icon.svg: 16×16, one colour (currentColor),
// as the ACP registry's build requires of every agent directory.
//
//go:embed icon.svg
var Icon []byte

// releaseFiles are the files written beside the archives.
func releaseFiles(version string, manifest []byte, arts []Artifact) map[string][]byte {
	return map[string][]byte{"SHA256SUMS": Sums(arts), "agent.json": manifest, "NOTES.md": Notes(version, arts),
		"icon.svg": Icon}
}

func buildTarget(ctx context.Context, o *Options, work string, t Target) (Artifact, error) {
	bin, err := build(ctx, o, work, t)
	if err != nil {
		return Artifact{}, err
	}
	name := t.ArchiveName(o.Version)
	path := filepath.Join(o.Out, name)
	entries := []entry{
		{name: t.Exe(), src: bin.path, mode: 0o755},
		{name: t.ConfigureExe(), src: bin.configure, mode: 0o755},
		{name: t.HelperExe(), src: bin.helper, mode: 0o755},
		{name: "README.md", src: filepath.Join(o.Root, "README.md"), mode: 0o644},
		{name: "LICENSE", src: filepath.Join(o.Root, "LICENSE"), mode: 0o644},
	}
	if err := writeArchive(path, entries, o.MTime); err != nil {
		return Artifact{}, fmt.Errorf("release: archive for %s: %w", t.Platform, err)
	}
	sum, err := fileSHA256(path)
	if err != nil {
		return Artifact{}, err
	}
	return Artifact{Target: t, Archive: name, SHA256: sum, CGO: bin.cgo, Analyze: bin.analyze, Note: bin.note}, nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
