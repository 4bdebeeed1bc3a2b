package windows

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// composerEntry is the composer's one-line entry; Escape closes the composer.
type composerEntry struct {
	widget.Entry
	onEscape func()
}

func newComposerEntry() *composerEntry {
	e := &composerEntry{}
	e.ExtendBaseWidget(e)
	e.PlaceHolder = "Say something…"
	return e
}

// TypedKey closes the composer on Escape and passes the rest on.
func (e *composerEntry) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyEscape && e.onEscape != nil {
		e.onEscape()
		return
	}
	e.Entry.TypedKey(k)
}
