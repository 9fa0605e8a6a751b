package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/deeplink"
)

const recipeUsage = `Usage:
  goose-acp recipe encode [-p key=value ...] FILE|-   validate a recipe and print its goose://recipe link
  goose-acp recipe decode LINK|CONFIG                 print the recipe JSON of a recipe link or config
`

// maxRecipeBytes caps recipe input read from a file or stdin.
const maxRecipeBytes = 8 << 20

// runRecipe implements `goose-acp recipe …`; args follow "recipe".
func runRecipe(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, recipeUsage)
		return 2
	}
	switch args[0] {
	case "encode":
		return recipeEncode(args[1:], stdin, stdout, stderr)
	case "decode":
		return recipeDecode(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "goose-acp recipe: unknown subcommand %q\n%s", args[0], recipeUsage)
	return 2
}

type paramFlags []string

func (p *paramFlags) String() string     { return strings.Join(*p, ",") }
func (p *paramFlags) Set(v string) error { *p = append(*p, v); return nil }

func recipeEncode(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("recipe encode", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var params paramFlags
	fs.Var(&params, "p", "parameter key=value (repeatable)")
	fs.Var(&params, "param", "parameter key=value (repeatable)")
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 {
		fmt.Fprint(stderr, recipeUsage)
		return 2
	}
	kvs, err := recipe.ParseParams(params)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	content, dir, err := readRecipeInput(fs.Arg(0), stdin)
	if err != nil {
		fmt.Fprintf(stderr, "goose-acp recipe encode: %v\n", err)
		return 1
	}
	r, err := recipe.ValidateTemplate(content, dir)
	if err != nil {
		fmt.Fprintf(stderr, "goose-acp recipe encode: %v\n", err)
		return 1
	}
	link, err := recipe.DeeplinkURL(r)
	if err != nil {
		fmt.Fprintf(stderr, "goose-acp recipe encode: %v\n", err)
		return 1
	}
	for _, kv := range kvs {
		link += "&" + urlencode(kv.Key) + "=" + urlencode(kv.Value)
	}
	fmt.Fprintln(stdout, link)
	return 0
}

// urlencode escapes everything except A-Za-z0-9-_.~ (the urlencoding crate).
func urlencode(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "+", "%20")
}

func readRecipeInput(name string, stdin io.Reader) (content, dir string, err error) {
	var b []byte
	if name == "-" {
		b, err = io.ReadAll(io.LimitReader(stdin, maxRecipeBytes+1))
		if err == nil {
			dir, err = os.Getwd()
		}
	} else {
		var f *os.File
		if f, err = os.Open(name); err == nil {
			defer f.Close()
			b, err = io.ReadAll(io.LimitReader(f, maxRecipeBytes+1))
		}
		if err == nil {
			dir, err = filepath.Abs(filepath.Dir(name))
		}
	}
	if err != nil {
		return "", "", err
	}
	if len(b) > maxRecipeBytes {
		return "", "", errors.New("recipe is larger than 8 MiB")
	}
	return string(b), dir, nil
}

func recipeDecode(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprint(stderr, recipeUsage)
		return 2
	}
	config := strings.TrimSpace(args[0])
	if strings.Contains(config, "://") {
		res := deeplink.Parse(config, deeplink.Policy{})
		if res.Route != deeplink.RouteRecipe && res.Route != deeplink.RouteBot {
			config = ""
		} else {
			config = res.Config
		}
	}
	r, err := recipe.Decode(config)
	if err != nil {
		fmt.Fprintln(stderr, recipe.ErrDecode.Error())
		return 1
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		fmt.Fprintf(stderr, "goose-acp recipe decode: %v\n", err)
		return 1
	}
	return 0
}
