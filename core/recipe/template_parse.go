package recipe

import (
	"fmt"
	"strings"
)

type node interface{}

type (
	textNode struct{ s string }
	outNode  struct{ e expr }
	ifNode   struct {
		conds  []expr
		bodies [][]node
		els    []node
	}
	forNode struct {
		vars      []string
		iter      expr
		body, els []node
	}
	setNode struct {
		name string
		e    expr
	}
	blockNode struct {
		name string
		body []node
	}
	extendsNode struct{ e expr }
	includeNode struct {
		e             expr
		ignoreMissing bool
	}
)

// tmpl is a parsed template.
type tmpl struct {
	nodes   []node
	blocks  map[string][]node
	extends expr
}

type stmtParser struct {
	toks   []token
	pos    int
	blocks map[string][]node
	ext    expr
}

func parseTemplate(src string) (*tmpl, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &stmtParser{toks: toks, blocks: map[string][]node{}}
	nodes, end, err := p.parseUntil()
	if err != nil {
		return nil, err
	}
	if end != "" {
		return nil, fmt.Errorf("syntax error: unexpected %s", end)
	}
	return &tmpl{nodes: nodes, blocks: p.blocks, extends: p.ext}, nil
}

// parseUntil parses nodes until an end/else-like tag, which it returns
// (with its arguments) without consuming anything after it.
func (p *stmtParser) parseUntil(stops ...string) ([]node, string, error) {
	var out []node
	for p.pos < len(p.toks) {
		t := p.toks[p.pos]
		p.pos++
		switch t.kind {
		case tokText:
			out = append(out, textNode{s: t.text})
		case tokVar:
			e, err := parseExprString(t.text)
			if err != nil {
				return nil, "", err
			}
			out = append(out, outNode{e: e})
		case tokTag:
			word, rest := splitTag(t.text)
			if contains(stops, word) {
				return out, strings.TrimSpace(word + " " + rest), nil
			}
			n, err := p.parseTag(word, rest)
			if err != nil {
				return nil, "", err
			}
			if n != nil {
				out = append(out, n)
			}
		}
	}
	if len(stops) > 0 {
		return nil, "", fmt.Errorf("syntax error: unexpected end of input, expected %s", stops[len(stops)-1])
	}
	return out, "", nil
}

func splitTag(s string) (string, string) {
	s = strings.TrimSpace(s)
	i := strings.IndexAny(s, " \t\r\n")
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimSpace(s[i:])
}

func (p *stmtParser) parseTag(word, rest string) (node, error) {
	switch word {
	case "if":
		return p.parseIf(rest)
	case "for":
		return p.parseFor(rest)
	case "set":
		name, val, ok := strings.Cut(rest, "=")
		name = strings.TrimSpace(name)
		if !ok || !isIdent(name) {
			return nil, fmt.Errorf("syntax error: invalid set statement")
		}
		e, err := parseExprString(val)
		return setNode{name: name, e: e}, err
	case "block":
		return p.parseBlock(rest)
	case "extends":
		e, err := parseExprString(rest)
		if err != nil {
			return nil, err
		}
		p.ext = e
		return extendsNode{e: e}, nil
	case "include":
		ignore := strings.HasSuffix(rest, "ignore missing")
		e, err := parseExprString(strings.TrimSuffix(rest, "ignore missing"))
		return includeNode{e: e, ignoreMissing: ignore}, err
	}
	return nil, fmt.Errorf("syntax error: unknown statement %s", word)
}

func (p *stmtParser) parseIf(cond string) (node, error) {
	n := ifNode{}
	for {
		c, err := parseExprString(cond)
		if err != nil {
			return nil, err
		}
		body, end, err := p.parseUntil("elif", "else", "endif")
		if err != nil {
			return nil, err
		}
		n.conds = append(n.conds, c)
		n.bodies = append(n.bodies, body)
		word, rest := splitTag(end)
		switch word {
		case "elif":
			cond = rest
			continue
		case "else":
			if n.els, _, err = p.parseUntil("endif"); err != nil {
				return nil, err
			}
		}
		return n, nil
	}
}

func (p *stmtParser) parseFor(spec string) (node, error) {
	vars, iter, ok := strings.Cut(spec, " in ")
	if !ok {
		return nil, fmt.Errorf("syntax error: expected 'in' in for loop")
	}
	n := forNode{}
	for _, v := range strings.Split(vars, ",") {
		v = strings.TrimSpace(v)
		if !isIdent(v) {
			return nil, fmt.Errorf("syntax error: invalid loop variable %q", v)
		}
		n.vars = append(n.vars, v)
	}
	e, err := parseExprString(iter)
	if err != nil {
		return nil, err
	}
	n.iter = e
	body, end, err := p.parseUntil("else", "endfor")
	if err != nil {
		return nil, err
	}
	n.body = body
	if end == "else" {
		if n.els, _, err = p.parseUntil("endfor"); err != nil {
			return nil, err
		}
	}
	return n, nil
}

func (p *stmtParser) parseBlock(name string) (node, error) {
	if !isIdent(name) {
		return nil, fmt.Errorf("syntax error: invalid block name %q", name)
	}
	body, _, err := p.parseUntil("endblock")
	if err != nil {
		return nil, err
	}
	if _, dup := p.blocks[name]; dup {
		return nil, fmt.Errorf("syntax error: block %q defined twice", name)
	}
	p.blocks[name] = body
	return blockNode{name: name, body: body}, nil
}
