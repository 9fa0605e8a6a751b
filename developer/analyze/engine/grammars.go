//go:build cgo

package engine

import (
	"unsafe"

	tskotlin "github.com/tree-sitter-grammars/tree-sitter-kotlin/bindings/go"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// grammars are the official grammars' Go bindings: each returns its
// TSLanguage, static C data linked into the binary, which costs nothing
// until a file of that language is parsed.
var grammars = map[string]func() unsafe.Pointer{
	"c":          tsc.Language,
	"cpp":        tscpp.Language,
	"go":         tsgo.Language,
	"java":       tsjava.Language,
	"javascript": tsjs.Language,
	"kotlin":     tskotlin.Language,
	"python":     tspython.Language,
	"ruby":       tsruby.Language,
	"rust":       tsrust.Language,
	"tsx":        tsts.LanguageTSX,
	"typescript": tsts.LanguageTypescript,
}
