//go:build cgo

package engine

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// available reports whether this build can parse; with cgo it always can.
func available() error { return nil }

// compiled holds a language's grammar and queries, built on first use:
// each helper process analyses once, and compiling a query costs
// milliseconds (tens for Ruby, C++ or Kotlin), so the call query is
// compiled only when an analysis needs calls (focus).
type compiled struct {
	once     sync.Once
	err      error
	lang     *ts.Language
	elements *ts.Query
	// calls is built by callsOnce (callsQuery).
	callsOnce sync.Once
	callsErr  error
	calls     *ts.Query
	// functionKinds are the kind ids of spec.functionKinds.
	functionKinds []uint16
	nameKinds     []uint16
	implKind      uint16
	typeIdentKind uint16
	// parsers keeps idle parsers for reuse; a parser is not safe for
	// concurrent use, and one that does not fit is closed (its memory is C's).
	parsers chan *ts.Parser
}

var compiledLangs = func() map[string]*compiled {
	m := make(map[string]*compiled, len(specs))
	for name := range specs {
		m[name] = &compiled{}
	}
	return m
}()

func compiledFor(language string) (*compiled, *langSpec, error) {
	useLibcAllocator()
	spec, c := specs[language], compiledLangs[language]
	c.once.Do(func() { c.err = c.build(spec) })
	return c, spec, c.err
}

func (c *compiled) build(spec *langSpec) error {
	c.lang = ts.NewLanguage(grammars[spec.grammar]())
	var qerr *ts.QueryError
	if c.elements, qerr = ts.NewQuery(c.lang, spec.elements); qerr != nil {
		return fmt.Errorf("Failed to create query: %w", qerr)
	}
	ids := func(kinds []string) []uint16 {
		out := make([]uint16, 0, len(kinds))
		for _, k := range kinds {
			if id := c.lang.IdForNodeKind(k, true); id != 0 {
				out = append(out, id)
			}
		}
		return out
	}
	c.functionKinds = ids(spec.functionKinds)
	c.nameKinds = ids(nameKinds)
	c.implKind = c.lang.IdForNodeKind("impl_item", true)
	c.typeIdentKind = c.lang.IdForNodeKind("type_identifier", true)
	c.parsers = make(chan *ts.Parser, 8)
	return nil
}

// callsQuery is the language's call query, compiled on first use.
func (c *compiled) callsQuery(spec *langSpec) (*ts.Query, error) {
	c.callsOnce.Do(func() {
		var qerr *ts.QueryError
		if c.calls, qerr = ts.NewQuery(c.lang, spec.calls); qerr != nil {
			c.callsErr = fmt.Errorf("Failed to create call query: %w", qerr)
		}
	})
	return c.calls, c.callsErr
}

func (c *compiled) parser() (*ts.Parser, error) {
	select {
	case p := <-c.parsers:
		return p, nil
	default:
	}
	p := ts.NewParser()
	if err := p.SetLanguage(c.lang); err != nil {
		p.Close()
		return nil, fmt.Errorf("Failed to set language: %w", err)
	}
	return p, nil
}

func (c *compiled) release(p *ts.Parser) {
	select {
	case c.parsers <- p:
	default:
		p.Close()
	}
}

// parseInto parses src as language and adds its elements (and calls) to res.
func parseInto(res *fileResult, language string, src []byte, withCalls bool) error {
	c, spec, err := compiledFor(language)
	if err != nil {
		return err
	}
	var calls *ts.Query
	if withCalls {
		if calls, err = c.callsQuery(spec); err != nil {
			return err
		}
	}
	parser, err := c.parser()
	if err != nil {
		return err
	}
	tree := parser.Parse(src, nil)
	c.release(parser)
	if tree == nil {
		return fmt.Errorf("Failed to parse file as %s", language)
	}
	defer tree.Close()
	root := tree.RootNode()
	cursor := ts.NewQueryCursor()
	defer cursor.Close()
	extractElements(c, cursor, root, src, res)
	if withCalls {
		extractCalls(c, calls, spec, cursor, root, src, res)
	}
	return nil
}

func extractElements(c *compiled, cursor *ts.QueryCursor, root *ts.Node, src []byte, res *fileResult) {
	names := c.elements.CaptureNames()
	matches := cursor.Matches(c.elements, root, src)
	for m := matches.Next(); m != nil; m = matches.Next() {
		for _, capt := range m.Captures {
			name, node := names[capt.Index], &capt.Node
			if strings.HasSuffix(name, ".decl") {
				if node = declaratorName(node); node == nil {
					continue
				}
			}
			res.addElement(name, node.Utf8Text(src), int(node.StartPosition().Row)+1)
		}
	}
}

func extractCalls(c *compiled, calls *ts.Query, spec *langSpec, cursor *ts.QueryCursor, root *ts.Node, src []byte, res *fileResult) {
	matches := cursor.Matches(calls, root, src)
	for m := matches.Next(); m != nil; m = matches.Next() {
		for _, capt := range m.Captures {
			res.Calls = append(res.Calls, call{
				Caller: enclosingFunction(&capt.Node, c, spec, src),
				Callee: capt.Node.Utf8Text(src),
				Line:   int(capt.Node.StartPosition().Row) + 1,
			})
		}
	}
}

// enclosingFunction names the innermost function-like ancestor that has a
// name, or "" at module level.
func enclosingFunction(n *ts.Node, c *compiled, spec *langSpec, src []byte) string {
	for p := n.Parent(); p != nil; p = p.Parent() {
		kind := p.KindId()
		if !slices.Contains(c.functionKinds, kind) {
			continue
		}
		if spec.rustImpl && kind == c.implKind {
			if t := firstChildOfKind(p, c.typeIdentKind); t != nil {
				return "impl " + t.Utf8Text(src)
			}
		}
		if spec.declarators {
			if name := declaratorName(p.ChildByFieldName("declarator")); name != nil {
				return name.Utf8Text(src)
			}
			continue
		}
		if name := firstChildOfKind(p, c.nameKinds...); name != nil {
			return name.Utf8Text(src)
		}
	}
	return ""
}

func firstChildOfKind(n *ts.Node, kinds ...uint16) *ts.Node {
	for i := range n.ChildCount() {
		if ch := n.Child(i); ch != nil && slices.Contains(kinds, ch.KindId()) {
			return ch
		}
	}
	return nil
}

// declaratorName finds the name in a C or C++ declarator: `f` in
// `int *f(void)`, `run` in `void ns::Task::run()`, `~Task` for a
// destructor. It returns nil when the declarator names nothing.
func declaratorName(n *ts.Node) *ts.Node {
	for n != nil {
		switch n.Kind() {
		case "identifier", "field_identifier", "destructor_name", "operator_name":
			return n
		case "qualified_identifier", "template_function", "template_method":
			n = n.ChildByFieldName("name")
		case "reference_declarator":
			n = n.NamedChild(0)
		default:
			n = n.ChildByFieldName("declarator")
		}
	}
	return nil
}
