package config

import (
	"bytes"
	"fmt"

	"go.yaml.in/yaml/v3"
)

// KeyValue is one setting for SetMany.
type KeyValue struct {
	Key   string
	Value any
}

// SetMany writes every pair into the user file in one locked, atomic
// rewrite, so a reader never sees half of a provider switch (GOOSE_PROVIDER
// without its GOOSE_MODEL). Keys already in the file keep their place and
// comments; new keys are appended in the order given.
func (c *Config) SetMany(pairs []KeyValue) error {
	nodes := make([]*yaml.Node, len(pairs))
	for i, p := range pairs {
		n, err := valueNode(p.Value)
		if err != nil {
			return fmt.Errorf("config: set %s: %w", p.Key, err)
		}
		nodes[i] = n
	}
	return c.edit(func(root *yaml.Node) {
		for i, p := range pairs {
			setKey(root, p.Key, nodes[i])
		}
	})
}

// writeOrdered writes m to the secrets file keeping the order (and
// comments) of the keys already there; new keys are appended sorted, which
// is what yaml.Marshal of a map gave before. Keys no longer in m are
// removed. The file is never rewritten when it does not parse.
func (s *FileSecrets) writeOrdered(m map[string]any) error {
	doc, _, err := readDocument(s.path)
	if err != nil {
		return fmt.Errorf("config: secrets: %w", err)
	}
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); {
		if _, ok := m[root.Content[i].Value]; !ok {
			root.Content = append(root.Content[:i], root.Content[i+2:]...)
			continue
		}
		i += 2
	}
	fresh, err := yamlMapNode(m)
	if err != nil {
		return err
	}
	for i := 0; i+1 < len(fresh.Content); i += 2 {
		setKey(root, fresh.Content[i].Value, fresh.Content[i+1])
	}
	if len(root.Content) == 0 {
		return writeFileAtomic(s.path, []byte("{}\n"), 0o600)
	}
	data, err := encodeYAML(doc)
	if err != nil {
		return fmt.Errorf("config: encode secrets: %w", err)
	}
	return writeFileAtomic(s.path, data, 0o600)
}

// encodeYAML writes v as block YAML indented by two spaces, the layout of
// every file this package writes.
func encodeYAML(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// yamlMapNode encodes m as a block-style mapping node with sorted keys.
func yamlMapNode(m map[string]any) (*yaml.Node, error) {
	var n yaml.Node
	if err := n.Encode(m); err != nil {
		return nil, fmt.Errorf("config: encode secrets: %w", err)
	}
	return &n, nil
}
