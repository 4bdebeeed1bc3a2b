package i18n

import (
	"errors"
	"strings"

	"fyne.io/fyne/v2/lang"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"

	"yui/pet/settings"
)

// Translated is an error of the windows' own that carries its text in the
// user's language (a widget's "the image is too large"); Error stays
// English for the log.
type Translated interface {
	error
	Translated() string
}

// Error is err as the user reads it, in the language in use: the one
// place where an error's text reaches a window. Errors with a code
// (settings' *Invalid, FieldError, ValidationError and its sentinels) are
// translated; any other shows a translated sentence with its English
// detail, so nothing reaches the user half in English without saying so.
func Error(err error) string {
	if err == nil {
		return ""
	}
	var tr Translated
	var ve *settings.ValidationError
	var fe settings.FieldError
	var inv *settings.Invalid
	var newer *settings.NewerVersionError
	switch {
	case errors.As(err, &tr):
		return tr.Translated()
	case errors.As(err, &ve):
		parts := make([]string, len(ve.Fields))
		for i, f := range ve.Fields {
			parts[i] = Field(f)
		}
		return strings.Join(parts, lang.L("; "))
	case errors.As(err, &fe):
		return Field(fe)
	case errors.As(err, &inv):
		return Reason(inv.Code, inv.Args)
	case errors.As(err, &newer):
		return lang.L("The settings file was written by a newer Yui (version {{.Version}}): update Yui to change them.",
			map[string]any{"Version": newer.Version})
	case errors.Is(err, settings.ErrLastPreset):
		return lang.L("The last preset cannot be deleted.")
	case errors.Is(err, settings.ErrNoPreset):
		return lang.L("That preset no longer exists.")
	case errors.Is(err, settings.ErrNoReminder):
		return lang.L("That reminder no longer exists.")
	}
	return lang.L("Something went wrong ({{.Detail}}).", map[string]any{"Detail": err.Error()})
}

// Field is one invalid field as "field: reason", the field by its name in
// the settings file (the same in every language).
func Field(fe settings.FieldError) string {
	return lang.L("{{.Field}}: {{.Reason}}", map[string]any{"Field": fe.Field, "Reason": Reason(fe.Code, fe.Args)})
}

// Reason is why a value is refused, in the language in use; a code this
// file does not know (a newer settings package) shows its English.
func Reason(code settings.Code, args map[string]any) string {
	args = localNumbers(args)
	if s, ok := reason(code, args); ok {
		return s
	}
	return settings.English(code, args)
}

// localNumbers is args with its numbers written as the language in use
// writes them (0,25 and 192.000 in German), the rest as they are.
func localNumbers(args map[string]any) map[string]any {
	if len(args) == 0 {
		return args
	}
	p := message.NewPrinter(language.Make(string(Current())))
	out := make(map[string]any, len(args))
	for k, v := range args {
		switch v.(type) {
		case int, float64:
			v = p.Sprint(number.Decimal(v))
		}
		out[k] = v
	}
	return out
}

// Decimal is v with digits decimals as the language in use writes it
// (1,25 in German); the speech rate's slider shows it.
func Decimal(v float64, digits int) string {
	p := message.NewPrinter(language.Make(string(Current())))
	return p.Sprint(number.Decimal(v, number.Scale(digits)))
}

// Percent is share (0–1) as a whole percentage as the language in use
// writes it ("100 %" in German, "100%" in English).
func Percent(share float64) string {
	p := message.NewPrinter(language.Make(string(Current())))
	return p.Sprint(number.Percent(share, number.Scale(0)))
}
