package engine

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"
)

// symbol is a named definition and its 1-based line.
type symbol struct {
	Name string
	Line int
}

// call is one call site. Caller is "" for module-level code.
type call struct {
	Caller string
	Callee string
	Line   int
}

// fileResult is what one file contributes to an analysis.
type fileResult struct {
	Lines     int
	Functions []symbol // functions, methods and (Go) constants
	Classes   []symbol // classes, structs, types, modules, impls
	Imports   []string
	Calls     []call // only filled when calls were asked for
	MainLine  int    // line of the first function named main, 0 if none
}

// shown reports whether goose lists the file in a directory overview.
func (r *fileResult) shown() bool {
	return r.Lines > 0 || len(r.Functions) > 0 || len(r.Classes) > 0
}

// addElement records one element capture of a language's element query.
func (r *fileResult) addElement(capture, text string, line int) {
	switch capture {
	case "func", "const", "func.decl":
		r.Functions = append(r.Functions, symbol{text, line})
		if text == "main" && r.MainLine == 0 {
			r.MainLine = line
		}
	case "class", "struct":
		r.Classes = append(r.Classes, symbol{text, line})
	case "import":
		// C's #include node ends with its newline; no other grammar's
		// import text ends in white space.
		r.Imports = append(r.Imports, strings.TrimRight(text, " \t\r\n"))
	}
}

// analyzeFile reads and parses one file. Files that are not UTF-8 count as
// empty, as goose skips what read_to_string rejects.
func analyzeFile(path string, withCalls bool) (*fileResult, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("Failed to read file '%s': %w", path, err)
	}
	if !utf8.Valid(src) {
		return &fileResult{}, nil
	}
	res := &fileResult{Lines: countLines(src)}
	language := languageOf(path)
	if specs[language] == nil {
		return res, nil
	}
	if err := parseInto(res, language, src, withCalls); err != nil {
		return nil, err
	}
	return res, nil
}

// countLines counts lines the way Rust's str::lines does: a final newline
// does not start another line.
func countLines(b []byte) int {
	n := bytes.Count(b, []byte{'\n'})
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}
