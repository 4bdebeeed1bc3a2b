package petwindow

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"yui/transport"
	"yui/windows/i18n"
	"yui/windows/widgets"
)

// The composer's images: the attach button's file dialog adds a PNG or
// JPEG to the next turn, and the include-screen toggle (screen_on_turn
// "toggle") asks for a screenshot with each typed turn. The screen-look
// prompt asks the user whether the pet may look at the screen.

// addScreenToggle makes the include-screen toggle, which stands after
// the attach button (arrange.go).
func (c *composer) addScreenToggle() {
	w := c.w
	if !w.opts.ScreenToggle {
		return
	}
	c.screenBtn = widgets.NewIconButton(theme.ComputerIcon(), widget.LowImportance, func() {
		on := !c.screenOn.Load()
		c.screenOn.Store(on)
		c.showScreenToggle()
		w.log.Info("pet_screen_toggle", "name", w.opts.Name, "on", on)
	})
	c.screenBtn.Hide()
}

// showScreenToggle shows the toggle with the composer, lit while on.
func (c *composer) showScreenToggle() {
	if c.screenBtn == nil {
		return
	}
	imp := widget.LowImportance
	if c.screenOn.Load() {
		imp = widget.HighImportance
	}
	c.screenBtn.Set(theme.ComputerIcon(), imp)
	widgets.SetShown(c.screenBtn, c.state.open)
}

// IncludeScreen reports whether the include-screen toggle is on. Any goroutine.
func (w *PetWindow) IncludeScreen() bool { return w.comp.screenOn.Load() }

// chooseImage opens a file dialog for an image to attach to the next turn.
func (c *composer) chooseImage() {
	w := c.w
	if w.closed.Load() {
		return
	}
	// The pet window is too small to hold the dialog: it gets its own.
	win := w.app.NewWindow(lang.L("{{.Name}} — attach an image", map[string]any{"Name": w.opts.Name}))
	win.Resize(fyne.NewSize(720, 520))
	win.Show()
	widgets.OpenImage(win, func(img transport.Image, err error) {
		win.Close()
		switch {
		case err != nil:
			w.setNotice(i18n.Error(err))
		case img.Data != nil:
			c.attachments = append(c.attachments, img)
			c.showAttachments()
			w.log.Info("pet_attach", "name", w.opts.Name, "mime", img.MIME, "bytes", len(img.Data))
		}
	})
}

// showAttachments lights the attach button while images wait for the next turn.
func (c *composer) showAttachments() {
	imp := widget.LowImportance
	if len(c.attachments) > 0 {
		imp = widget.HighImportance
	}
	c.attach.Set(theme.FileImageIcon(), imp)
}

// takeAttachments returns the images waiting for the next turn and clears them.
func (c *composer) takeAttachments() []transport.Image {
	a := c.attachments
	c.attachments = nil
	c.showAttachments()
	return a
}

// AskScreenLook shows the non-blocking screen-look prompt (Allow / Not
// now) unless it shows already; answer gets the user's choice on the UI
// thread. Closing the prompt answers nothing. Any goroutine.
func (w *PetWindow) AskScreenLook(answer func(allowed bool)) {
	if !w.comp.asking.CompareAndSwap(false, true) {
		return
	}
	fyne.Do(func() {
		if w.closed.Load() {
			w.comp.asking.Store(false)
			return
		}
		win := w.app.NewWindow(lang.L("{{.Name}} — screen access", map[string]any{"Name": w.opts.Name}))
		done := func(allowed *bool) {
			if !w.comp.asking.CompareAndSwap(true, false) {
				return
			}
			win.Close()
			if allowed != nil {
				w.log.Info("pet_screen_look_answer", "name", w.opts.Name, "allowed", *allowed)
				answer(*allowed)
			}
		}
		yes, no := true, false
		allow := widget.NewButton(lang.L("Allow"), func() { done(&yes) })
		allow.Importance = widget.HighImportance
		later := widget.NewButton(lang.L("Not now"), func() { done(&no) })
		msg := widget.NewLabel(lang.L("{{.Name}} would like to look at your screen when it is asked to.\nYou can change this later in the settings.", map[string]any{"Name": w.opts.Name}))
		msg.Wrapping = fyne.TextWrapWord
		win.SetContent(container.NewPadded(container.NewVBox(msg, container.NewHBox(allow, later))))
		win.SetCloseIntercept(func() { done(nil) })
		win.Resize(fyne.NewSize(420, 140))
		win.Show()
		w.log.Info("pet_screen_look_prompt", "name", w.opts.Name)
	})
}
