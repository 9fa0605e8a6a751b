package extension

import (
	"crypto/rand"
	"fmt"
	"strings"

	"github.com/goose-acp/goose-acp/core/config"
)

// Separator joins an extension key and a tool name.
const Separator = "__"

// Normalize is goose's extension-name normalisation (name_to_key).
func Normalize(name string) string { return config.NameToKey(name) }

// ToolName returns the prefixed name of tool in extension key.
func ToolName(key, tool string) string { return key + Separator + tool }

// uniqueKey returns key, or key + "_" + 6 random alphanumerics when key is
// taken, as goose does for colliding extension names.
func uniqueKey(key string, taken func(string) bool) string {
	for k := key; ; k = key + "_" + randomSuffix(6) {
		if !taken(k) {
			return k
		}
	}
}

const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

func randomSuffix(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alnum[int(b[i])%len(alnum)]
	}
	return string(b)
}

// splitToolName finds the extension owning name by the longest key that
// is a prefix followed by the separator (goose's longest-prefix match; keys
// may themselves contain "__").
func splitToolName(name string, keys []string) (key, tool string, err error) {
	if !strings.Contains(name, Separator) {
		return "", "", fmt.Errorf("%w: Invalid tool name format: '%s'", ErrToolNotFound, name)
	}
	best := ""
	for _, k := range keys {
		if strings.HasPrefix(name, k+Separator) && len(k) > len(best) {
			best = k
		}
	}
	if best == "" {
		return "", "", fmt.Errorf("%w: no extension found for tool '%s'", ErrToolNotFound, name)
	}
	return best, strings.TrimPrefix(name, best+Separator), nil
}
