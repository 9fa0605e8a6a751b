package recipe

import (
	"fmt"
	"strings"
)

// The template engine is a small Jinja subset that covers what goose
// recipes use with minijinja: {{ expr }} with filters, {% if/elif/else %},
// {% for %}, {% set %}, {% raw %}, {% extends %}/{% block %}, {% include %},
// {# comments #} and "-" whitespace control.

type tokKind int

const (
	tokText tokKind = iota
	tokVar
	tokTag
)

type token struct {
	kind tokKind
	text string // literal text, or the inside of {{ }} / {% %}
	pos  int
}

// lex splits src into text, variable and tag tokens, applying "-"
// whitespace control and turning {% raw %} bodies into text.
func lex(src string) ([]token, error) {
	l := &lexer{src: src}
	for l.i < len(src) {
		j := nextDelim(src, l.i)
		if j < 0 {
			l.text(src[l.i:], false)
			break
		}
		if err := l.delimited(j); err != nil {
			return nil, err
		}
	}
	return l.toks, nil
}

// lexer is lex's state: the output so far, the read position and whether
// the previous tag asked to trim the whitespace that follows it.
type lexer struct {
	src      string
	toks     []token
	i        int
	trimNext bool
}

// text emits literal text that started at the read position.
func (l *lexer) text(s string, trimRight bool) {
	l.toks = appendText(l.toks, s, l.trimNext, trimRight, l.i)
}

// delimited handles the {{, {% or {# starting at j.
func (l *lexer) delimited(j int) error {
	open := l.src[j : j+2]
	inner := j + 2
	trimPrev := inner < len(l.src) && l.src[inner] == '-'
	if trimPrev {
		inner++
	}
	switch open {
	case "{#":
		return l.comment(j, inner, trimPrev)
	case "{{":
		if lit, ok := unparsableVar(l.src, j); ok {
			l.text(l.src[l.i:j]+lit, false)
			l.trimNext = false
			l.i = j + len(lit)
			return nil
		}
	}
	return l.block(j, inner, open, trimPrev)
}

func (l *lexer) comment(j, inner int, trimPrev bool) error {
	end := strings.Index(l.src[inner:], "#}")
	if end < 0 {
		return fmt.Errorf("syntax error: unexpected end of comment")
	}
	l.text(l.src[l.i:j], trimPrev)
	l.trimNext = strings.HasSuffix(l.src[inner:inner+end], "-")
	l.i = inner + end + 2
	return nil
}

// block emits a {{ … }} or {% … %} token; a {% raw %} body becomes text.
func (l *lexer) block(j, inner int, open string, trimPrev bool) error {
	closeDelim, kind, what := "}}", tokVar, "variable block"
	if open == "{%" {
		closeDelim, kind, what = "%}", tokTag, "block"
	}
	end := findClose(l.src, inner, closeDelim)
	if end < 0 {
		return fmt.Errorf("syntax error: unexpected end of input, expected end of %s", what)
	}
	body := l.src[inner:end]
	trimAfter := strings.HasSuffix(body, "-")
	if trimAfter {
		body = body[:len(body)-1]
	}
	l.text(l.src[l.i:j], trimPrev)
	l.trimNext = trimAfter
	l.i = end + 2
	if kind == tokTag && strings.TrimSpace(body) == "raw" {
		return l.raw()
	}
	l.toks = append(l.toks, token{kind: kind, text: body, pos: j})
	return nil
}

// raw emits everything up to {% endraw %} as text.
func (l *lexer) raw() error {
	rawEnd, after, trim, err := findEndRaw(l.src, l.i)
	if err != nil {
		return err
	}
	l.text(l.src[l.i:rawEnd], trim)
	l.trimNext = after.trim
	l.i = after.pos
	return nil
}

// unparsableVar is goose's preprocess_template_variables: a one-line
// {{…}} whose content is not a plain name, does not start with a quote and
// does not parse as an expression is kept verbatim (goose wraps it in raw).
func unparsableVar(src string, at int) (string, bool) {
	end := strings.Index(src[at+2:], "}}")
	if end < 0 {
		return "", false
	}
	content := src[at+2 : at+2+end]
	trimmed := strings.TrimSpace(content)
	if strings.Contains(content, "\n") || strings.HasPrefix(trimmed, "'") || strings.HasPrefix(trimmed, "\"") {
		return "", false
	}
	if isIdent(trimmed) {
		return "", false
	}
	body := strings.TrimSuffix(strings.TrimPrefix(content, "-"), "-")
	if _, err := parseExprString(body); err == nil {
		return "", false
	}
	return src[at : at+2+end+2], true
}

type rawEnd struct {
	pos  int
	trim bool
}

func findEndRaw(src string, from int) (int, rawEnd, bool, error) {
	for k := from; k < len(src); {
		j := strings.Index(src[k:], "{%")
		if j < 0 {
			break
		}
		j += k
		inner := j + 2
		trimPrev := inner < len(src) && src[inner] == '-'
		if trimPrev {
			inner++
		}
		end := strings.Index(src[inner:], "%}")
		if end < 0 {
			break
		}
		body := src[inner : inner+end]
		trimAfter := strings.HasSuffix(body, "-")
		if strings.TrimSpace(strings.TrimSuffix(body, "-")) == "endraw" {
			return j, rawEnd{pos: inner + end + 2, trim: trimAfter}, trimPrev, nil
		}
		k = j + 2
	}
	return 0, rawEnd{}, false, fmt.Errorf("syntax error: unexpected end of raw block")
}

func appendText(toks []token, s string, trimLeft, trimRight bool, pos int) []token {
	if trimLeft {
		s = strings.TrimLeft(s, " \t\r\n")
	}
	if trimRight {
		s = strings.TrimRight(s, " \t\r\n")
	}
	if s == "" {
		return toks
	}
	return append(toks, token{kind: tokText, text: s, pos: pos})
}

func nextDelim(src string, from int) int {
	for k := from; k+1 < len(src); k++ {
		if src[k] == '{' && (src[k+1] == '{' || src[k+1] == '%' || src[k+1] == '#') {
			return k
		}
	}
	return -1
}

// findClose finds delim outside string literals.
func findClose(src string, from int, delim string) int {
	var quote byte
	for k := from; k+1 < len(src); k++ {
		c := src[k]
		switch {
		case quote != 0:
			if c == '\\' {
				k++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case src[k:k+2] == delim:
			return k
		}
	}
	return -1
}
