package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"
)

// ComposerEntry is the composer's one-line entry; Escape closes the composer.
type ComposerEntry struct {
	widget.Entry
	// OnEscape, when set, runs on Escape instead of the entry's own handling.
	OnEscape func()
}

// NewComposerEntry returns an empty entry with the composer's placeholder.
func NewComposerEntry() *ComposerEntry {
	e := &ComposerEntry{}
	e.ExtendBaseWidget(e)
	e.PlaceHolder = lang.L("Say something…")
	return e
}

// TypedKey closes the composer on Escape and passes the rest on.
func (e *ComposerEntry) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyEscape && e.OnEscape != nil {
		e.OnEscape()
		return
	}
	e.Entry.TypedKey(k)
}
