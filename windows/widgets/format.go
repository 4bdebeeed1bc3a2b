package widgets

import (
	"time"

	"fyne.io/fyne/v2/lang"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"
)

// GroupThousands writes n with its digits grouped as the language in use
// groups them.
func GroupThousands(n int64) string {
	// The language in use is the code its translation file names
	// (windows/i18n); x/text groups as that language does: 12,345 in
	// English, 12.345 in German and Spanish.
	tag := language.Make(lang.X("i18n.code", "en"))
	return message.NewPrinter(tag).Sprint(number.Decimal(n))
}

// FormatDateTime writes a date and time in the language's own form: the
// layout is a translation (assets/lang, key "format.datetime"), "2 Jan
// 2006 15:04" in English, "2006年1月2日 15:04" in Japanese.
func FormatDateTime(t time.Time) string {
	return t.Format(lang.X("format.datetime", "2 Jan 2006 15:04"))
}
