package imageproc

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// macScreenshot matches macOS screenshot names; since macOS 13 the space
// before AM/PM is U+202F, which users and models type as a plain space.
var macScreenshot = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^Screenshot \d{4}-\d{2}-\d{2} at \d{1,2}\.\d{2}\.\d{2} (AM|PM|am|pm)(?: \(\d+\))?\.png$`)
})

// NormalizeScreenshotPath returns path with the space before AM/PM in a
// macOS screenshot file name replaced by a narrow no-break space (U+202F),
// as goose does. Other paths come back unchanged.
func NormalizeScreenshotPath(path string) string {
	dir, name := filepath.Split(path)
	m := macScreenshot().FindStringSubmatchIndex(name)
	if m == nil {
		return path
	}
	// The last occurrence of the meridian, then the whitespace before it.
	meridian := name[m[2]:m[3]]
	at := strings.LastIndex(name, meridian)
	space := len(strings.TrimRight(name[:at], " \t"))
	if space == 0 || space >= len(name) {
		return path
	}
	return dir + name[:space] + "\u202f" + name[space+1:]
}
