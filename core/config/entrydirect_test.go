package config

import (
	"maps"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// presentEntries are extensions: values as config.yaml holds them, each
// written under every platform extension's key by the tests below. direct
// says the value is plain enough that decodeEntry must read it itself
// (else the JSON way does and the test only checks both agree).
var presentEntries = []struct {
	name, yaml string
	direct     bool
}{
	{"builtin stale", "{enabled: false, type: builtin, name: {name}, description: ''}", true},
	{"builtin current", "{enabled: true, type: builtin, name: {name}, description: '{desc}', display_name: '{display}', timeout: 300, bundled: true}", true},
	{"platform stale", "{enabled: false, type: platform, name: {name}, description: old, display_name: Old}", true},
	{"platform current", "{enabled: false, type: platform, name: {name}, description: '{desc}', display_name: '{display}', available_tools: [shell, text_editor], bundled: true}", true},
	{"platform current no tools", "{enabled: true, type: platform, name: {name}, description: '{desc}', display_name: '{display}', available_tools: [], bundled: false}", true},
	{"stdio", "{enabled: true, type: stdio, name: {name}, description: x, cmd: evil, args: [-y, '<a&b>'], envs: {A: '1', B: ''}, env_keys: [K], timeout: 30, cwd: /tmp, bundled: null}", true},
	{"stdio empty lists", "{enabled: true, type: stdio, name: {name}, description: x, cmd: c, args: [], envs: {}, env_keys: []}", true},
	{"streamable_http", "{enabled: true, type: streamable_http, name: {name}, description: h, uri: 'http://x/mcp', headers: {Authorization: Bearer t}, socket: /s}", true},
	{"sse", "{enabled: false, type: sse, name: {name}, description: s, uri: 'http://x/sse'}", true},
	{"inline_python", "{enabled: true, type: inline_python, name: {name}, description: p, code: 'print(1)', dependencies: [numpy], timeout: 2.0}", true},
	{"null description and display name", "{enabled: true, type: platform, name: {name}, description: null, display_name: null}", true},
	{"null enabled", "{enabled: null, type: builtin, name: {name}, description: d}", true},
	{"no enabled", "{type: platform, name: {name}, description: 'é ☃ \u2028'}", true},
	{"frontend with tools", "{enabled: true, type: frontend, name: {name}, description: f, tools: [{name: t}], instructions: i}", false},
	{"unknown key", "{enabled: true, type: platform, name: {name}, description: d, extra: 1}", false},
	{"capitalised key", "{enabled: true, Type: platform, name: {name}, description: d}", false},
	{"enabled not a bool", "{enabled: 'yes', type: platform, name: {name}, description: d}", false},
	{"name not a string", "{enabled: true, type: platform, name: 5, description: d}", false},
	{"args not strings", "{enabled: true, type: stdio, name: {name}, description: d, cmd: c, args: [1, 2]}", false},
	{"envs not strings", "{enabled: true, type: stdio, name: {name}, description: d, cmd: c, args: [], envs: {A: 1}}", false},
	{"fractional timeout", "{enabled: true, type: builtin, name: {name}, description: d, timeout: 1.5}", false},
	{"huge timeout", "{enabled: true, type: builtin, name: {name}, description: d, timeout: 99999999999999999999}", false},
	{"string timeout", "{enabled: true, type: builtin, name: {name}, description: d, timeout: '5'}", false},
	{"bundled not a bool", "{enabled: true, type: builtin, name: {name}, description: d, bundled: 1}", false},
	{"unknown type", "{enabled: true, type: weird, name: {name}, description: d}", false},
	{"no type", "{enabled: true, name: {name}, description: d}", false},
	{"a number", "7", false},
	{"a string", "nope", false},
	{"a list", "[a, b]", false},
	{"null", "null", false},
}

// referenceMigrate is migrateMerged as it was: every present entry read
// by parseEntryJSON, every refreshed entry through json.Marshal and
// json.Unmarshal.
func referenceMigrate(values map[string]any, defs []PlatformExtension) {
	migrateWith(values, defs, parseEntryJSON, entryValueJSON)
}

// checkMigrationMatchesJSON loads, for each present entry written under
// every key of defs (and with none), the config both ways: the merged
// values after migrateMerged equal referenceMigrate's, every platform
// entry migratedPlatformEntry makes is built directly, and parseEntry
// reads every entry as parseEntryJSON does.
func checkMigrationMatchesJSON(t *testing.T, defs []PlatformExtension) {
	t.Helper()
	dir := t.TempDir()
	for _, pe := range append([]struct {
		name, yaml string
		direct     bool
	}{{"absent", "", true}}, presentEntries...) {
		doc := ""
		if pe.yaml != "" {
			doc = "extensions:\n"
			for _, def := range defs {
				doc += "  " + def.Name + ": " + strings.NewReplacer("{name}", def.Name, "{desc}", def.Description, "{display}", def.DisplayName).Replace(pe.yaml) + "\n"
			}
		}
		path := filepath.Join(dir, "config.yaml")
		writeAll(t, path, doc)
		read := func() map[string]any {
			layer, err := readLayer(path)
			if err != nil {
				t.Fatalf("%s: %v", pe.name, err)
			}
			return layer
		}
		got, want := read(), read()
		migrateMerged(got, defs)
		referenceMigrate(want, defs)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: migrated values differ\n got %#v\nwant %#v", pe.name, got, want)
		}
		raw, _ := read()[extensionsKey].(map[string]any)
		for _, def := range defs {
			v, present := raw[def.Name]
			entry, ok := migratedPlatformEntry(def, v, present)
			if ok {
				direct, isDirect := platformEntryValue(entry)
				if !isDirect {
					t.Errorf("%s/%s: migrated entry not built directly: %+v", pe.name, def.Name, entry)
				}
				if viaJSON, ok := entryValueJSON(entry); !ok || !reflect.DeepEqual(any(direct), viaJSON) {
					t.Errorf("%s/%s: direct value %#v, JSON round trip %#v (%v)", pe.name, def.Name, direct, viaJSON, ok)
				}
			}
			if !present {
				continue
			}
			checkParseEntry(t, pe.name+"/"+def.Name, v, pe.direct)
		}
	}
}

// checkParseEntry: parseEntry(v) is parseEntryJSON(v), and a plain value
// is read without JSON.
func checkParseEntry(t *testing.T, name string, v any, direct bool) {
	t.Helper()
	got, gotErr := parseEntry(v)
	want, wantErr := parseEntryJSON(v)
	if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) || !reflect.DeepEqual(got, want) {
		t.Errorf("%s: parseEntry = %+v, %v; JSON round trip = %+v, %v", name, got, gotErr, want, wantErr)
	}
	if _, ok := decodeEntry(v); ok != direct {
		t.Errorf("%s: decodeEntry took %v, want %v for %#v", name, ok, direct, v)
	}
}

func TestMigrationMatchesJSONRoundTrip(t *testing.T) {
	defs := append(append([]PlatformExtension(nil), testPlatform...),
		PlatformExtension{Name: "analyze", DisplayName: "Analyze", Description: "Analyze code structure with tree-sitter: directory overviews, file details, symbol call graphs", DefaultEnabled: true},
		PlatformExtension{Name: "nodisplay", Description: "no display name", DefaultEnabled: false},
		PlatformExtension{Name: "html", DisplayName: "<b>&</b>", Description: "a <tag> & \u2028 ☃"},
	)
	checkMigrationMatchesJSON(t, defs)
}

// Values YAML cannot carry (invalid UTF-8, Go types the config's own
// writers put in the map) take the JSON way and read the same.
func TestParseEntryOddValues(t *testing.T) {
	base := func() map[string]any {
		return map[string]any{"enabled": true, "type": "stdio", "name": "x", "description": "d", "cmd": "c", "args": []any{}}
	}
	for name, change := range map[string]func(map[string]any){
		"invalid UTF-8 string":   func(m map[string]any) { m["description"] = "a\xffb" },
		"invalid UTF-8 in list":  func(m map[string]any) { m["args"] = []any{"\xfe"} },
		"invalid UTF-8 map key":  func(m map[string]any) { m["envs"] = map[string]any{"\xff": "v"} },
		"int timeout":            func(m map[string]any) { m["timeout"] = 7 },
		"float timeout":          func(m map[string]any) { m["timeout"] = float64(7) },
		"negative zero timeout":  func(m map[string]any) { m["timeout"] = -0.0 },
		"[]string args":          func(m map[string]any) { m["args"] = []string{"a"} },
		"map[string]string envs": func(m map[string]any) { m["envs"] = map[string]string{"A": "b"} },
	} {
		m := base()
		change(m)
		got, gotErr := parseEntry(m)
		want, wantErr := parseEntryJSON(m)
		if (gotErr == nil) != (wantErr == nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: parseEntry = %+v, %v; JSON round trip = %+v, %v", name, got, gotErr, want, wantErr)
		}
	}
	// An entry with invalid UTF-8 is never built directly either.
	if _, ok := platformEntryValue(ExtensionEntry{Config: ExtensionConfig{Type: ExtensionPlatform, Name: "a\xff"}}); ok {
		t.Error("platformEntryValue built an entry with invalid UTF-8")
	}
}

// A field added to ExtensionConfig must be known to isZeroConfig, or
// platformEntryValue would drop it.
func TestIsZeroConfigSeesEveryField(t *testing.T) {
	if !isZeroConfig(ExtensionConfig{}) {
		t.Fatal("zero config not zero")
	}
	typ := reflect.TypeFor[ExtensionConfig]()
	for i := range typ.NumField() {
		var c ExtensionConfig
		f := reflect.ValueOf(&c).Elem().Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("x")
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 0, 0))
		case reflect.Map:
			f.Set(reflect.MakeMap(f.Type()))
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
		default:
			t.Fatalf("field %s: kind %s not covered by this test", typ.Field(i).Name, f.Kind())
		}
		if isZeroConfig(c) {
			t.Errorf("isZeroConfig misses field %s", typ.Field(i).Name)
		}
	}
	if !maps.Equal(entryFields, jsonFieldsOf(typ)) {
		t.Errorf("entryFields %v, ExtensionConfig's JSON fields (without tools, with enabled) %v", entryFields, jsonFieldsOf(typ))
	}
}

// jsonFieldsOf is the JSON names of ExtensionConfig's fields decodeEntry
// reads: all but tools (raw JSON), plus ExtensionEntry's enabled.
func jsonFieldsOf(typ reflect.Type) map[string]bool {
	out := map[string]bool{"enabled": true}
	for i := range typ.NumField() {
		name := typ.Field(i).Tag.Get("json")
		for j := range len(name) {
			if name[j] == ',' {
				name = name[:j]
				break
			}
		}
		if name != "tools" {
			out[name] = true
		}
	}
	return out
}
