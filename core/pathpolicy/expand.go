package pathpolicy

import "strings"

// ExpandHome expands "~" / "~/x" from HOME (USERPROFILE on Windows), and on
// Windows the %USERPROFILE% and %APPDATA% variables, as goose does.
func ExpandHome(p, goos string, getenv func(string) string) string {
	home := getenv("HOME")
	if goos == "windows" {
		if up := getenv("USERPROFILE"); up != "" {
			home = up
		}
		for _, v := range []string{"USERPROFILE", "APPDATA"} {
			if val := getenv(v); val != "" {
				p = strings.ReplaceAll(p, "%"+v+"%", val)
			}
		}
	}
	if home == "" {
		return p
	}
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") || (goos == "windows" && strings.HasPrefix(p, `~\`)) {
		return home + p[1:]
	}
	return p
}
