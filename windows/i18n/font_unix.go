//go:build !windows

package i18n

import (
	"context"
	"os/exec"
	"strconv"
	"strings"

	"yui/pet/settings"
)

// fontLang is fontconfig's name of each CJK language.
func fontLang(l settings.Language) string {
	switch l {
	case settings.LanguageChinese:
		return "zh-cn"
	}
	return string(l)
}

type candidate struct {
	Path  string
	Index int
}

// fontCandidates asks fontconfig for the sans-serif font of l and then for
// each family known to cover CJK, best first; fc-match answers a font for
// any query, so FindFont checks the glyphs.
func fontCandidates(ctx context.Context, l settings.Language) []candidate {
	var out []candidate
	lang := fontLang(l)
	for _, family := range []string{"sans-serif", "Noto Sans CJK JP", "Source Han Sans", "WenQuanYi Zen Hei",
		"Droid Sans Fallback"} {
		b, err := exec.CommandContext(ctx, "fc-match", "-f", "%{file}|%{index}", family+":lang="+lang).Output()
		if err != nil {
			return out // no fontconfig: nothing to ask
		}
		file, idx, _ := strings.Cut(string(b), "|")
		i, _ := strconv.Atoi(idx)
		if file != "" && !containsCandidate(out, file, i) {
			out = append(out, candidate{file, i})
		}
	}
	return out
}

func containsCandidate(cs []candidate, path string, i int) bool {
	for _, c := range cs {
		if c.Path == path && c.Index == i {
			return true
		}
	}
	return false
}
