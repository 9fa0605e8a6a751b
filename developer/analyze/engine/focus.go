package engine

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// site is one edge end in the call graph: where the call is and the other
// function's name.
type site struct {
	file string
	line int
	name string
}

// hop is one call in a chain: file:line (from -> to).
type hop struct {
	file     string
	line     int
	from, to string
}

// callGraph is goose's minimal graph for focus mode.
type callGraph struct {
	callers     map[string][]site // callee -> who calls it
	callees     map[string][]site // caller -> what it calls
	definitions map[string][]site // symbol -> where defined (name unused)
}

const moduleCaller = "<module>"

func buildGraph(files []string, results []*fileResult) *callGraph {
	g := &callGraph{callers: map[string][]site{}, callees: map[string][]site{}, definitions: map[string][]site{}}
	for i, r := range results {
		if r == nil {
			continue
		}
		f := files[i]
		for _, d := range slices.Concat(r.Functions, r.Classes) {
			g.definitions[d.Name] = append(g.definitions[d.Name], site{file: f, line: d.Line})
		}
		for _, c := range r.Calls {
			caller := cmpOr(c.Caller, moduleCaller)
			g.callers[c.Callee] = append(g.callers[c.Callee], site{f, c.Line, caller})
			if caller != moduleCaller {
				g.callees[caller] = append(g.callees[caller], site{f, c.Line, c.Callee})
			}
		}
	}
	return g
}

func cmpOr(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

type pending struct {
	symbol string
	path   []hop
	depth  int
}

// chains walks breadth-first from symbol up to maxDepth calls, in the
// callers direction (incoming) or the callees direction (outgoing). A
// symbol seen before ends its chain, so cycles terminate.
func (g *callGraph) chains(symbol string, maxDepth int, incoming bool) [][]hop {
	if maxDepth <= 0 {
		return nil
	}
	edges := g.callees
	if incoming {
		edges = g.callers
	}
	extend := func(path []hop, from string, s site) []hop {
		if incoming {
			return append([]hop{{s.file, s.line, s.name, from}}, path...)
		}
		return append(slices.Clone(path), hop{s.file, s.line, from, s.name})
	}
	var out [][]hop
	var queue []pending
	for _, s := range edges[symbol] {
		p := extend(nil, symbol, s)
		if maxDepth == 1 {
			out = append(out, p)
		} else {
			queue = append(queue, pending{s.name, p, 1})
		}
	}
	visited := map[string]bool{}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if cur.depth >= maxDepth || visited[cur.symbol] {
			out = append(out, cur.path)
			continue
		}
		visited[cur.symbol] = true
		next := edges[cur.symbol]
		if len(next) == 0 {
			out = append(out, cur.path)
		}
		for _, s := range next {
			p := extend(cur.path, cur.symbol, s)
			if cur.depth+1 >= maxDepth {
				out = append(out, p)
			} else {
				queue = append(queue, pending{s.name, p, cur.depth + 1})
			}
		}
	}
	return out
}

// formatFocused renders goose's FOCUSED ANALYSIS report.
func formatFocused(symbol string, followDepth int, filesAnalyzed int, defs []site, in, out [][]hop) string {
	if len(defs) == 0 && len(in) == 0 && len(out) == 0 {
		return fmt.Sprintf("Symbol '%s' not found in any analyzed files.\n", symbol)
	}
	aliases, files := fileAliases(defs, in, out)
	var b strings.Builder
	fmt.Fprintf(&b, "FOCUSED ANALYSIS: %s\n\n", symbol)
	if len(defs) > 0 {
		b.WriteString("DEFINITIONS:\n")
		for _, d := range defs {
			fmt.Fprintf(&b, "%s:%d - %s\n", aliases[d.file], d.line, symbol)
		}
		b.WriteString("\n")
	}
	writeChains(&b, "INCOMING", in, aliases, followDepth)
	writeChains(&b, "OUTGOING", out, aliases, followDepth)
	fmt.Fprintf(&b, "STATISTICS:\n  Files analyzed: %d\n  Definitions found: %d\n  Incoming chains: %d\n  Outgoing chains: %d\n  Follow depth: %d\n",
		filesAnalyzed, len(defs), len(in), len(out), followDepth)
	writeLegend(&b, aliases, files)
	return b.String()
}

// fileAliases names each involved file: its base name when there is only
// one, else F1, F2, … in path order.
func fileAliases(defs []site, in, out [][]hop) (map[string]string, []string) {
	set := map[string]bool{}
	for _, d := range defs {
		set[d.file] = true
	}
	for _, c := range slices.Concat(in, out) {
		for _, h := range c {
			set[h.file] = true
		}
	}
	files := make([]string, 0, len(set))
	for f := range set {
		files = append(files, f)
	}
	slices.SortFunc(files, func(a, b string) int {
		return slices.Compare(strings.Split(filepath.ToSlash(a), "/"), strings.Split(filepath.ToSlash(b), "/"))
	})
	aliases := make(map[string]string, len(files))
	for i, f := range files {
		if len(files) == 1 {
			aliases[f] = filepath.Base(f)
		} else {
			aliases[f] = fmt.Sprintf("F%d", i+1)
		}
	}
	return aliases, files
}

func writeChains(b *strings.Builder, kind string, chains [][]hop, aliases map[string]string, depth int) {
	if len(chains) == 0 {
		return
	}
	fmt.Fprintf(b, "%s CALL CHAINS (depth=%d):\n", kind, depth)
	unique := map[string]bool{}
	for _, c := range chains {
		parts := make([]string, len(c))
		for i, h := range c {
			parts[i] = fmt.Sprintf("%s:%d (%s -> %s)", aliases[h.file], h.line, h.from, h.to)
		}
		unique[strings.Join(parts, " -> ")] = true
	}
	lines := make([]string, 0, len(unique))
	for l := range unique {
		lines = append(lines, l)
	}
	slices.Sort(lines)
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	b.WriteString("\n")
}

// writeLegend maps aliases to paths, sorted by alias text (F1, F10, F2, …)
// as goose does. With a single file the header stays but its own line is
// omitted, since its alias already is its name.
func writeLegend(b *strings.Builder, aliases map[string]string, files []string) {
	if len(aliases) == 0 {
		return
	}
	b.WriteString("\nFILES:\n")
	byAlias := slices.Clone(files)
	slices.SortFunc(byAlias, func(x, y string) int { return strings.Compare(aliases[x], aliases[y]) })
	for _, f := range byAlias {
		if len(files) == 1 && aliases[f] == filepath.Base(f) {
			continue
		}
		fmt.Fprintf(b, "  %s: %s\n", aliases[f], f)
	}
}
