package release

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// fakeArtifacts stands in for a release: one small "archive" per target,
// hashed from its bytes on disk as Run does with the real ones.
func fakeArtifacts(t *testing.T) []Artifact {
	t.Helper()
	dir := t.TempDir()
	var arts []Artifact
	for i, tg := range Targets {
		name := tg.ArchiveName("1.2.3")
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("fake archive "+tg.Platform+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		sum, err := fileSHA256(path)
		if err != nil {
			t.Fatal(err)
		}
		art := Artifact{Target: tg, Archive: name, SHA256: sum, CGO: i%2 == 0, Analyze: i%2 == 0}
		if !art.CGO {
			art.Note = "no C compiler: " + tg.Hint
		}
		arts = append(arts, art)
	}
	return arts
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs (go test -update to accept):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// registrySchema compiles the registry's published agent.schema.json
// (draft-07), with format assertions on so "uri" fields are checked too.
func registrySchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "agent.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "https://cdn.agentclientprotocol.com/registry/v1/latest/agent.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func validate(t *testing.T, sch *jsonschema.Schema, manifest []byte) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(manifest))
	if err != nil {
		t.Fatal(err)
	}
	return sch.Validate(inst)
}

func TestManifestMatchesRegistrySchema(t *testing.T) {
	arts := fakeArtifacts(t)
	meta := DefaultMeta
	meta.License = "Apache-2.0"
	got, err := Manifest(meta, "1.2.3", DefaultDownloadURL, arts)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "agent.golden.json", got)
	sch := registrySchema(t)
	if err := validate(t, sch, got); err != nil {
		t.Fatalf("agent.json does not validate against the registry schema: %v", err)
	}
	// Each target points at its own archive and carries that archive's hash.
	var m struct {
		Distribution struct {
			Binary map[string]struct{ Archive, Cmd, SHA256 string }
		}
	}
	if err := json.Unmarshal(got, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Distribution.Binary) != len(Targets) {
		t.Fatalf("binary targets: %d, want %d", len(m.Distribution.Binary), len(Targets))
	}
	for _, a := range arts {
		b := m.Distribution.Binary[a.Target.Platform]
		if !strings.HasSuffix(b.Archive, "/v1.2.3/"+a.Archive) || b.SHA256 != a.SHA256 || b.Cmd != "./"+a.Target.Exe() {
			t.Errorf("%s: %+v, want archive …/v1.2.3/%s, sha256 %s, cmd ./%s", a.Target.Platform, b, a.Archive, a.SHA256, a.Target.Exe())
		}
	}
}

// TestRegistrySchemaRejects shows the validator is live: what the registry
// refuses, the test refuses too.
func TestRegistrySchemaRejects(t *testing.T) {
	sch := registrySchema(t)
	good, err := Manifest(DefaultMeta, "1.2.3", DefaultDownloadURL, fakeArtifacts(t))
	if err != nil {
		t.Fatal(err)
	}
	for name, mutate := range map[string]func(m map[string]any){
		"unknown platform": func(m map[string]any) { bin(m)["linux-riscv64"] = bin(m)["linux-x86_64"] },
		"short sha256":     func(m map[string]any) { bin(m)["linux-x86_64"].(map[string]any)["sha256"] = "abc" },
		"no cmd":           func(m map[string]any) { delete(bin(m)["linux-x86_64"].(map[string]any), "cmd") },
		"bad version":      func(m map[string]any) { m["version"] = "v1" },
		"relative archive": func(m map[string]any) { bin(m)["linux-x86_64"].(map[string]any)["archive"] = "not a uri" },
	} {
		var m map[string]any
		if err := json.Unmarshal(good, &m); err != nil {
			t.Fatal(err)
		}
		mutate(m)
		bad, _ := json.Marshal(m)
		if validate(t, sch, bad) == nil {
			t.Errorf("%s: the schema accepted %s", name, bad)
		}
	}
}

func bin(m map[string]any) map[string]any {
	return m["distribution"].(map[string]any)["binary"].(map[string]any)
}

func TestSumsAndNotes(t *testing.T) {
	arts := fakeArtifacts(t)
	golden(t, "SHA256SUMS.golden", Sums(arts))
	golden(t, "NOTES.golden.md", Notes("1.2.3", arts))
}

func TestManifestErrors(t *testing.T) {
	if _, err := Manifest(DefaultMeta, "1.2.3", DefaultDownloadURL, nil); err == nil {
		t.Error("empty release: no error")
	}
	arts := fakeArtifacts(t)
	if _, err := Manifest(DefaultMeta, "1.2.3", DefaultDownloadURL, append(arts, arts[0])); err == nil || !strings.Contains(err.Error(), "two archives for linux-x86_64") {
		t.Errorf("duplicate platform: err = %v", err)
	}
}

func TestNormalizeVersion(t *testing.T) {
	for in, want := range map[string]string{"0.1.0": "0.1.0", "v1.2.3": "1.2.3", "1.0.0-rc.1": "1.0.0-rc.1"} {
		if got, err := NormalizeVersion(in); err != nil || got != want {
			t.Errorf("%q → %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "dev", "1.2", "1.2.3 ", "1.2.3/x"} {
		if _, err := NormalizeVersion(in); err == nil || !strings.Contains(err.Error(), "not a semantic version") {
			t.Errorf("%q: err = %v", in, err)
		}
	}
}
