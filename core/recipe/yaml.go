package recipe

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ToYAML writes the recipe as block-style YAML in goose's field order, with
// multi-line text as literal blocks (goose's to_yaml). Validation of a
// decoded deeplink goes through this form, as goose's does, so template
// tags inside strings are seen unescaped.
func ToYAML(r *Recipe) (string, error) {
	js, err := MarshalCompact(r)
	if err != nil {
		return "", err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(js, &doc); err != nil {
		return "", fmt.Errorf("recipe: to yaml: %w", err)
	}
	blockStyle(&doc)
	out, err := yaml.Marshal(&doc)
	if err != nil {
		return "", fmt.Errorf("recipe: to yaml: %w", err)
	}
	return string(out), nil
}

func blockStyle(n *yaml.Node) {
	n.Style = 0
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" && strings.Contains(n.Value, "\n") {
		n.Style = yaml.LiteralStyle
	}
	for _, c := range n.Content {
		blockStyle(c)
	}
}
