package openapischema

// Nullable rewrites OpenAPI 3.0's "nullable": {"type":T,"nullable":true}
// becomes {"type":[T,"null"]} (an enum also admits null), a nullable
// schema that only annotates stays as it is (it admits anything), and any
// other nullable schema becomes anyOf[schema, null]. It works in place,
// recursively, and returns the rewritten value.
func Nullable(v any) any {
	switch x := v.(type) {
	case []any:
		for i := range x {
			x[i] = Nullable(x[i])
		}
		return x
	case map[string]any:
		for k := range x {
			x[k] = Nullable(x[k])
		}
		if x["nullable"] != true {
			return x
		}
		delete(x, "nullable")
		if t, ok := x["type"].(string); ok {
			x["type"] = []any{t, "null"}
			if e, ok := x["enum"].([]any); ok {
				x["enum"] = append(e, nil)
			}
			return x
		}
		if len(x) == 0 || onlyAnnotations(x) {
			return x
		}
		return map[string]any{"anyOf": []any{x, map[string]any{"type": "null"}}}
	}
	return v
}

func onlyAnnotations(m map[string]any) bool {
	for k := range m {
		switch k {
		case "description", "title", "example", "default":
		default:
			return false
		}
	}
	return true
}
