//go:build !windows

package i18n

import (
	"os"
	"strings"
)

// SystemLanguages are the user's languages as BCP 47 tags, most wanted
// first, read as gettext reads them: the first of LC_ALL, LC_MESSAGES and
// LANG that is set names the locale; LANGUAGE, a colon-separated list,
// comes before it unless that locale is C or POSIX (no language: English).
func SystemLanguages() []string {
	loc := ""
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if loc = os.Getenv(v); loc != "" {
			break
		}
	}
	base := localeTag(loc)
	if base == "" {
		return nil
	}
	var out []string
	for _, l := range strings.Split(os.Getenv("LANGUAGE"), ":") {
		if t := localeTag(l); t != "" {
			out = append(out, t)
		}
	}
	return append(out, base)
}

// localeTag turns a POSIX locale (ll_CC.charset@modifier) into a BCP 47
// tag (ll-CC); "" for C, POSIX and the empty locale.
func localeTag(loc string) string {
	if i := strings.IndexAny(loc, ".@"); i >= 0 {
		loc = loc[:i]
	}
	if loc == "" || loc == "C" || loc == "POSIX" {
		return ""
	}
	return strings.ReplaceAll(loc, "_", "-")
}
