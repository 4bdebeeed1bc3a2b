package widgets

import (
	"strconv"
	"time"

	"fyne.io/fyne/v2/lang"
)

// GroupThousands writes n with commas between groups of three digits.
func GroupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	sign := ""
	if n < 0 {
		sign, s = "-", s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return sign + string(out)
}

// FormatDateTime writes a date and time in the language's own form: the
// layout is a translation (assets/lang, key "format.datetime"), "2 Jan
// 2006 15:04" in English, "2006年1月2日 15:04" in Japanese.
func FormatDateTime(t time.Time) string {
	return t.Format(lang.X("format.datetime", "2 Jan 2006 15:04"))
}
