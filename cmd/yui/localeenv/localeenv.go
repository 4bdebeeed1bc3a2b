// Package localeenv keeps Fyne quiet about a locale it cannot parse, such
// as LANG=C.UTF-8 (the default of many containers and minimal systems).
//
// Fyne's lang package reads the locale environment in its own init
// (fyne.io/fyne/v2/lang.updateLocalizer, through go-locale) and logs
// "Error parsing user locale C" in three lines on stderr when the language
// part is C or POSIX with a suffix. An init of a yui/... package runs too
// late: Go initialises packages in import-path order among those whose
// imports are ready, so every fyne.io package goes before every yui one.
// This package is a module of its own, early/localeenv (replaced by this
// folder in go.mod), whose path sorts before fyne.io and which imports only
// os and strings: its init runs first and sets the variable go-locale
// reads to "C", which go-locale itself reads as "no locale" (English)
// without a word. Yui picks its own language (windows/i18n) from the
// values the user set, which Original returns.
//
// Restore puts the user's values back; cmd/yui calls it first thing in
// main, after every package's init and before any child process starts, so
// children (espeak-ng, fc-match, a browser) inherit the environment as the
// user set it.
package localeenv

import (
	"os"
	"strings"
)

// Vars are the variables go-locale reads on Unix, in its order: the first
// non-empty of LC_ALL, LC_MESSAGES and LANG names the locale; LANGUAGE, a
// colon-separated list, wins over it unless that locale is C or POSIX.
var Vars = [...]string{"LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"}

// saved holds what init changed: each variable's name and its value as
// the user set it. Written once, in init, before any goroutine exists, and
// only read after.
var saved []setting

type setting struct {
	name, value string
	set         bool
}

func init() { saved = quiet() }

// quiet sets the locale variables whose values Fyne would log an error for
// and returns their old values.
func quiet() []setting {
	var changed []setting
	keep := func(name string) {
		v, ok := os.LookupEnv(name)
		changed = append(changed, setting{name: name, value: v, set: ok})
	}
	for _, name := range Vars[:3] {
		v := os.Getenv(name)
		if v == "" {
			continue
		}
		if Unparsable(v) {
			keep(name)
			_ = os.Setenv(name, "C")
			return changed // C: go-locale reads no further, LANGUAGE included
		}
		break
	}
	for _, l := range strings.Split(os.Getenv("LANGUAGE"), ":") {
		if Unparsable(l) {
			keep("LANGUAGE")
			_ = os.Unsetenv("LANGUAGE")
			break
		}
	}
	return changed
}

// Unparsable reports whether a locale value (ll_CC.charset@modifier) has a
// language part go-locale passes on but a BCP 47 parser refuses: C or
// POSIX with a suffix ("C.UTF-8"), or anything not two to eight letters.
// Plain "C" and "POSIX" go-locale reads as no locale itself.
func Unparsable(v string) bool {
	if v == "C" || v == "POSIX" || v == "" {
		return false
	}
	lang := v
	if i := strings.IndexAny(lang, "_-.@"); i >= 0 {
		lang = lang[:i]
	}
	if len(lang) < 2 || len(lang) > 8 {
		return true
	}
	for _, r := range lang {
		if (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') {
			return true
		}
	}
	return strings.EqualFold(lang, "posix")
}

// Restore puts back the values init changed. Call it once, from main.
func Restore() {
	for _, s := range saved {
		if s.set {
			_ = os.Setenv(s.name, s.value)
		} else {
			_ = os.Unsetenv(s.name)
		}
	}
}

// Original returns the value the user set for a locale variable, whether
// or not init changed it and whether or not Restore has run.
func Original(name string) string {
	for _, s := range saved {
		if s.name == name {
			return s.value
		}
	}
	return os.Getenv(name)
}
