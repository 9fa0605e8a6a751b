// Package analyze is goose's `analyze` developer tool: a tree-sitter based
// code overview in three modes — a directory overview (file tree with line,
// function and class counts), file details (functions, classes, imports) and
// a symbol call graph across a directory (focus). Output formats, defaults
// and the large-output guard follow goose's developer extension.
//
// Parsing uses github.com/odvcencio/gotreesitter (pure Go, embedded
// grammars) for Go, Python, JavaScript, TypeScript, Rust, Java and Ruby.
// Other files that goose recognises by extension are counted by lines only.
package analyze
