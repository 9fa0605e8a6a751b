package release

import (
	"os"
	"runtime"
)

// Target is one platform of a release.
type Target struct {
	GOOS, GOARCH string
	// Platform is the registry's name for it (agent.schema.json's
	// binaryDistribution keys).
	Platform string
	// CC lists C compilers that can build its analyze helper from a
	// linux/amd64 host; none means a pure-Go helper (no analyze).
	CC []string
	// Hint tells the user how to get a missing compiler.
	Hint string
}

// Targets are the platforms a release ships.
var Targets = []Target{
	{GOOS: "linux", GOARCH: "amd64", Platform: "linux-x86_64", CC: []string{"x86_64-linux-gnu-gcc"}, Hint: "apt-get install gcc"},
	{GOOS: "linux", GOARCH: "arm64", Platform: "linux-aarch64", CC: []string{"aarch64-linux-gnu-gcc"}, Hint: "apt-get install gcc-aarch64-linux-gnu"},
	{GOOS: "darwin", GOARCH: "amd64", Platform: "darwin-x86_64", Hint: "cross-compiling cgo for macOS needs Apple's SDK: build on a Mac"},
	{GOOS: "darwin", GOARCH: "arm64", Platform: "darwin-aarch64", Hint: "cross-compiling cgo for macOS needs Apple's SDK: build on a Mac"},
	{GOOS: "windows", GOARCH: "amd64", Platform: "windows-x86_64", CC: []string{"x86_64-w64-mingw32-gcc"}, Hint: "apt-get install gcc-mingw-w64-x86-64"},
}

// Exe is the binary's name inside the archive.
func (t Target) Exe() string {
	if t.GOOS == "windows" {
		return "goose-acp.exe"
	}
	return "goose-acp"
}

// HelperExe is the analyze helper's name inside the archive, beside Exe.
func (t Target) HelperExe() string {
	if t.GOOS == "windows" {
		return "goose-acp-analyze.exe"
	}
	return "goose-acp-analyze"
}

// ConfigureExe is the interactive configure helper's name inside the
// archive, beside Exe.
func (t Target) ConfigureExe() string {
	if t.GOOS == "windows" {
		return "goose-acp-configure.exe"
	}
	return "goose-acp-configure"
}

// ArchiveName is the archive's file name for version.
func (t Target) ArchiveName(version string) string {
	ext := ".tar.gz"
	if t.GOOS == "windows" {
		ext = ".zip"
	}
	return "goose-acp-" + version + "-" + t.Platform + ext
}

// compiler returns the C compiler to build t with cgo, or "" for none.
// On the target's own platform the host compiler ($CC, cc, gcc, clang)
// serves (on a Mac for both darwin targets: Go passes clang -arch);
// elsewhere only the cross compilers named in t.CC do.
func (t Target) compiler(lookPath func(string) (string, error)) string {
	cands := t.CC
	if t.GOOS == runtime.GOOS && (t.GOARCH == runtime.GOARCH || t.GOOS == "darwin") {
		cands = append([]string{os.Getenv("CC"), "cc", "gcc", "clang"}, cands...)
	}
	for _, c := range cands {
		if c == "" {
			continue
		}
		if p, err := lookPath(c); err == nil {
			return p
		}
	}
	return ""
}
