// Package engine is analyze's engine: the tree-sitter based code overview
// goose's `analyze` developer tool answers — a directory overview (file
// tree with line, function and class counts), file details (functions,
// classes, imports) and a symbol call graph across a directory (focus).
// Output formats, defaults and the large-output guard follow goose's
// developer extension.
//
// Parsing uses the official tree-sitter Go bindings
// (github.com/tree-sitter/go-tree-sitter) and the grammars' own Go modules
// for Go, Python, Rust, JavaScript, TypeScript, TSX, Java, Kotlin, Ruby, C
// and C++. Other files that goose recognises by extension (Swift among
// them: no Swift grammar module for these bindings is available) are
// counted by lines only.
//
// The bindings and grammars are C, so parsing needs cgo (treesitter.go,
// grammars.go). Only the helper executable cmd/goose-acp-analyze links
// this package (Serve is its whole work); the agent stays cgo-free and
// reaches it through developer/analyze's client. Built with
// CGO_ENABLED=0 this package still compiles, and Analyze then answers
// analyze.ErrNoCgo (nocgo.go).
package engine
