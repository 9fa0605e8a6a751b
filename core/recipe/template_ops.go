package recipe

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
)

func (r *renderer) eval(e expr, sc *scope) (any, error) {
	switch e := e.(type) {
	case litExpr:
		return e.v, nil
	case nameExpr:
		if v, ok := sc.lookup(e.name); ok {
			return v, nil
		}
		return undefined{}, nil
	case listExpr:
		out := make([]any, len(e.items))
		for i, it := range e.items {
			v, err := r.eval(it, sc)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case attrExpr:
		obj, err := r.eval(e.obj, sc)
		if err != nil {
			return nil, err
		}
		return r.getItem(obj, e.attr)
	case indexExpr:
		obj, err := r.eval(e.obj, sc)
		if err != nil {
			return nil, err
		}
		idx, err := r.eval(e.index, sc)
		if err != nil {
			return nil, err
		}
		return r.getItem(obj, idx)
	case unaryExpr:
		x, err := r.eval(e.x, sc)
		if err != nil {
			return nil, err
		}
		if e.op == "not" {
			return !truthy(x), nil
		}
		f, ok := toFloat(x)
		if !ok {
			return nil, fmt.Errorf("invalid operation: cannot negate value")
		}
		return -f, nil
	case binExpr:
		return r.evalBinary(e, sc)
	case testExpr:
		return r.evalTest(e, sc)
	case filterExpr:
		return r.evalFilter(e, sc)
	case condExpr:
		c, err := r.eval(e.cond, sc)
		if err != nil {
			return nil, err
		}
		if truthy(c) {
			return r.eval(e.then, sc)
		}
		return r.eval(e.els, sc)
	}
	return nil, fmt.Errorf("template error: unknown expression")
}

func (r *renderer) getItem(obj, key any) (any, error) {
	switch o := obj.(type) {
	case undefined:
		if r.strict {
			return nil, fmt.Errorf("undefined value")
		}
		return undefined{}, nil
	case map[string]any:
		if k, ok := key.(string); ok {
			if v, ok := o[k]; ok {
				return v, nil
			}
		}
	case []any:
		var i int64
		switch k := key.(type) {
		case int64:
			i = k
		case string:
			if _, err := fmt.Sscan(k, &i); err != nil {
				return undefined{}, nil
			}
		default:
			return undefined{}, nil
		}
		if i < 0 {
			i += int64(len(o))
		}
		if i >= 0 && i < int64(len(o)) {
			return o[i], nil
		}
	}
	return undefined{}, nil
}

func (r *renderer) evalBinary(e binExpr, sc *scope) (any, error) {
	l, err := r.eval(e.l, sc)
	if err != nil {
		return nil, err
	}
	switch e.op {
	case "and":
		if !truthy(l) {
			return l, nil
		}
		return r.eval(e.r, sc)
	case "or":
		if truthy(l) {
			return l, nil
		}
		return r.eval(e.r, sc)
	}
	rv, err := r.eval(e.r, sc)
	if err != nil {
		return nil, err
	}
	if r.strict && (isUndef(l) || isUndef(rv)) && e.op != "==" && e.op != "!=" {
		return nil, fmt.Errorf("undefined value")
	}
	switch e.op {
	case "==":
		return equal(l, rv), nil
	case "!=":
		return !equal(l, rv), nil
	case "in":
		return within(l, rv), nil
	case "not in":
		return !within(l, rv), nil
	case "~":
		return display(l) + display(rv), nil
	}
	return arith(e.op, l, rv)
}

func isUndef(v any) bool { _, ok := v.(undefined); return ok }

func arith(op string, l, r any) (any, error) {
	if op == "+" {
		if ls, ok := l.(string); ok {
			if rs, ok := r.(string); ok {
				return ls + rs, nil
			}
		}
		if ll, ok := l.([]any); ok {
			if rl, ok := r.([]any); ok {
				return append(append([]any{}, ll...), rl...), nil
			}
		}
	}
	li, lInt := l.(int64)
	ri, rInt := r.(int64)
	if lInt && rInt {
		switch op {
		case "+":
			return li + ri, nil
		case "-":
			return li - ri, nil
		case "*":
			return li * ri, nil
		case "<":
			return li < ri, nil
		case ">":
			return li > ri, nil
		case "<=":
			return li <= ri, nil
		case ">=":
			return li >= ri, nil
		}
	}
	lf, ok1 := toFloat(l)
	rf, ok2 := toFloat(r)
	if !ok1 || !ok2 {
		if ls, ok := l.(string); ok {
			if rs, ok := r.(string); ok {
				switch op {
				case "<":
					return ls < rs, nil
				case ">":
					return ls > rs, nil
				case "<=":
					return ls <= rs, nil
				case ">=":
					return ls >= rs, nil
				}
			}
		}
		return nil, fmt.Errorf("invalid operation: %s on incompatible values", op)
	}
	switch op {
	case "+":
		return lf + rf, nil
	case "-":
		return lf - rf, nil
	case "*":
		return lf * rf, nil
	case "/":
		if rf == 0 {
			return nil, fmt.Errorf("invalid operation: division by zero")
		}
		return lf / rf, nil
	case "<":
		return lf < rf, nil
	case ">":
		return lf > rf, nil
	case "<=":
		return lf <= rf, nil
	case ">=":
		return lf >= rf, nil
	}
	return nil, fmt.Errorf("invalid operation: %s is not supported", op)
}

func toFloat(v any) (float64, bool) {
	switch t := v.(type) {
	case int64:
		return float64(t), true
	case float64:
		return t, true
	case json.Number:
		f, err := t.Float64()
		return f, err == nil
	}
	return 0, false
}

func equal(a, b any) bool {
	if af, ok := toFloat(a); ok {
		if bf, ok := toFloat(b); ok {
			return af == bf
		}
	}
	return repr(a) == repr(b)
}

func within(needle, hay any) bool {
	switch h := hay.(type) {
	case string:
		n, ok := needle.(string)
		return ok && strings.Contains(h, n)
	case []any:
		for _, e := range h {
			if equal(needle, e) {
				return true
			}
		}
	case map[string]any:
		n, ok := needle.(string)
		if ok {
			_, has := h[n]
			return has
		}
	}
	return false
}

func (r *renderer) evalTest(e testExpr, sc *scope) (any, error) {
	v, err := r.eval(e.x, sc)
	if err != nil {
		return nil, err
	}
	var res bool
	switch e.name {
	case "defined":
		res = !isUndef(v)
	case "undefined":
		res = isUndef(v)
	case "none":
		res = v == nil
	case "string":
		_, res = v.(string)
	case "number":
		_, res = toFloat(v)
	case "true":
		res = v == true
	case "false":
		res = v == false
	default:
		return nil, fmt.Errorf("unknown test: %s", e.name)
	}
	return res != e.negate, nil
}

func (r *renderer) evalFilter(e filterExpr, sc *scope) (any, error) {
	v, err := r.eval(e.x, sc)
	if err != nil {
		return nil, err
	}
	args := make([]any, len(e.args))
	for i, a := range e.args {
		if args[i], err = r.eval(a, sc); err != nil {
			return nil, err
		}
	}
	if e.name == "default" || e.name == "d" {
		if isUndef(v) || (len(args) > 1 && truthy(args[1]) && !truthy(v)) {
			if len(args) > 0 {
				return args[0], nil
			}
			return "", nil
		}
		return v, nil
	}
	if isUndef(v) && r.strict {
		return nil, fmt.Errorf("undefined value")
	}
	return applyFilter(e.name, v, args)
}

func applyFilter(name string, v any, args []any) (any, error) {
	s := display(v)
	switch name {
	case "upper":
		return strings.ToUpper(s), nil
	case "lower":
		return strings.ToLower(s), nil
	case "trim":
		return strings.TrimSpace(s), nil
	case "title":
		return titleCase(s), nil
	case "capitalize":
		if s == "" {
			return s, nil
		}
		rs := []rune(strings.ToLower(s))
		rs[0] = unicode.ToUpper(rs[0])
		return string(rs), nil
	case "string":
		return s, nil
	case "length", "count":
		switch t := v.(type) {
		case []any:
			return int64(len(t)), nil
		case map[string]any:
			return int64(len(t)), nil
		}
		return int64(len([]rune(s))), nil
	case "replace":
		if len(args) < 2 {
			return nil, fmt.Errorf("replace filter needs two arguments")
		}
		return strings.ReplaceAll(s, display(args[0]), display(args[1])), nil
	case "join":
		items, _ := v.([]any)
		sep := ""
		if len(args) > 0 {
			sep = display(args[0])
		}
		parts := make([]string, len(items))
		for i, it := range items {
			parts[i] = display(it)
		}
		return strings.Join(parts, sep), nil
	case "first", "last":
		items, _ := v.([]any)
		if len(items) == 0 {
			return undefined{}, nil
		}
		if name == "first" {
			return items[0], nil
		}
		return items[len(items)-1], nil
	case "tojson":
		b, err := json.Marshal(toJSONValue(v))
		return string(b), err
	case "indent":
		width := int64(4)
		if len(args) > 0 {
			if w, ok := args[0].(int64); ok {
				width = w
			}
		}
		pad := strings.Repeat(" ", int(min(max(width, 0), 64)))
		return strings.ReplaceAll(s, "\n", "\n"+pad), nil
	}
	return nil, fmt.Errorf("unknown filter: filter %s is unknown", name)
}

// titleCase upper-cases the first letter of each word and lower-cases the
// rest, like Jinja's title filter.
func titleCase(s string) string {
	rs := []rune(s)
	start := true
	for i, r := range rs {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start {
				rs[i] = unicode.ToUpper(r)
			} else {
				rs[i] = unicode.ToLower(r)
			}
			start = false
			continue
		}
		start = true
	}
	return string(rs)
}

func toJSONValue(v any) any {
	if isUndef(v) {
		return nil
	}
	return v
}
