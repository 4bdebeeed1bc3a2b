package messagewindow

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"yui/transport"
	"yui/windows/widgets"
)

// messageComposer is the message window's composer, the pet's in a
// window: an attach-image button, a one-line entry, a send button that
// becomes a stop button while a turn runs, and the error line under
// them. Enter sends.
type messageComposer struct {
	entry   *widgets.ComposerEntry
	button  *widgets.IconButton
	attach  *widgets.IconButton
	images  []transport.Image // attached for the next turn
	errLine *widget.Label
	box     *fyne.Container
	// send gets the trimmed text (or stops the turn while running) and
	// reports whether the text went, so the entry can be emptied.
	send func(text string) bool
}

// Placeholders of the entry.
const (
	composerPlaceholder = "Say something…"
	composerNotRunning  = "Not running"
)

func newMessageComposer(send func(string) bool, choose func()) *messageComposer {
	m := &messageComposer{send: send}
	m.attach = widgets.NewIconButton(theme.FileImageIcon(), widget.LowImportance, choose)
	m.entry = widgets.NewComposerEntry()
	m.entry.OnSubmitted = func(string) { m.submit() }
	m.button = widgets.NewIconButton(theme.MailSendIcon(), widget.HighImportance, m.submit)
	m.errLine = widget.NewLabel("")
	m.errLine.Importance = widget.DangerImportance
	m.errLine.Wrapping = fyne.TextWrapWord
	m.errLine.Hide()
	row := container.NewBorder(nil, nil, m.attach, m.button, m.entry)
	m.box = container.NewPadded(container.NewVBox(row, m.errLine))
	return m
}

func (m *messageComposer) object() fyne.CanvasObject { return m.box }

// addImage attaches img to the next turn; the attach button lights up.
func (m *messageComposer) addImage(img transport.Image) {
	m.images = append(m.images, img)
	m.attach.Set(theme.FileImageIcon(), widget.HighImportance)
}

// takeImages returns the images for the turn being sent and clears them.
func (m *messageComposer) takeImages() []transport.Image {
	imgs := m.images
	m.images = nil
	m.attach.Set(theme.FileImageIcon(), widget.LowImportance)
	return imgs
}

// submit is the button and Enter.
func (m *messageComposer) submit() {
	if m.send(strings.TrimSpace(m.entry.Text)) {
		m.entry.SetText("")
	}
}

// set shows the connection's state: locked while a turn runs (the button
// stops it) and while the preset is not running (the button does
// nothing), and the error line under the entry.
func (m *messageComposer) set(connected, running bool, errLine string, c fyne.Canvas) {
	locked := !connected || running
	wasLocked := m.entry.Disabled()
	place := lang.L(composerPlaceholder)
	switch {
	case !connected:
		m.button.Set(theme.MailSendIcon(), widget.LowImportance)
		place = lang.L(composerNotRunning)
	case running:
		m.button.Set(theme.MediaStopIcon(), widget.DangerImportance)
	default:
		m.button.Set(theme.MailSendIcon(), widget.HighImportance)
	}
	if m.entry.PlaceHolder != place {
		m.entry.SetPlaceHolder(place)
	}
	switch {
	case locked && !wasLocked:
		m.entry.Disable()
	case !locked && wasLocked:
		m.entry.Enable()
		if c != nil && c.Focused() == nil {
			// The entry lost the focus when it was locked: give it
			// back so the next line can be typed at once.
			c.Focus(m.entry)
		}
	}
	if m.errLine.Text != errLine {
		m.errLine.SetText(errLine)
	}
	widgets.SetShown(m.errLine, errLine != "")
}
