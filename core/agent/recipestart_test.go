package agent

import (
	"errors"
	"reflect"
	"testing"

	"github.com/goose-acp/goose-acp/core/recipe"
)

func TestRecipeParamsToAsk(t *testing.T) {
	def := "x"
	tmpl := &recipe.Recipe{Title: "t", Description: "d", Instructions: askText("{{ a }} {{ b }} {{ c }} {{ d }}"), Parameters: []recipe.Parameter{
		{Key: "a", InputType: recipe.InputType("string"), Requirement: recipe.Required, Description: "a"},
		{Key: "b", InputType: recipe.InputType("string"), Requirement: recipe.UserPrompt, Description: "b"},
		{Key: "c", InputType: recipe.InputType("string"), Requirement: recipe.Required, Description: "c", Default: &def},
		{Key: "d", InputType: recipe.InputType("string"), Requirement: recipe.Optional, Description: "d", Default: &def},
	}}
	var keys []string
	for _, p := range RecipeParamsToAsk(tmpl, map[string]string{"b": "given"}) {
		keys = append(keys, p.Key)
	}
	if !reflect.DeepEqual(keys, []string{"a"}) {
		t.Fatalf("asked %v, want [a] (b has a value, c and d defaults)", keys)
	}
	if _, err := RenderRecipe(tmpl, t.TempDir(), map[string]string{"b": "B"}); !errors.As(err, new(*recipe.MissingParamsError)) {
		t.Fatalf("render without a: %v, want MissingParamsError", err)
	}
	r, err := RenderRecipe(tmpl, t.TempDir(), map[string]string{"a": "A", "b": "B"})
	if err != nil || *r.Instructions != "A B x x" {
		t.Fatalf("rendered %v, %v", r, err)
	}
}

func askText(s string) *string { return &s }
