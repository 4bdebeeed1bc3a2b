package life

import "strings"

// Matches reports whether s contains one of words, case-insensitively
// (watch_apps, private_titles). Empty words match nothing.
func Matches(words []string, s string) bool {
	if s == "" {
		return false
	}
	ls := strings.ToLower(s)
	for _, w := range words {
		if w = strings.ToLower(strings.TrimSpace(w)); w != "" && strings.Contains(ls, w) {
			return true
		}
	}
	return false
}
