package petwindow

import "yui/windows/i18n"

// The pill's notices when speech cannot be heard; the app sets them
// (app/speech.go) and the pill shows them once (windows/i18n/pill.go
// translates them).
const (
	NoAudioText     = i18n.NoAudioText
	NoAudioFileText = i18n.NoAudioFileText
)

// translatePill is the pill's or the plate's text in the language in use.
func translatePill(s string) string { return i18n.Pill(s) }
