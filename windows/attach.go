package windows

import (
	"errors"
	"fmt"
	"io"
	"net/http"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"yui/transport"
)

// The composer's images: the attach button's file dialog adds a PNG or
// JPEG to the next turn, and the include-screen toggle (screen_on_turn
// "toggle") asks for a screenshot with each typed turn. The screen-look
// prompt asks the user whether the pet may look at the screen.

// maxAttachment is the largest image file the attach button takes; the
// transport's JPEG fitter then fits it to the frame.
const maxAttachment = 32 << 20

// addScreenToggle adds the include-screen toggle after the attach button.
func (w *PetWindow) addScreenToggle(x, y, btn, pad float32) {
	if !w.opts.ScreenToggle {
		return
	}
	w.screenBtn = newIconButton(theme.ComputerIcon(), widget.LowImportance, func() {
		on := !w.screenOn.Load()
		w.screenOn.Store(on)
		w.showScreenToggle()
		w.log.Info("pet_screen_toggle", "name", w.opts.Name, "on", on)
	})
	w.screenBtn.Move(fyne.NewPos(x, y))
	w.screenBtn.Resize(fyne.NewSize(btn, btn))
	w.entry.Move(w.entry.Position().AddXY(btn+pad, 0))
	w.entry.Resize(w.entry.Size().SubtractWidthHeight(btn+pad, 0))
	w.screenBtn.Hide()
	w.content().Add(w.screenBtn)
}

// showScreenToggle shows the toggle with the composer, lit while on.
func (w *PetWindow) showScreenToggle() {
	if w.screenBtn == nil {
		return
	}
	imp := widget.LowImportance
	if w.screenOn.Load() {
		imp = widget.HighImportance
	}
	w.screenBtn.Set(theme.ComputerIcon(), imp)
	setShown(w.screenBtn, w.composer.open)
}

// IncludeScreen reports whether the include-screen toggle is on. Any goroutine.
func (w *PetWindow) IncludeScreen() bool { return w.screenOn.Load() }

// chooseImage opens a file dialog for an image to attach to the next turn.
func (w *PetWindow) chooseImage() {
	if w.closed.Load() {
		return
	}
	// The pet window is too small to hold the dialog: it gets its own.
	win := w.app.NewWindow(w.opts.Name + " — attach an image")
	win.Resize(fyne.NewSize(720, 520))
	win.Show()
	openImage(win, func(img transport.Image, err error) {
		win.Close()
		switch {
		case err != nil:
			w.setNotice(err.Error())
		case img.Data != nil:
			w.attachments = append(w.attachments, img)
			w.showAttachments()
			w.log.Info("pet_attach", "name", w.opts.Name, "mime", img.MIME, "bytes", len(img.Data))
		}
	})
}

// openImage shows the file dialog for a PNG or JPEG in parent; done gets
// the image, an error for the user, or neither when cancelled. UI thread.
func openImage(parent fyne.Window, done func(transport.Image, error)) {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			done(transport.Image{}, fmt.Errorf("The image could not be opened: %v", err))
			return
		}
		if r == nil {
			done(transport.Image{}, nil) // cancelled
			return
		}
		defer r.Close()
		done(readImage(r))
	}, parent)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".png", ".jpg", ".jpeg", ".PNG", ".JPG", ".JPEG"}))
	d.Resize(fyne.NewSize(700, 500))
	d.Show()
}

// readImage reads an attachment: PNG or JPEG by content, not by name.
func readImage(r io.Reader) (transport.Image, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxAttachment+1))
	if err != nil {
		return transport.Image{}, fmt.Errorf("The image could not be read: %v", err)
	}
	if len(data) > maxAttachment {
		return transport.Image{}, fmt.Errorf("The image is too large (over %d MiB).", maxAttachment>>20)
	}
	switch mime := http.DetectContentType(data); mime {
	case "image/png", "image/jpeg":
		return transport.Image{MIME: mime, Data: data}, nil
	}
	return transport.Image{}, errors.New("Only PNG and JPEG images can be attached.")
}

// showAttachments lights the attach button while images wait for the next turn.
func (w *PetWindow) showAttachments() {
	imp := widget.LowImportance
	if len(w.attachments) > 0 {
		imp = widget.HighImportance
	}
	w.attach.Set(theme.FileImageIcon(), imp)
}

// takeAttachments returns the images waiting for the next turn and clears them.
func (w *PetWindow) takeAttachments() []transport.Image {
	a := w.attachments
	w.attachments = nil
	w.showAttachments()
	return a
}

// AskScreenLook shows the non-blocking screen-look prompt (Allow / Not
// now) unless it shows already; answer gets the user's choice on the UI
// thread. Closing the prompt answers nothing. Any goroutine.
func (w *PetWindow) AskScreenLook(answer func(allowed bool)) {
	if !w.asking.CompareAndSwap(false, true) {
		return
	}
	fyne.Do(func() {
		if w.closed.Load() {
			w.asking.Store(false)
			return
		}
		win := w.app.NewWindow(w.opts.Name + " — screen access")
		done := func(allowed *bool) {
			if !w.asking.CompareAndSwap(true, false) {
				return
			}
			win.Close()
			if allowed != nil {
				w.log.Info("pet_screen_look_answer", "name", w.opts.Name, "allowed", *allowed)
				answer(*allowed)
			}
		}
		yes, no := true, false
		allow := widget.NewButton("Allow", func() { done(&yes) })
		allow.Importance = widget.HighImportance
		later := widget.NewButton("Not now", func() { done(&no) })
		msg := widget.NewLabel(w.opts.Name + " would like to look at your screen when it is asked to.\nYou can change this later in the settings.")
		msg.Wrapping = fyne.TextWrapWord
		win.SetContent(container.NewPadded(container.NewVBox(msg, container.NewHBox(allow, later))))
		win.SetCloseIntercept(func() { done(nil) })
		win.Resize(fyne.NewSize(420, 140))
		win.Show()
		w.log.Info("pet_screen_look_prompt", "name", w.opts.Name)
	})
}
