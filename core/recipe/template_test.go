package recipe

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "base.txt"), []byte("[{% block body %}base{% endblock %}]"), 0o644)
	os.WriteFile(filepath.Join(dir, "part.txt"), []byte("part {{ name }}"), 0o644)
	tests := []struct {
		name, in string
		params   map[string]string
		want     string
	}{
		{"substitution", "Hello {{ name }}!", map[string]string{"name": "World"}, "Hello World!"},
		{"empty value", "Hello {{ empty }}!", map[string]string{"empty": ""}, "Hello !"},
		{"two params", "{{ greeting }} {{ name }}!", map[string]string{"greeting": "Hi", "name": "Alice"}, "Hi Alice!"},
		{"spaced names stay verbatim", "Hello {{hf model org}}_{{hf model name}}!", nil, "Hello {{hf model org}}_{{hf model name}}!"},
		{"broken braces stay verbatim", "Hello {{hf model org}_{hf model name}}!", nil, "Hello {{hf model org}_{hf model name}}!"},
		{"valid and invalid mixed", "{{valid_var}} and {{invalid var}}", map[string]string{"valid_var": "Hello"}, "Hello and {{invalid var}}"},
		{"escape syntax", `{{'{{param_key}}'}}`, nil, "{{param_key}}"},
		{"empty quotes", "prompt: \"\"\nname: \"Simple Recipe\"", nil, "prompt: ''\nname: \"Simple Recipe\""},
		{"if else", `{% if role == "admin" %}A{% elif role == "dev" %}D{% else %}U{% endif %}`, map[string]string{"role": "dev"}, "D"},
		{"in list", `{% if r in ["x", "y"] %}yes{% endif %}`, map[string]string{"r": "y"}, "yes"},
		{"not in", `{% if r not in ["x"] %}no{% endif %}`, map[string]string{"r": "y"}, "no"},
		{"filters", "{{ name | upper }} {{ name|lower|trim }} {{ missing | default('d') }}", map[string]string{"name": " Ab "}, " AB  ab d"},
		{"title and capitalize", "{{ 'hELLO wORLD' | title }}/{{ 'hELLO' | capitalize }}", nil, "Hello World/Hello"},
		{"whitespace control", "a  {%- if true -%}  b  {%- endif -%}  c", nil, "abc"},
		{"comment", "a{# hidden #}b", nil, "ab"},
		{"raw", "{% raw %}{{ x }}{% endraw %}", nil, "{{ x }}"},
		{"set and for", "{% set xs = ['a','b'] %}{% for x in xs %}{{ loop.index }}{{ x }}{% endfor %}", nil, "1a2b"},
		{"trailing newline dropped", "x\n", nil, "x"},
		{"extends", `{% extends "base.txt" %}{% block body %}child {{ name }}{% endblock %}`, map[string]string{"name": "n", "recipe_dir": dir}, "[child n]"},
		{"include", `<{% include "part.txt" %}>`, map[string]string{"name": "n", "recipe_dir": dir}, "<part n>"},
		{"recipe_dir", "{{ recipe_dir }}", map[string]string{"recipe_dir": "/r"}, "/r"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Render(tc.in, tc.params)
			if err != nil {
				t.Fatalf("Render: %v", err)
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestRenderValues(t *testing.T) {
	params := map[string]any{
		"signal":   map[string]any{"name": "OOMKilled", "severity": "critical"},
		"findings": []any{map[string]any{"name": "c1", "output": "passed"}, map[string]any{"name": "c2", "output": "failed"}},
	}
	got, err := RenderValues(`{{ signal.name }}:{% if signal.severity == "critical" %}CRIT{% endif %}
{% for item in findings %}{{ item.name }}={{ item.output }};{% endfor %}`, params)
	if err != nil || got != "OOMKilled:CRIT\nc1=passed;c2=failed;" {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestRenderErrors(t *testing.T) {
	for name, in := range map[string]string{
		"missing variable": "Hello {{ missing }}!",
		"unclosed":         "Hello {{ unclosed",
		"unclosed if":      "{% if x %}",
		"unknown tag":      "{% frobnicate %}",
		"unknown filter":   "{{ 'a' | nope }}",
		"extends no dir":   `{% extends "x.txt" %}`,
		"self include":     `{% include "self.txt" %}`,
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "self.txt"), []byte(`{% include "self.txt" %}`), 0o644)
			params := map[string]string{"x": "1"}
			if name == "self include" {
				params["recipe_dir"] = dir
			}
			_, err := Render(in, params)
			if err == nil || !strings.HasPrefix(err.Error(), "Failed to render the recipe") {
				t.Fatalf("err = %v", err)
			}
		})
	}
	if _, err := Render("Hello {{ unclosed", nil); !strings.Contains(err.Error(), "unexpected end of input") {
		t.Errorf("unclosed: %v", err)
	}
}

func TestTemplateVariables(t *testing.T) {
	got, err := templateVariables(`{{ a }} {{ b.c.d }} {% for x in items %}{{ x.y }}{{ loop.index }}{% endfor %}{% set s = 1 %}{{ s }}{% if z is defined %}{% endif %}{{ recipe_dir }}`, "")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "a,b.c.d,items,recipe_dir,z" {
		t.Fatalf("got %v", got)
	}
}

func FuzzRender(f *testing.F) {
	for _, s := range []string{
		"Hello {{ name }}!", "{% if a == 'x' %}1{% elif b %}2{% else %}3{% endif %}", "{% for x in xs %}{{ loop.index }}{{ x | upper }}{% endfor %}",
		"{{hf model org}}", "{% raw %}{{ x }}{% endraw %}", "{{- name -}}", "{# c #}", `{{ "a" ~ 1 + 2 * 3 }}`, "{% set y = [1, 2] %}{{ y | join(',') }}",
		"{{ a.b[0] }}", "{% extends 'x' %}", "{{ ", "{% if %}", "{{ (1 if a else 2) }}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		params := map[string]any{"name": "n", "a": "x", "b": true, "xs": []any{"p", "q"}}
		RenderValues(s, params)
		renderString(s, params, "", false)
		templateVariables(s, "")
	})
}
