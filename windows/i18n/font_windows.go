package i18n

import (
	"context"
	"os"
	"path/filepath"

	"yui/pet/settings"
)

type candidate struct {
	Path  string
	Index int
}

// fontCandidates are the fonts Windows ships for l's script in
// %WINDIR%\Fonts: Yu Gothic and Meiryo (Japanese), Malgun Gothic (Korean),
// Microsoft YaHei and SimSun (Chinese).
func fontCandidates(_ context.Context, l settings.Language) []candidate {
	dir := filepath.Join(os.Getenv("WINDIR"), "Fonts")
	var names []string
	switch l {
	case settings.LanguageJapanese:
		names = []string{"YuGothR.ttc", "meiryo.ttc", "msgothic.ttc"}
	case settings.LanguageKorean:
		names = []string{"malgun.ttf", "gulim.ttc"}
	case settings.LanguageChinese:
		names = []string{"msyh.ttc", "simsun.ttc"}
	}
	var out []candidate
	for _, n := range names {
		p := filepath.Join(dir, n)
		if _, err := os.Stat(p); err == nil {
			out = append(out, candidate{p, 0})
		}
	}
	return out
}
