package recipe

import (
	"fmt"
	"strconv"
	"strings"
)

// expr is a parsed template expression.
type expr interface{}

type (
	nameExpr struct{ name string }
	litExpr  struct{ v any }
	listExpr struct{ items []expr }
	attrExpr struct {
		obj  expr
		attr string
	}
	indexExpr struct{ obj, index expr }
	unaryExpr struct {
		op string
		x  expr
	}
	binExpr struct {
		op   string
		l, r expr
	}
	filterExpr struct {
		x    expr
		name string
		args []expr
	}
	testExpr struct {
		x      expr
		name   string
		negate bool
	}
	condExpr struct{ then, cond, els expr }
)

type etok struct {
	kind byte // 'n' name, 's' string, 'd' number, 'o' operator
	s    string
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || (i > 0 && '0' <= c && c <= '9') {
			continue
		}
		return false
	}
	return true
}

func tokenizeExpr(s string) ([]etok, error) {
	var out []etok
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z'):
			j := i + 1
			for j < len(s) && (s[j] == '_' || ('a' <= s[j] && s[j] <= 'z') || ('A' <= s[j] && s[j] <= 'Z') || ('0' <= s[j] && s[j] <= '9')) {
				j++
			}
			out = append(out, etok{'n', s[i:j]})
			i = j
		case '0' <= c && c <= '9':
			j := i + 1
			for j < len(s) && (('0' <= s[j] && s[j] <= '9') || s[j] == '.' || s[j] == '_') {
				j++
			}
			out = append(out, etok{'d', s[i:j]})
			i = j
		case c == '"' || c == '\'':
			str, n, err := readString(s[i:])
			if err != nil {
				return nil, err
			}
			out = append(out, etok{'s', str})
			i += n
		default:
			op := string(c)
			if i+1 < len(s) {
				two := s[i : i+2]
				switch two {
				case "==", "!=", "<=", ">=", "//", "**":
					op = two
				}
			}
			if !strings.Contains("=!<>+-*/%~|.,()[]{}:", op[:1]) {
				return nil, fmt.Errorf("syntax error: unexpected character %q", c)
			}
			out = append(out, etok{'o', op})
			i += len(op)
		}
	}
	return out, nil
}

func readString(s string) (string, int, error) {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			default:
				b.WriteByte(s[i])
			}
			continue
		}
		if c == q {
			return b.String(), i + 1, nil
		}
		b.WriteByte(c)
	}
	return "", 0, fmt.Errorf("syntax error: unexpected end of string")
}

type exprParser struct {
	toks []etok
	pos  int
}

func parseExprString(s string) (expr, error) {
	toks, err := tokenizeExpr(s)
	if err != nil {
		return nil, err
	}
	p := &exprParser{toks: toks}
	e, err := p.parseExpr()
	if err != nil {
		return nil, err
	}
	if p.pos != len(p.toks) {
		return nil, fmt.Errorf("syntax error: unexpected %q", p.toks[p.pos].s)
	}
	return e, nil
}

func (p *exprParser) peek() (etok, bool) {
	if p.pos < len(p.toks) {
		return p.toks[p.pos], true
	}
	return etok{}, false
}

func (p *exprParser) accept(kind byte, s string) bool {
	if t, ok := p.peek(); ok && t.kind == kind && t.s == s {
		p.pos++
		return true
	}
	return false
}

func (p *exprParser) expect(kind byte, s string) error {
	if !p.accept(kind, s) {
		return fmt.Errorf("syntax error: expected %q", s)
	}
	return nil
}

func (p *exprParser) parseExpr() (expr, error) {
	e, err := p.parseOr()
	if err != nil {
		return nil, err
	}
	if p.accept('n', "if") {
		cond, err := p.parseOr()
		if err != nil {
			return nil, err
		}
		var els expr = litExpr{v: undefined{}}
		if p.accept('n', "else") {
			if els, err = p.parseExpr(); err != nil {
				return nil, err
			}
		}
		return condExpr{then: e, cond: cond, els: els}, nil
	}
	return e, nil
}

func (p *exprParser) parseOr() (expr, error) {
	return p.parseBinary([]string{"or"}, p.parseAnd)
}

func (p *exprParser) parseAnd() (expr, error) {
	return p.parseBinary([]string{"and"}, p.parseNot)
}

func (p *exprParser) parseNot() (expr, error) {
	if p.accept('n', "not") {
		x, err := p.parseNot()
		if err != nil {
			return nil, err
		}
		return unaryExpr{op: "not", x: x}, nil
	}
	return p.parseCompare()
}

func (p *exprParser) parseCompare() (expr, error) {
	l, err := p.parseAdd()
	if err != nil {
		return nil, err
	}
	for {
		t, ok := p.peek()
		if !ok {
			return l, nil
		}
		op := ""
		switch {
		case t.kind == 'o' && (t.s == "==" || t.s == "!=" || t.s == "<" || t.s == ">" || t.s == "<=" || t.s == ">="):
			op = t.s
			p.pos++
		case t.kind == 'n' && t.s == "in":
			op = "in"
			p.pos++
		case t.kind == 'n' && t.s == "not" && p.pos+1 < len(p.toks) && p.toks[p.pos+1].s == "in":
			op = "not in"
			p.pos += 2
		case t.kind == 'n' && t.s == "is":
			p.pos++
			neg := p.accept('n', "not")
			nt, ok := p.peek()
			if !ok || nt.kind != 'n' {
				return nil, fmt.Errorf("syntax error: expected test name")
			}
			p.pos++
			l = testExpr{x: l, name: nt.s, negate: neg}
			continue
		default:
			return l, nil
		}
		r, err := p.parseAdd()
		if err != nil {
			return nil, err
		}
		l = binExpr{op: op, l: l, r: r}
	}
}

func (p *exprParser) parseAdd() (expr, error) {
	return p.parseBinary([]string{"+", "-", "~"}, p.parseMul)
}

func (p *exprParser) parseMul() (expr, error) {
	return p.parseBinary([]string{"*", "/", "%", "//"}, p.parseUnary)
}

func (p *exprParser) parseBinary(ops []string, next func() (expr, error)) (expr, error) {
	l, err := next()
	if err != nil {
		return nil, err
	}
	for {
		t, ok := p.peek()
		if !ok || !contains(ops, t.s) || (t.kind == 's') || (t.kind == 'd') {
			return l, nil
		}
		p.pos++
		r, err := next()
		if err != nil {
			return nil, err
		}
		l = binExpr{op: t.s, l: l, r: r}
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func (p *exprParser) parseUnary() (expr, error) {
	if p.accept('o', "-") {
		x, err := p.parseUnary()
		if err != nil {
			return nil, err
		}
		return unaryExpr{op: "-", x: x}, nil
	}
	return p.parsePostfix()
}

func (p *exprParser) parsePostfix() (expr, error) {
	e, err := p.parsePrimary()
	if err != nil {
		return nil, err
	}
	for {
		switch {
		case p.accept('o', "."):
			t, ok := p.peek()
			if !ok || (t.kind != 'n' && t.kind != 'd') {
				return nil, fmt.Errorf("syntax error: expected attribute name")
			}
			p.pos++
			e = attrExpr{obj: e, attr: t.s}
		case p.accept('o', "["):
			idx, err := p.parseExpr()
			if err != nil {
				return nil, err
			}
			if err := p.expect('o', "]"); err != nil {
				return nil, err
			}
			e = indexExpr{obj: e, index: idx}
		case p.accept('o', "|"):
			if e, err = p.parseFilter(e); err != nil {
				return nil, err
			}
		default:
			return e, nil
		}
	}
}

func (p *exprParser) parseFilter(x expr) (expr, error) {
	t, ok := p.peek()
	if !ok || t.kind != 'n' {
		return nil, fmt.Errorf("syntax error: expected filter name")
	}
	p.pos++
	f := filterExpr{x: x, name: t.s}
	if p.accept('o', "(") {
		args, err := p.parseList(")")
		if err != nil {
			return nil, err
		}
		f.args = args
	}
	return f, nil
}

func (p *exprParser) parseList(closer string) ([]expr, error) {
	var items []expr
	for !p.accept('o', closer) {
		if len(items) > 0 {
			if err := p.expect('o', ","); err != nil {
				return nil, err
			}
			if p.accept('o', closer) {
				break
			}
		}
		it, err := p.parseExpr()
		if err != nil {
			return nil, err
		}
		items = append(items, it)
	}
	return items, nil
}

func (p *exprParser) parsePrimary() (expr, error) {
	t, ok := p.peek()
	if !ok {
		return nil, fmt.Errorf("syntax error: unexpected end of input, expected expression")
	}
	p.pos++
	switch t.kind {
	case 's':
		return litExpr{v: t.s}, nil
	case 'd':
		return parseNumber(t.s)
	case 'n':
		switch t.s {
		case "true", "True":
			return litExpr{v: true}, nil
		case "false", "False":
			return litExpr{v: false}, nil
		case "none", "None":
			return litExpr{v: nil}, nil
		}
		return nameExpr{name: t.s}, nil
	}
	switch t.s {
	case "(":
		e, err := p.parseExpr()
		if err != nil {
			return nil, err
		}
		return e, p.expect('o', ")")
	case "[":
		items, err := p.parseList("]")
		return listExpr{items: items}, err
	}
	return nil, fmt.Errorf("syntax error: unexpected %q", t.s)
}

func parseNumber(s string) (expr, error) {
	s = strings.ReplaceAll(s, "_", "")
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return litExpr{v: i}, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, fmt.Errorf("syntax error: invalid number %q", s)
	}
	return litExpr{v: f}, nil
}
