// Package analyze is goose's `analyze` developer tool: a tree-sitter based
// code overview in three modes — a directory overview (file tree with line,
// function and class counts), file details (functions, classes, imports) and
// a symbol call graph across a directory (focus). Output formats, defaults
// and the large-output guard follow goose's developer extension.
//
// Parsing uses the official tree-sitter Go bindings
// (github.com/tree-sitter/go-tree-sitter) and the grammars' own Go modules
// for Go, Python, Rust, JavaScript, TypeScript, TSX, Java, Kotlin, Ruby, C
// and C++. Other files that goose recognises by extension (Swift among
// them: no Swift grammar module for these bindings is available) are
// counted by lines only.
//
// The bindings and grammars are C, so parsing needs cgo (treesitter.go,
// grammars.go). A binary built with CGO_ENABLED=0 still compiles this
// package, and Analyze then answers ErrNoCgo (nocgo.go).
package analyze
