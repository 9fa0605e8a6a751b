package engine

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// formatSemantic renders file details (goose format_semantic_result).
func formatSemantic(path string, r *fileResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "FILE: %s [%dL, %dF, %dC]\n\n", path, r.Lines, len(r.Functions), len(r.Classes))
	if len(r.Classes) > 0 {
		parts := make([]string, len(r.Classes))
		for i, c := range r.Classes {
			parts[i] = fmt.Sprintf("%s:%d", c.Name, c.Line)
		}
		b.WriteString("C: " + strings.Join(parts, " ") + "\n\n")
	}
	if len(r.Functions) > 0 {
		b.WriteString("F: " + wrapFunctions(r) + "\n\n")
	}
	if len(r.Imports) > 0 {
		b.WriteString("I: " + strings.Join(importSummary(r.Imports), "; ") + "\n")
	}
	return b.String()
}

// wrapFunctions lists functions as name:line, with •N for names called more
// than three times in the file, wrapping before 100 bytes onto lines that
// start with goose's 3-space indent plus the separating space.
func wrapFunctions(r *fileResult) string {
	calls := map[string]int{}
	for _, c := range r.Calls {
		calls[c.Callee]++
	}
	var b strings.Builder
	lineLen := 3 // "F: "
	for i, f := range r.Functions {
		s := fmt.Sprintf("%s:%d", f.Name, f.Line)
		if n := calls[f.Name]; n > 3 {
			s += fmt.Sprintf("•%d", n)
		}
		if i > 0 && lineLen+len(s)+1 > 100 {
			b.WriteString("\n   ")
			lineLen = 3
		}
		if i > 0 {
			b.WriteByte(' ')
			lineLen++
		}
		b.WriteString(s)
		lineLen += len(s)
	}
	return b.String()
}

// importSummary groups imports by goose's first-word heuristic: groups of
// several show "group(count)", single imports their text cut to 40 bytes.
// Groups keep the order they first appear in (goose uses hash order).
func importSummary(imports []string) []string {
	var order []string
	groups := map[string][]string{}
	for _, imp := range imports {
		g := importGroup(imp)
		if _, seen := groups[g]; !seen {
			order = append(order, g)
		}
		groups[g] = append(groups[g], imp)
	}
	out := make([]string, len(order))
	for i, g := range order {
		switch imps := groups[g]; {
		case len(imps) > 1:
			out[i] = fmt.Sprintf("%s(%d)", g, len(imps))
		case len(imps[0]) > 40:
			out[i] = truncateBytes(imps[0], 37) + "..."
		default:
			out[i] = imps[0]
		}
	}
	return out
}

func importGroup(imp string) string {
	word := func(fallback string, n int) string {
		if f := strings.Fields(imp); len(f) > n {
			return f[n]
		}
		return fallback
	}
	switch {
	case strings.HasPrefix(imp, "use "):
		g, _, _ := strings.Cut(imp, "::")
		return g
	case strings.HasPrefix(imp, "import "):
		return word("import", 1)
	case strings.HasPrefix(imp, "from "):
		return word("from", 1)
	default:
		return word("", 0)
	}
}

// truncateBytes cuts s to at most n bytes without splitting a rune.
func truncateBytes(s string, n int) string {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// formatDirectory renders a directory overview (goose
// format_directory_structure).
func formatDirectory(root string, entries []entry, maxDepth int) string {
	var b strings.Builder
	files, lines, funcs, classes := 0, 0, 0, 0
	langLines := map[string]int{}
	for _, e := range entries {
		if e.kind != entryFile {
			continue
		}
		files++
		lines += e.result.Lines
		funcs += len(e.result.Functions)
		classes += len(e.result.Classes)
		if l := languageOf(e.path); l != "" && e.result.Lines > 0 {
			langLines[l] += e.result.Lines
		}
	}
	b.WriteString("SUMMARY:\n")
	depth := fmt.Sprintf("max_depth=%d", maxDepth)
	if maxDepth == 0 {
		depth = "unlimited depth"
	}
	fmt.Fprintf(&b, "Shown: %d files, %dL, %dF, %dC (%s)\n", files, lines, funcs, classes, depth)
	if len(langLines) > 0 && lines > 0 {
		b.WriteString("Languages: " + languageShares(langLines, lines) + "\n")
	}
	b.WriteString("\nPATH [LOC, FUNCTIONS, CLASSES] <FLAGS>\n")
	writeTree(&b, root, entries)
	return b.String()
}

// languageShares is "go (60%), python (40%)", by lines descending, with
// percentages truncated as goose does.
func languageShares(langLines map[string]int, total int) string {
	names := make([]string, 0, len(langLines))
	for l := range langLines {
		names = append(names, l)
	}
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(langLines[b], langLines[a]), cmp.Compare(a, b))
	})
	parts := make([]string, len(names))
	for i, l := range names {
		parts[i] = fmt.Sprintf("%s (%d%%)", l, int(float64(langLines[l])/float64(total)*100))
	}
	return strings.Join(parts, ", ")
}

// writeTree prints entries in path order, printing each parent directory
// once, two spaces of indent per level.
func writeTree(b *strings.Builder, root string, entries []entry) {
	sorted := slices.Clone(entries)
	slices.SortStableFunc(sorted, func(x, y entry) int { return slices.Compare(x.rel, y.rel) })
	printed := map[string]bool{}
	for _, e := range sorted {
		for i := range len(e.rel) - 1 {
			key := strings.Join(e.rel[:i+1], "/")
			if !printed[key] {
				fmt.Fprintf(b, "%s%s/\n", strings.Repeat("  ", i), e.rel[i])
				printed[key] = true
			}
		}
		indent := strings.Repeat("  ", len(e.rel)-1)
		name := e.rel[len(e.rel)-1]
		switch e.kind {
		case entryFile:
			b.WriteString(indent + name + fileCounts(e.result) + "\n")
		case entryDir:
			if key := strings.Join(e.rel, "/"); !printed[key] {
				fmt.Fprintf(b, "%s%s/\n", indent, name)
				printed[key] = true
			}
		case entrySymlinkDir:
			fmt.Fprintf(b, "%s%s/ -> %s\n", indent, name, linkTarget(root, e.target))
		case entrySymlinkFile:
			fmt.Fprintf(b, "%s%s -> %s\n", indent, name, linkTarget(root, e.target))
		}
	}
}

// fileCounts is " [NL, NF, NC] main:N" with zero F/C counts left out.
func fileCounts(r *fileResult) string {
	s := fmt.Sprintf(" [%dL", r.Lines)
	if n := len(r.Functions); n > 0 {
		s += fmt.Sprintf(", %dF", n)
	}
	if n := len(r.Classes); n > 0 {
		s += fmt.Sprintf(", %dC", n)
	}
	s += "]"
	if r.MainLine > 0 {
		s += fmt.Sprintf(" main:%d", r.MainLine)
	}
	return s
}

// linkTarget shows a relative target as stored and an absolute one relative
// to the analysed root when it lies inside it.
func linkTarget(root, target string) string {
	if !filepath.IsAbs(target) {
		return target
	}
	if rel, err := filepath.Rel(root, target); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return rel
	}
	return target
}
