package recipe

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// undefined is a missing variable or attribute.
type undefined struct{}

// maxTemplateDepth bounds extends/include nesting (and cycles).
const maxTemplateDepth = 16

// maxOutput bounds rendered output so hostile templates cannot exhaust memory.
const maxOutput = 16 << 20

type renderer struct {
	load   func(name string) (string, error)
	strict bool
	out    strings.Builder
	depth  int
}

type scope struct {
	vars   map[string]any
	parent *scope
}

func (s *scope) lookup(name string) (any, bool) {
	for c := s; c != nil; c = c.parent {
		if v, ok := c.vars[name]; ok {
			return v, true
		}
	}
	return nil, false
}

func (r *renderer) renderTemplate(t *tmpl, sc *scope, overrides map[string][]node) error {
	if r.depth > maxTemplateDepth {
		return fmt.Errorf("template error: too many nested templates")
	}
	if t.extends == nil {
		return r.renderNodes(t.nodes, sc, overrides)
	}
	merged := map[string][]node{}
	for k, v := range t.blocks {
		merged[k] = v
	}
	for k, v := range overrides {
		merged[k] = v
	}
	parent, err := r.loadTemplate(t.extends, sc)
	if err != nil {
		return err
	}
	// The child's top-level sets still apply; its other output is dropped.
	for _, n := range t.nodes {
		if s, ok := n.(setNode); ok {
			if err := r.renderNode(s, sc, merged); err != nil {
				return err
			}
		}
	}
	r.depth++
	defer func() { r.depth-- }()
	return r.renderTemplate(parent, sc, merged)
}

func (r *renderer) loadTemplate(e expr, sc *scope) (*tmpl, error) {
	v, err := r.eval(e, sc)
	if err != nil {
		return nil, err
	}
	name, ok := v.(string)
	if !ok {
		return nil, fmt.Errorf("template error: template name must be a string")
	}
	if r.load == nil {
		return nil, fmt.Errorf("template not found: template %q does not exist", name)
	}
	src, err := r.load(name)
	if err != nil {
		return nil, err
	}
	return parseTemplate(src)
}

func (r *renderer) renderNodes(nodes []node, sc *scope, blocks map[string][]node) error {
	for _, n := range nodes {
		if err := r.renderNode(n, sc, blocks); err != nil {
			return err
		}
		if r.out.Len() > maxOutput {
			return fmt.Errorf("template error: output too large")
		}
	}
	return nil
}

func (r *renderer) renderNode(n node, sc *scope, blocks map[string][]node) error {
	switch n := n.(type) {
	case textNode:
		r.out.WriteString(n.s)
	case outNode:
		v, err := r.eval(n.e, sc)
		if err != nil {
			return err
		}
		s, err := r.str(v)
		if err != nil {
			return err
		}
		r.out.WriteString(s)
	case ifNode:
		for i, c := range n.conds {
			v, err := r.eval(c, sc)
			if err != nil {
				return err
			}
			if truthy(v) {
				return r.renderNodes(n.bodies[i], &scope{vars: map[string]any{}, parent: sc}, blocks)
			}
		}
		return r.renderNodes(n.els, sc, blocks)
	case forNode:
		return r.renderFor(n, sc, blocks)
	case setNode:
		v, err := r.eval(n.e, sc)
		if err != nil {
			return err
		}
		sc.vars[n.name] = v
	case blockNode:
		body := n.body
		if o, ok := blocks[n.name]; ok {
			body = o
		}
		return r.renderNodes(body, sc, blocks)
	case includeNode:
		t, err := r.loadTemplate(n.e, sc)
		if err != nil {
			if n.ignoreMissing {
				return nil
			}
			return err
		}
		r.depth++
		defer func() { r.depth-- }()
		if r.depth > maxTemplateDepth {
			return fmt.Errorf("template error: too many nested templates")
		}
		return r.renderTemplate(t, sc, nil)
	}
	return nil
}

func (r *renderer) renderFor(n forNode, sc *scope, blocks map[string][]node) error {
	v, err := r.eval(n.iter, sc)
	if err != nil {
		return err
	}
	items, err := r.iterate(v)
	if err != nil {
		return err
	}
	if len(items) == 0 {
		return r.renderNodes(n.els, sc, blocks)
	}
	for i, it := range items {
		inner := &scope{vars: map[string]any{"loop": map[string]any{
			"index": int64(i + 1), "index0": int64(i), "first": i == 0, "last": i == len(items)-1, "length": int64(len(items)),
		}}, parent: sc}
		if len(n.vars) == 1 {
			inner.vars[n.vars[0]] = it
		} else {
			parts, _ := it.([]any)
			for k, name := range n.vars {
				if k < len(parts) {
					inner.vars[name] = parts[k]
				} else {
					inner.vars[name] = undefined{}
				}
			}
		}
		if err := r.renderNodes(n.body, inner, blocks); err != nil {
			return err
		}
	}
	return nil
}

func (r *renderer) iterate(v any) ([]any, error) {
	switch t := v.(type) {
	case []any:
		return t, nil
	case map[string]any:
		keys := sortedKeys(t)
		out := make([]any, len(keys))
		for i, k := range keys {
			out[i] = k
		}
		return out, nil
	case string:
		out := []any{}
		for _, c := range t {
			out = append(out, string(c))
		}
		return out, nil
	case undefined:
		if r.strict {
			return nil, fmt.Errorf("undefined value")
		}
		return nil, nil
	case nil:
		return nil, nil
	}
	return nil, fmt.Errorf("invalid operation: value is not iterable")
}

func (r *renderer) str(v any) (string, error) {
	if _, ok := v.(undefined); ok {
		if r.strict {
			return "", fmt.Errorf("undefined value")
		}
		return "", nil
	}
	return display(v), nil
}

// display formats a value the way minijinja prints it.
func display(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case undefined:
		return ""
	}
	return repr(v)
}

func repr(v any) string {
	switch t := v.(type) {
	case nil:
		return "none"
	case undefined:
		return "undefined"
	case string:
		b, _ := json.Marshal(t)
		return string(b)
	case bool:
		return strconv.FormatBool(t)
	case int64:
		return strconv.FormatInt(t, 10)
	case json.Number:
		return t.String()
	case float64:
		if t == math.Trunc(t) && math.Abs(t) < 1e15 {
			return strconv.FormatFloat(t, 'f', 1, 64)
		}
		return strconv.FormatFloat(t, 'g', -1, 64)
	case []any:
		parts := make([]string, len(t))
		for i, e := range t {
			parts[i] = repr(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := sortedKeys(t)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = repr(k) + ": " + repr(t[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprint(v)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func truthy(v any) bool {
	switch t := v.(type) {
	case nil, undefined:
		return false
	case bool:
		return t
	case string:
		return t != ""
	case int64:
		return t != 0
	case float64:
		return t != 0
	case json.Number:
		f, _ := t.Float64()
		return f != 0
	case []any:
		return len(t) > 0
	case map[string]any:
		return len(t) > 0
	}
	return true
}
