package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

func runRecipeCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := runRecipe(context.Background(), args, strings.NewReader(stdin), &out, &errOut, envFunc(nil))
	return code, out.String(), errOut.String()
}

func TestRecipeEncodeDecode(t *testing.T) {
	file := filepath.Join("testdata", "deeplink", "standup.yaml")
	code, link, stderr := runRecipeCLI(t, "", "encode", file)
	if code != 0 || stderr != "" {
		t.Fatalf("encode exit %d stderr %q", code, stderr)
	}
	checkGolden(t, "recipe_encode", link)

	code, decoded, stderr := runRecipeCLI(t, "", "decode", strings.TrimSpace(link))
	if code != 0 || stderr != "" {
		t.Fatalf("decode exit %d stderr %q", code, stderr)
	}
	checkGolden(t, "recipe_decode", decoded)

	// The bare config decodes the same, and the JSON encodes back to the same link.
	config := strings.TrimPrefix(strings.TrimSpace(link), "goose://recipe?config=")
	if _, again, _ := runRecipeCLI(t, "", "decode", config); again != decoded {
		t.Fatalf("config decode differs: %s", again)
	}
	if code, relink, _ := runRecipeCLI(t, decoded, "encode", "-"); code != 0 || relink != link {
		t.Fatalf("re-encode exit %d: %q vs %q", code, relink, link)
	}
}

func TestRecipeEncodeParams(t *testing.T) {
	code, link, _ := runRecipeCLI(t, "title: T\ndescription: D\nprompt: hi\n", "encode", "-p", "name=Ada Lovelace", "--param", "x=a&b", "-")
	if code != 0 || !strings.HasSuffix(link, "&name=Ada%20Lovelace&x=a%26b\n") {
		t.Fatalf("exit %d link %q", code, link)
	}
	if code, _, stderr := runRecipeCLI(t, "", "encode", "-p", "oops", "-"); code != 2 || !strings.Contains(stderr, "Invalid parameter format: 'oops'. Expected format: key=value") {
		t.Fatalf("exit %d stderr %q", code, stderr)
	}
}

func TestRecipeEncodeInvalid(t *testing.T) {
	tests := map[string]string{
		"title: T\ndescription: D\nprompt: '{{ who }}'\n":                            "Missing definitions for parameters in the recipe file: who.",
		"title: T\ndescription: D\n":                                                 "Recipe must specify at least one of `instructions` or `prompt`.",
		"description: D\nprompt: p\n":                                                "missing field `title`",
		"title: T\ndescription: D\nprompt: p\nretry: {max_retries: 0, checks: []}\n": "Invalid retry configuration: max_retries must be greater than 0",
	}
	for in, want := range tests {
		code, out, stderr := runRecipeCLI(t, in, "encode", "-")
		if code != 1 || out != "" || !strings.Contains(stderr, want) {
			t.Errorf("%q: exit %d out %q stderr %q", in, code, out, stderr)
		}
	}
	if code, _, stderr := runRecipeCLI(t, "", "encode", filepath.Join(t.TempDir(), "missing.yaml")); code != 1 || stderr == "" {
		t.Errorf("missing file: exit %d stderr %q", code, stderr)
	}
}

func TestRecipeDecodeFailures(t *testing.T) {
	for _, in := range []string{"!!!", "goose://recipe?name=x", "goose://sessions/abc", "goose://recipe?config=%zz", ""} {
		code, out, stderr := runRecipeCLI(t, "", "decode", in)
		if code != 1 || out != "" || stderr != "Failed to decode recipe deeplink\n" {
			t.Errorf("%q: exit %d out %q stderr %q", in, code, out, stderr)
		}
	}
	for _, args := range [][]string{nil, {"frob"}, {"decode"}, {"encode"}, {"decode", "a", "b"}} {
		if code, _, _ := runRecipeCLI(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

func TestRecipeExamplesEncode(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "core", "recipe", "testdata", "recipes", "*.yaml"))
	if len(files) == 0 {
		t.Fatal("no example recipes in core/recipe/testdata/recipes")
	}
	for _, f := range files {
		code, link, stderr := runRecipeCLI(t, "", "encode", f)
		if code != 0 {
			t.Errorf("%s: exit %d %s", f, code, stderr)
			continue
		}
		if code, _, _ := runRecipeCLI(t, "", "decode", strings.TrimSpace(link)); code != 0 {
			t.Errorf("%s: decode exit %d", f, code)
		}
	}
}
