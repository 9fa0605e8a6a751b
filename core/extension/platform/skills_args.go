package platform

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/goose-acp/goose-acp/internal/shellwords"
)

// ErrSkillArguments is returned when a skill's arguments cannot be split
// (an unclosed quote while the body has placeholders).
var ErrSkillArguments = errors.New("unclosed quote in arguments")

// skillPlaceholder matches goose's placeholders: $ARGUMENTS[i] (0-based),
// $ARGUMENTS, $1… (1-based) and $name (a declared argument).
var skillPlaceholder = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS\b|\$(\d+)|\$([A-Za-z_][A-Za-z0-9_-]*)`)
})

// ApplySkillArguments renders a skill body with its arguments as goose
// does: placeholders are substituted; a body without any resolvable
// placeholder gets "\n\nARGUMENTS: <raw>" appended instead. names are the
// skill's declared argument names (metadata.arguments), mapped by position.
func ApplySkillArguments(content, raw string, names []string) (string, error) {
	matches := skillPlaceholder().FindAllStringSubmatchIndex(content, -1)
	resolvable := slices.ContainsFunc(matches, func(m []int) bool {
		return m[6] < 0 || slices.Contains(names, content[m[6]:m[7]])
	})
	if !resolvable {
		return content + "\n\nARGUMENTS: " + raw, nil
	}
	tokens, err := splitSkillArgs(raw)
	if err != nil {
		return "", err
	}
	nth := func(i int) string {
		if i >= 0 && i < len(tokens) {
			return tokens[i]
		}
		return ""
	}
	var b strings.Builder
	last := 0
	for _, m := range matches {
		b.WriteString(content[last:m[0]])
		last = m[1]
		switch {
		case m[2] >= 0:
			i, err := strconv.Atoi(content[m[2]:m[3]])
			if err != nil {
				i = -1
			}
			b.WriteString(nth(i))
		case m[4] >= 0:
			p, _ := strconv.Atoi(content[m[4]:m[5]])
			b.WriteString(nth(p - 1))
		case m[6] >= 0:
			if i := slices.Index(names, content[m[6]:m[7]]); i >= 0 {
				b.WriteString(nth(i))
			} else {
				b.WriteString(content[m[0]:m[1]])
			}
		default:
			b.WriteString(raw)
		}
	}
	b.WriteString(content[last:])
	return b.String(), nil
}

// splitSkillArgs splits on whitespace; single or double quotes group
// words. Backslashes are literal, so Windows paths survive.
func splitSkillArgs(raw string) ([]string, error) {
	words, closed := shellwords.Split(raw)
	if !closed {
		return nil, fmt.Errorf("%w: %s", ErrSkillArguments, raw)
	}
	return words, nil
}
