package toolinfo

import (
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Title names what a tool call does and what it does it to, as a
// person reads it: "Run npm test", "Edit src/x.go", "Read README.md".
// It is plain text, no Markdown: Zed and other clients show titles as
// they are, so a code span would show its backticks. There is no
// "<extension>:" prefix: clients such as codecompanion.nvim cut titles at
// the first colon. A shell command is shown whole and verbatim (the user
// approves exactly that); other details are their first line cut to 60
// characters. Paths inside cwd are shown relative to it.
//
// Every surface that names a tool call uses it: ACP tool calls and
// permission requests, and a subagent's progress lines.
func Title(name string, args map[string]any, info Info, cwd string) string {
	_, bare, ok := strings.Cut(name, "__")
	if !ok {
		bare = name
	}
	verb := toolVerb(info, args)
	object := ""
	if p, ok := info.PathOf(args); ok {
		object = displayPath(p, cwd)
	} else if cmd, ok := args["command"].(string); ok && info.Kind == Execute && strings.TrimSpace(cmd) != "" {
		object = cmd
	} else {
		object = toolDetail(args)
	}
	switch {
	case verb == "":
		verb = humanize(bare)
	case object == "":
		// "Run" alone says nothing: name the tool ("Python").
		return humanize(bare)
	}
	if object == "" {
		return verb
	}
	return verb + " " + object
}

// toolVerb is the action a call performs: the verb the tool declares
// (picked by its VerbArg argument when it names one), else from its kind;
// "" for tools of kind other, which are named by their own name.
func toolVerb(info Info, args map[string]any) string {
	if info.VerbArg != "" {
		if v, ok := args[info.VerbArg].(string); ok && info.Verbs[v] != "" {
			return info.Verbs[v]
		}
	}
	if info.Verb != "" {
		return info.Verb
	}
	switch info.Kind {
	case Read:
		return "Read"
	case Edit:
		return "Edit"
	case Execute:
		return "Run"
	case Search:
		return "Search"
	case Fetch:
		return "Fetch"
	}
	return ""
}

// humanize turns a tool name into words: "manage_extensions" → "Manage
// extensions".
func humanize(name string) string {
	s := strings.TrimSpace(strings.ReplaceAll(name, "_", " "))
	r, size := utf8.DecodeRuneInString(s)
	if size == 0 {
		return "Tool"
	}
	return string(unicode.ToUpper(r)) + s[size:]
}

// displayPath is p relative to cwd when it lies inside it.
func displayPath(p, cwd string) string {
	if !filepath.IsAbs(p) || cwd == "" {
		return p
	}
	if rel, err := filepath.Rel(cwd, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return rel
	}
	return p
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c rune) int {
	longest, run := 0, 0
	for _, r := range s {
		if r == c {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

// toolDetail is the first of a call's descriptive arguments, its first
// line cut to 57 characters plus "…" when over 60.
func toolDetail(args map[string]any) string {
	for _, k := range []string{"path", "file", "command", "query", "url", "uri", "name", "pattern", "source"} {
		s, ok := args[k].(string)
		if !ok {
			continue
		}
		s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
		if s == "" {
			continue
		}
		if utf8.RuneCountInString(s) > 60 {
			s = string([]rune(s)[:57]) + "…"
		}
		return s
	}
	return ""
}

// CodeBlock is text as a fenced Markdown code block in lang, its fence
// (at least three backticks) longer than any backtick run in text, so the
// text shows verbatim.
func CodeBlock(lang, text string) string {
	fence := strings.Repeat("`", max(3, longestRun(text, '`')+1))
	return fence + lang + "\n" + text + "\n" + fence
}
