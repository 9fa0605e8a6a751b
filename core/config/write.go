package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Set writes key = value into the user file. value is anything that
// marshals to JSON. Other keys, their order and comments are kept.
func (c *Config) Set(key string, value any) error {
	node, err := valueNode(value)
	if err != nil {
		return fmt.Errorf("config: set %s: %w", key, err)
	}
	return c.edit(func(root *yaml.Node) { setKey(root, key, node) })
}

// Delete removes key from the user file (a no-op if it is not there).
func (c *Config) Delete(key string) error {
	return c.edit(func(root *yaml.Node) { deleteKey(root, key) })
}

// edit applies change to the user file's top-level mapping under the
// process mutex and the config lock file, then writes the file atomically
// (temp file + rename) through at most one symlink hop.
//
// goose treats an unparsable user file as empty on write and so replaces
// the user's settings with one key; we refuse instead and leave the file
// alone, so nothing the user wrote is lost.
func (c *Config) edit(change func(root *yaml.Node)) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.cache.invalidate()
	target, err := writeTarget(c.Path())
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return fmt.Errorf("config: create %s: %w", filepath.Dir(target), err)
	}
	lock, err := lockExclusive(lockPathFor(target))
	if err != nil {
		return err
	}
	defer lock.unlock()

	doc, mode, err := readDocument(target)
	if err != nil {
		return err
	}
	if err := migrateDocument(doc.Content[0], c.platform); err != nil {
		return fmt.Errorf("config: migrate %s: %w", target, err)
	}
	change(doc.Content[0])
	data, err := encodeYAML(doc)
	if err != nil {
		return fmt.Errorf("config: encode %s: %w", target, err)
	}
	return writeFileAtomic(target, data, mode)
}

// writeTarget follows one symlink hop from path, as goose does.
func writeTarget(path string) (string, error) {
	target := path
	for hops := 0; ; hops++ {
		info, err := os.Lstat(target)
		if os.IsNotExist(err) {
			return target, nil
		}
		if err != nil {
			return "", fmt.Errorf("config: %w", err)
		}
		if info.Mode()&os.ModeSymlink == 0 {
			return target, nil
		}
		if hops >= 1 {
			return "", fmt.Errorf("config: Too many symlink levels (or a cycle) while resolving config path: %s", path)
		}
		link, err := os.Readlink(target)
		if err != nil {
			return "", fmt.Errorf("config: %w", err)
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(target), link)
		}
		target = link
	}
}

// lockPathFor is the sidecar lock of a config file: config.yaml → config.lock.
func lockPathFor(path string) string {
	base := filepath.Base(path)
	return filepath.Join(filepath.Dir(path), strings.TrimSuffix(base, filepath.Ext(base))+".lock")
}

// readDocument parses path into a document whose root is a mapping; a
// missing or empty file gives an empty mapping. It also returns the file's
// mode so a rewrite keeps it.
func readDocument(path string) (*yaml.Node, os.FileMode, error) {
	mode := os.FileMode(0o644)
	data, err := os.ReadFile(path)
	switch {
	case os.IsNotExist(err):
		data = nil
	case err != nil:
		return nil, 0, fmt.Errorf("config: read %s: %w", path, err)
	default:
		if info, err := os.Stat(path); err == nil {
			mode = info.Mode().Perm()
		}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, 0, &ParseError{Path: path, Err: err}
	}
	if doc.Kind == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		*root = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	}
	if root.Kind != yaml.MappingNode {
		return nil, 0, &ParseError{Path: path, Err: errors.New("the top level is not a mapping of keys to values")}
	}
	root.Style = 0 // "{}" becomes block style once it has keys
	return &doc, mode, nil
}

// valueNode turns any JSON-marshalable value into a block-style YAML node,
// keeping the JSON field order.
func valueNode(v any) (*yaml.Node, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	n := doc.Content[0]
	blockStyle(n)
	return n, nil
}

// blockStyle drops the flow/quoted styles JSON input leaves behind, so the
// encoder writes block YAML and quotes strings only where needed.
func blockStyle(n *yaml.Node) {
	n.Style = 0
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		// A plain string that would read back as another type keeps quotes.
		var probe any
		if err := yaml.Unmarshal([]byte(n.Value), &probe); err != nil || probe != any(n.Value) {
			n.Style = yaml.DoubleQuotedStyle
		}
	}
	for _, c := range n.Content {
		blockStyle(c)
	}
}

// mapIndex returns the index of key's key node in mapping m, or -1.
func mapIndex(m *yaml.Node, key string) int {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return i
		}
	}
	return -1
}

func setKey(m *yaml.Node, key string, value *yaml.Node) {
	if i := mapIndex(m, key); i >= 0 {
		value.HeadComment, value.LineComment = m.Content[i+1].HeadComment, m.Content[i+1].LineComment
		m.Content[i+1] = value
		return
	}
	k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}
	m.Content = append(m.Content, k, value)
}

func deleteKey(m *yaml.Node, key string) {
	if i := mapIndex(m, key); i >= 0 {
		m.Content = append(m.Content[:i], m.Content[i+2:]...)
	}
}
