package settingswindow

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"yui/pet/settings"
)

// wakeWordFields are the Voice tab's wake word row (docs/hands-free.md):
// the words, comma-separated, a wake_word utterance must begin with.
type wakeWordFields struct {
	words *widget.Entry
}

// wakeWordOption is voice.mode's wake_word choice.
func wakeWordOption() option { return option{"wake_word", lang.L("Wake word")} }

func (e *presetEditor) buildWakeWordFields(entry func(func(*settings.Preset, string)) *widget.Entry) {
	f := &e.f.wake
	f.words = entry(func(p *settings.Preset, s string) { p.Voice.WakeWords = parseWakeWords(s) })
	f.words.SetPlaceHolder(lang.L("The character's name, and “hey” before it"))
}

func (f *wakeWordFields) load(p settings.Preset) {
	f.words.SetText(strings.Join(p.Voice.WakeWords, ", "))
}

// wakeWordRow is the row under the mode.
func (e *presetEditor) wakeWordRow() []fyne.CanvasObject {
	return e.row("voice.wake_words", lang.L("Wake words"), e.f.wake.words,
		helpText(lang.L("In Wake word mode, what you say starts a turn only when it begins with one of these words, separated by commas; for 8 seconds after a reply, no wake word is needed.")))
}

// parseWakeWords splits the entry's text at commas; blanks are dropped.
func parseWakeWords(s string) []string {
	var out []string
	for _, w := range strings.Split(s, ",") {
		if w = strings.TrimSpace(w); w != "" {
			out = append(out, w)
		}
	}
	return out
}
