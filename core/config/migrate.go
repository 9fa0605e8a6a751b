package config

import (
	"encoding/json"

	"go.yaml.in/yaml/v3"
)

// PlatformExtension is one built-in platform extension (goose's
// PLATFORM_EXTENSIONS entry) that config.yaml must list.
type PlatformExtension struct {
	Name           string
	DisplayName    string
	Description    string
	DefaultEnabled bool
}

// migratedPlatformEntry is goose's migrate_platform_extensions for one
// extension: the entry to store under def.Name, or false when the current
// value (raw, JSON-shaped; present=false when there is none) is up to date.
// The user's enabled flag survives and a "builtin" entry stays builtin; an
// entry of any other type, or one that does not parse, is replaced.
func migratedPlatformEntry(def PlatformExtension, raw any, present bool) (ExtensionEntry, bool) {
	return migratedEntry(def, raw, present, parseEntry)
}

// migratedEntry is migratedPlatformEntry reading the current value with
// parse (the tests pass the JSON round trip).
func migratedEntry(def PlatformExtension, raw any, present bool, parse func(any) (ExtensionEntry, error)) (ExtensionEntry, bool) {
	enabled, typ := def.DefaultEnabled, ExtensionPlatform
	if present {
		if cur, err := parse(raw); err == nil {
			t := cur.Config.Type
			if (t == ExtensionPlatform || t == ExtensionBuiltin) &&
				cur.Config.Description == def.Description && cur.Config.DisplayName == def.DisplayName {
				return ExtensionEntry{}, false
			}
			enabled = cur.Enabled
			if t == ExtensionBuiltin {
				typ = ExtensionBuiltin
			}
		}
	}
	bundled := true
	return ExtensionEntry{Enabled: enabled, Config: ExtensionConfig{
		Type: typ, Name: def.Name, Description: def.Description,
		DisplayName: def.DisplayName, Bundled: &bundled,
	}}, true
}

// migrateMerged adds or refreshes the platform entries in a merged,
// JSON-shaped config in memory (goose's run_read_migrations).
func migrateMerged(values map[string]any, defs []PlatformExtension) {
	migrateWith(values, defs, parseEntry, entryValue)
}

// migrateWith is migrateMerged reading present entries with parse and
// making refreshed ones with value (the tests pass the JSON round trips).
func migrateWith(values map[string]any, defs []PlatformExtension, parse func(any) (ExtensionEntry, error), value func(ExtensionEntry) (any, bool)) {
	if len(defs) == 0 {
		return
	}
	exts, _ := values[extensionsKey].(map[string]any)
	if exts == nil {
		exts = map[string]any{}
	}
	changed := false
	for _, def := range defs {
		raw, present := exts[def.Name]
		entry, ok := migratedEntry(def, raw, present, parse)
		if !ok {
			continue
		}
		if v, ok := value(entry); ok {
			exts[def.Name] = v
			changed = true
		}
	}
	if changed {
		values[extensionsKey] = exts
	}
}

// entryValue is entry as a JSON-shaped value: json.Unmarshal into any of
// its json.Marshal, built directly for a platform entry.
func entryValue(entry ExtensionEntry) (any, bool) {
	if m, ok := platformEntryValue(entry); ok {
		return m, true
	}
	return entryValueJSON(entry)
}

// entryValueJSON is entryValue through a JSON round trip.
func entryValueJSON(entry ExtensionEntry) (any, bool) {
	b, err := json.Marshal(entry)
	if err != nil {
		return nil, false
	}
	var v any
	if json.Unmarshal(b, &v) != nil {
		return nil, false
	}
	return v, true
}

// migrateDocument applies the same migration to the user file's mapping
// before a write, as goose does on every read-modify-write. Other entries,
// their order and comments are kept.
func migrateDocument(root *yaml.Node, defs []PlatformExtension) error {
	if len(defs) == 0 {
		return nil
	}
	var exts *yaml.Node
	if i := mapIndex(root, extensionsKey); i >= 0 && root.Content[i+1].Kind == yaml.MappingNode {
		exts = root.Content[i+1]
	}
	for _, def := range defs {
		var raw any
		present := false
		if exts != nil {
			if i := mapIndex(exts, def.Name); i >= 0 {
				present = true
				if exts.Content[i+1].Decode(&raw) == nil {
					raw = normalize(raw)
				}
			}
		}
		entry, ok := migratedPlatformEntry(def, raw, present)
		if !ok {
			continue
		}
		node, err := valueNode(entry)
		if err != nil {
			return err
		}
		if exts == nil {
			exts = extensionsMap(root)
		}
		setKey(exts, def.Name, node)
	}
	return nil
}
