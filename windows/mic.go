package windows

import (
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

// micButton is the composer's push-to-talk button: pressing it starts an
// utterance, releasing it (wherever the pointer is) ends it.
type micButton struct {
	iconButton
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

// addMic puts the mic button left of the send button at (x, y) when the
// pet's actions listen in push-to-talk mode, narrowing the entry.
func (w *PetWindow) addMic(sendX, y, btn, pad float32) {
	va, ok := w.opts.Actions.(VoiceActions)
	if !ok || !va.PushToTalk() {
		return
	}
	w.mic = newMicButton(func() {
		w.log.Info("pet_mic_press", "name", w.opts.Name)
		va.VoicePress()
	}, func() {
		w.log.Info("pet_mic_release", "name", w.opts.Name)
		va.VoiceRelease()
	})
	w.mic.Move(fyne.NewPos(sendX-pad-btn, y))
	w.mic.Resize(fyne.NewSize(btn, btn))
	w.entry.Resize(w.entry.Size().SubtractWidthHeight(btn+pad, 0))
	w.mic.Hide()
	w.win.Content().(*fyne.Container).Add(w.mic)
}

// showMic shows the mic button with the composer.
func (w *PetWindow) showMic() {
	if w.mic != nil {
		setShown(w.mic, w.composerOpen)
	}
}

// ShowVoiceText shows a transcript in the composer, as its placeholder:
// what the pet heard, which the user can read but not send twice. It
// opens the composer without taking the focus from the user's window.
func (w *PetWindow) ShowVoiceText(text string) {
	fyne.Do(func() {
		if w.closed.Load() {
			return
		}
		w.entry.SetPlaceHolder("“" + text + "”")
		if !w.composerOpen {
			w.composerOpen = true
			w.applyView(w.view)
			w.armComposerIdle()
		}
	})
}
