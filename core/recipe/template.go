package recipe

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
)

var (
	emptyQuotesRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`:\s*""`) })
	inheritanceRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{%-?\s*(extends|include)`) })
	errTemplateLoad = errors.New("template not found")
)

// Render renders recipe text with string parameters, as goose's
// render_recipe_content_with_params: undefined variables are errors, and
// the "recipe_dir" parameter, when present, is where {% extends %} and
// {% include %} load templates from.
func Render(content string, params map[string]string) (string, error) {
	values := make(map[string]any, len(params))
	for k, v := range params {
		values[k] = v
	}
	return RenderValues(content, values)
}

// RenderValues is Render with structured values (objects and arrays decoded
// from JSON allow dot access and loops).
func RenderValues(content string, params map[string]any) (string, error) {
	content = emptyQuotesRe().ReplaceAllString(content, ": ''")
	dir, _ := params[RecipeDirParam].(string)
	out, err := renderString(content, params, dir, true)
	if err != nil {
		return "", fmt.Errorf("Failed to render the recipe %w", err)
	}
	return out, nil
}

func renderString(content string, params map[string]any, dir string, strict bool) (string, error) {
	t, err := parseTemplate(trimTrailingNewline(content))
	if err != nil {
		return "", err
	}
	r := &renderer{load: dirLoader(dir), strict: strict}
	vars := make(map[string]any, len(params))
	for k, v := range params {
		vars[k] = v
	}
	if err := r.renderTemplate(t, &scope{vars: vars}, nil); err != nil {
		return "", err
	}
	return r.out.String(), nil
}

// trimTrailingNewline mirrors minijinja's default keep_trailing_newline=false.
func trimTrailingNewline(s string) string {
	if strings.HasSuffix(s, "\r\n") {
		return s[:len(s)-2]
	}
	return strings.TrimSuffix(s, "\n")
}

// dirLoader loads templates relative to dir; no dir means no loader.
func dirLoader(dir string) func(string) (string, error) {
	if dir == "" {
		return nil
	}
	return func(name string) (string, error) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("%w: template %q does not exist", errTemplateLoad, name)
		}
		if err != nil {
			return "", fmt.Errorf("could not read template: %w", err)
		}
		return string(b), nil
	}
}

// parseRecipeTemplate is goose's parse_recipe_content: the recipe before
// parameters are applied (inheritance resolved, other tags kept) and the
// template variables it uses.
func parseRecipeTemplate(content, dir string) (*Recipe, []string, error) {
	vars, err := templateVariables(content, dir)
	if err != nil {
		return nil, nil, err
	}
	text := content
	if inheritanceRe().MatchString(content) {
		if text, err = renderString(content, nil, dir, false); err != nil {
			return nil, nil, fmt.Errorf("Failed to parse the recipe %w", err)
		}
	}
	r, err := FromContent(text)
	if err != nil {
		return nil, nil, err
	}
	return r, vars, nil
}

// templateVariables lists the variables a template (and the templates it
// extends or includes by literal name) reads without defining them; an
// attribute chain is reported dotted ("signal.name"), as minijinja's
// undeclared_variables(nested=true) does.
func templateVariables(content, dir string) ([]string, error) {
	found := map[string]bool{}
	if err := collectTemplateVars(content, dirLoader(dir), found, 0); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(found))
	for k := range found {
		out = append(out, k)
	}
	sort.Strings(out)
	return out, nil
}

func collectTemplateVars(content string, load func(string) (string, error), found map[string]bool, depth int) error {
	if depth > maxTemplateDepth {
		return fmt.Errorf("template error: too many nested templates")
	}
	t, err := parseTemplate(trimTrailingNewline(content))
	if err != nil {
		return err
	}
	c := &varCollector{found: found, bound: map[string]int{}}
	c.nodes(t.nodes)
	for _, name := range c.templates {
		if load == nil {
			return fmt.Errorf("%w: template %q does not exist", errTemplateLoad, name)
		}
		src, err := load(name)
		if err != nil {
			return err
		}
		if err := collectTemplateVars(src, load, found, depth+1); err != nil {
			return err
		}
	}
	return nil
}

type varCollector struct {
	found     map[string]bool
	bound     map[string]int
	templates []string
}

func (c *varCollector) nodes(ns []node) {
	for _, n := range ns {
		c.node(n)
	}
}

func (c *varCollector) node(n node) {
	switch n := n.(type) {
	case outNode:
		c.expr(n.e)
	case ifNode:
		for i, cond := range n.conds {
			c.expr(cond)
			c.nodes(n.bodies[i])
		}
		c.nodes(n.els)
	case forNode:
		c.expr(n.iter)
		names := append([]string{"loop"}, n.vars...)
		for _, v := range names {
			c.bound[v]++
		}
		c.nodes(n.body)
		for _, v := range names {
			c.bound[v]--
		}
		c.nodes(n.els)
	case setNode:
		c.expr(n.e)
		c.bound[n.name]++
	case blockNode:
		c.nodes(n.body)
	case extendsNode:
		c.templateName(n.e)
	case includeNode:
		c.templateName(n.e)
	}
}

func (c *varCollector) templateName(e expr) {
	if l, ok := e.(litExpr); ok {
		if s, ok := l.v.(string); ok {
			c.templates = append(c.templates, s)
			return
		}
	}
	c.expr(e)
}

func (c *varCollector) expr(e expr) {
	switch e := e.(type) {
	case nameExpr:
		if c.bound[e.name] == 0 {
			c.found[e.name] = true
		}
	case attrExpr:
		if path, root, ok := dottedPath(e); ok {
			if c.bound[root] == 0 {
				c.found[path] = true
			}
			return
		}
		c.expr(e.obj)
	case indexExpr:
		c.expr(e.obj)
		c.expr(e.index)
	case listExpr:
		for _, it := range e.items {
			c.expr(it)
		}
	case unaryExpr:
		c.expr(e.x)
	case binExpr:
		c.expr(e.l)
		c.expr(e.r)
	case testExpr:
		c.expr(e.x)
	case filterExpr:
		c.expr(e.x)
		for _, a := range e.args {
			c.expr(a)
		}
	case condExpr:
		c.expr(e.then)
		c.expr(e.cond)
		c.expr(e.els)
	}
}

func dottedPath(e expr) (path, root string, ok bool) {
	switch e := e.(type) {
	case nameExpr:
		return e.name, e.name, true
	case attrExpr:
		p, r, ok := dottedPath(e.obj)
		if !ok {
			return "", "", false
		}
		return p + "." + e.attr, r, true
	}
	return "", "", false
}
