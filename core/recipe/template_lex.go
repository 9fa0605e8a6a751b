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
	var toks []token
	trimNext := false
	i := 0
	for i < len(src) {
		j := nextDelim(src, i)
		if j < 0 {
			toks = appendText(toks, src[i:], trimNext, false, i)
			break
		}
		open := src[j : j+2]
		inner := j + 2
		trimPrev := inner < len(src) && src[inner] == '-'
		if trimPrev {
			inner++
		}
		if open == "{#" {
			end := strings.Index(src[inner:], "#}")
			if end < 0 {
				return nil, fmt.Errorf("syntax error: unexpected end of comment")
			}
			toks = appendText(toks, src[i:j], trimNext, trimPrev, i)
			body := src[inner : inner+end]
			trimNext = strings.HasSuffix(body, "-")
			i = inner + end + 2
			continue
		}
		if open == "{{" {
			if lit, ok := unparsableVar(src, j); ok {
				toks = appendText(toks, src[i:j]+lit, trimNext, false, i)
				trimNext = false
				i = j + len(lit)
				continue
			}
		}
		closeDelim := "}}"
		if open == "{%" {
			closeDelim = "%}"
		}
		end := findClose(src, inner, closeDelim)
		if end < 0 {
			return nil, fmt.Errorf("syntax error: unexpected end of input, expected end of %s", map[string]string{"{{": "variable block", "{%": "block"}[open])
		}
		body := src[inner:end]
		trimAfter := strings.HasSuffix(body, "-")
		if trimAfter {
			body = body[:len(body)-1]
		}
		toks = appendText(toks, src[i:j], trimNext, trimPrev, i)
		trimNext = trimAfter
		next := end + 2
		if open == "{%" && strings.TrimSpace(body) == "raw" {
			rawEnd, after, trim, err := findEndRaw(src, next)
			if err != nil {
				return nil, err
			}
			toks = appendText(toks, src[next:rawEnd], trimNext, trim, next)
			trimNext = after.trim
			i = after.pos
			continue
		}
		kind := tokVar
		if open == "{%" {
			kind = tokTag
		}
		toks = append(toks, token{kind: kind, text: body, pos: j})
		i = next
	}
	return toks, nil
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
