package analyze

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"sync"
	"unicode/utf8"

	ts "github.com/odvcencio/gotreesitter"
)

// symbol is a named definition and its 1-based line.
type symbol struct {
	Name string
	Line int
}

// call is one call site. Caller is "" for module-level code.
type call struct {
	Caller string
	Callee string
	Line   int
}

// fileResult is what one file contributes to an analysis.
type fileResult struct {
	Lines     int
	Functions []symbol // functions, methods and (Go) constants
	Classes   []symbol // classes, structs, types, modules, impls
	Imports   []string
	Calls     []call // only filled when calls were asked for
	MainLine  int    // line of the first function named main, 0 if none
}

// shown reports whether goose lists the file in a directory overview.
func (r *fileResult) shown() bool {
	return r.Lines > 0 || len(r.Functions) > 0 || len(r.Classes) > 0
}

// compiled holds a language's grammar and queries, built once on first use.
type compiled struct {
	once     sync.Once
	err      error
	lang     *ts.Language
	elements *ts.Query
	calls    *ts.Query
	parsers  sync.Pool // *ts.Parser; a parser is not safe for concurrent use
}

var compiledLangs = func() map[string]*compiled {
	m := make(map[string]*compiled, len(specs))
	for name := range specs {
		m[name] = &compiled{}
	}
	return m
}()

func compiledFor(language string) (*compiled, *langSpec, error) {
	spec, c := specs[language], compiledLangs[language]
	if spec == nil {
		return nil, nil, nil
	}
	c.once.Do(func() {
		c.lang = spec.grammar()
		if c.elements, c.err = ts.NewQuery(spec.elements, c.lang); c.err != nil {
			c.err = fmt.Errorf("Failed to create query: %w", c.err)
			return
		}
		if c.calls, c.err = ts.NewQuery(spec.calls, c.lang); c.err != nil {
			c.err = fmt.Errorf("Failed to create call query: %w", c.err)
			return
		}
		c.parsers.New = func() any { return ts.NewParser(c.lang) }
	})
	return c, spec, c.err
}

// analyzeFile reads and parses one file. Files that are not UTF-8 count as
// empty, as goose skips what read_to_string rejects.
func analyzeFile(path string, withCalls bool) (*fileResult, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("Failed to read file '%s': %w", path, err)
	}
	if !utf8.Valid(src) {
		return &fileResult{}, nil
	}
	res := &fileResult{Lines: countLines(src)}
	c, spec, err := compiledFor(languageOf(path))
	if err != nil {
		return nil, err
	}
	if c == nil {
		return res, nil
	}
	parser := c.parsers.Get().(*ts.Parser)
	tree, err := parser.Parse(src)
	c.parsers.Put(parser)
	if err != nil || tree == nil {
		return nil, fmt.Errorf("Failed to parse file as %s: %v", languageOf(path), err)
	}
	defer tree.Release()
	root := tree.RootNode()
	extractElements(c, root, src, res)
	if withCalls {
		extractCalls(c, spec, root, src, res)
	}
	return res, nil
}

func extractElements(c *compiled, root *ts.Node, src []byte, res *fileResult) {
	cur := c.elements.Exec(root, c.lang, src)
	for {
		m, ok := cur.NextMatch()
		if !ok {
			break
		}
		for _, capt := range m.Captures {
			text := capt.Text(src)
			line := int(capt.Node.StartPoint().Row) + 1
			switch capt.Name {
			case "func", "const":
				res.Functions = append(res.Functions, symbol{text, line})
				if text == "main" && res.MainLine == 0 {
					res.MainLine = line
				}
			case "class", "struct":
				res.Classes = append(res.Classes, symbol{text, line})
			case "import":
				res.Imports = append(res.Imports, text)
			}
		}
	}
}

func extractCalls(c *compiled, spec *langSpec, root *ts.Node, src []byte, res *fileResult) {
	cur := c.calls.Exec(root, c.lang, src)
	for {
		m, ok := cur.NextMatch()
		if !ok {
			break
		}
		for _, capt := range m.Captures {
			res.Calls = append(res.Calls, call{
				Caller: enclosingFunction(capt.Node, c.lang, spec, src),
				Callee: capt.Text(src),
				Line:   int(capt.Node.StartPoint().Row) + 1,
			})
		}
	}
}

// enclosingFunction names the innermost function-like ancestor that has a
// name, or "" at module level.
func enclosingFunction(n *ts.Node, lang *ts.Language, spec *langSpec, src []byte) string {
	for p := n.Parent(); p != nil; p = p.Parent() {
		kind := p.Type(lang)
		if !slices.Contains(spec.functionKinds, kind) {
			continue
		}
		if spec.rustImpl && kind == "impl_item" {
			if t := firstChildOfKind(p, lang, "type_identifier"); t != nil {
				return "impl " + t.Text(src)
			}
		}
		if name := firstChildOfKind(p, lang, nameKinds...); name != nil {
			return name.Text(src)
		}
	}
	return ""
}

func firstChildOfKind(n *ts.Node, lang *ts.Language, kinds ...string) *ts.Node {
	for i := range n.ChildCount() {
		if ch := n.Child(i); ch != nil && slices.Contains(kinds, ch.Type(lang)) {
			return ch
		}
	}
	return nil
}

// countLines counts lines the way Rust's str::lines does: a final newline
// does not start another line.
func countLines(b []byte) int {
	n := bytes.Count(b, []byte{'\n'})
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}
