package petwindow

import (
	"time"
	"yui/windows/widgets"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// VoiceActions is implemented by PetActions whose preset can listen: the
// composer shows a mic button, held to talk, when PushToTalk is true.
type VoiceActions interface {
	PushToTalk() bool
	// VoicePress and VoiceRelease start and end a push-to-talk utterance.
	VoicePress()
	VoiceRelease()
}

// micIcon is a microphone (Material Design "mic", Apache 2.0).
var micIcon = fyne.NewStaticResource("mic.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M12 14c1.66 0 2.99-1.34 2.99-3L15 5c0-1.66-1.34-3-3-3S9 3.34 9 5v6c0 1.66 1.34 3 3 3zm5.3-3c0 3-2.54 5.1-5.3 5.1S6.7 14 6.7 11H5c0 3.41 2.72 6.23 6 6.72V21h2v-3.28c3.28-.48 6-3.3 6-6.72h-1.7z"/></svg>`))

// micState is the pet window's push-to-talk state: the composer's mic
// button (nil unless the preset talks that way) and the global shortcut
// held as a talk key. Used on the Fyne goroutine only.
type micState struct {
	button *micButton
	held   bool // the shortcut is down
	gen    int  // the release under way; a press (key repeat) cancels it
}

// keyRepeatGap is how long a shortcut release waits for the press that
// follows it when the key is only repeating.
const keyRepeatGap = 60 * time.Millisecond

// micButton is the composer's push-to-talk button: pressing it starts an
// utterance, releasing it (wherever the pointer is) ends it.
type micButton struct {
	widgets.IconButton
	onPress, onRelease func()
	held               bool
}

var _ desktop.Mouseable = (*micButton)(nil)

func newMicButton(press, release func()) *micButton {
	m := &micButton{onPress: press, onRelease: release}
	m.Icon, m.Importance = micIcon, widget.LowImportance
	m.ExtendBaseWidget(m)
	return m
}

func (m *micButton) MouseDown(e *desktop.MouseEvent) {
	if e.Button != desktop.MouseButtonPrimary || m.held {
		return
	}
	m.held = true
	m.Set(micIcon, widget.DangerImportance)
	m.onPress()
}

func (m *micButton) MouseUp(*desktop.MouseEvent) {
	if !m.held {
		return
	}
	m.held = false
	m.Set(micIcon, widget.LowImportance)
	m.onRelease()
}

// addMic makes the mic button, which stands left of the send button
// (arrange.go), when the pet's actions listen in push-to-talk mode.
func (c *composer) addMic() {
	w := c.w
	va := c.talkActions()
	if va == nil {
		return
	}
	c.mic.button = newMicButton(func() {
		w.log.Info("pet_mic_press", "name", w.opts.Name)
		va.VoicePress()
	}, func() {
		w.log.Info("pet_mic_release", "name", w.opts.Name)
		va.VoiceRelease()
	})
	c.mic.button.Hide()
}

// talkActions are the pet's voice actions when it talks push-to-talk.
func (c *composer) talkActions() VoiceActions {
	w := c.w
	va, ok := w.opts.Actions.(VoiceActions)
	if !ok || !va.PushToTalk() {
		return nil
	}
	return va
}

// showMic shows the mic button with the composer.
func (c *composer) showMic() {
	if c.mic.button != nil {
		widgets.SetShown(c.mic.button, c.state.open)
	}
}

// shortcutTalk is the global shortcut's press in push-to-talk mode: the
// first press starts an utterance (and the composer opens as usual); the
// presses of a key held down, which repeats, change nothing and report true.
func (c *composer) shortcutTalk() (repeat bool) {
	w := c.w
	va := c.talkActions()
	if va == nil {
		return false
	}
	c.mic.gen++ // cancels a release that was only the key repeating
	if c.mic.held {
		return true
	}
	c.mic.held = true
	if b := c.mic.button; b != nil {
		b.Set(micIcon, widget.DangerImportance)
	}
	w.log.Info("pet_mic_press", "name", w.opts.Name, "by", "shortcut")
	va.VoicePress()
	return false
}

// shortcutReleased ends the utterance once the key stays up.
func (c *composer) shortcutReleased() {
	w := c.w
	va := c.talkActions()
	if va == nil || !c.mic.held {
		return
	}
	c.mic.gen++
	gen := c.mic.gen
	time.AfterFunc(keyRepeatGap, func() {
		fyne.Do(func() {
			if c.mic.gen != gen || !c.mic.held {
				return
			}
			c.mic.held = false
			if b := c.mic.button; b != nil {
				b.Set(micIcon, widget.LowImportance)
			}
			w.log.Info("pet_mic_release", "name", w.opts.Name, "by", "shortcut")
			va.VoiceRelease()
		})
	})
}

// ShowVoiceText shows a transcript in the composer, as its placeholder:
// what the pet heard, which the user can read but not send twice. It
// opens the composer without taking the focus from the user's window.
func (w *PetWindow) ShowVoiceText(text string) {
	fyne.Do(func() {
		if w.closed.Load() {
			return
		}
		w.comp.entry.SetPlaceHolder("“" + text + "”")
		if !w.comp.state.open {
			w.comp.state.open = true
			w.applyView(w.view)
			w.comp.armIdle()
		}
	})
}
