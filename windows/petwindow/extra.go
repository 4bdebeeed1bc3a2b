package petwindow

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"yui/transport"
)

// delegationWindow lists the delegations of the chip: the work the
// backend handed to background workers (docs/protocol/push-transport.md delegations).
type delegationWindow struct {
	win  fyne.Window
	box  *fyne.Container
	last []transport.Delegation
}

// delegations is the chip's delegation list: its window while open.
// UI thread.
type delegations struct {
	w   *PetWindow
	win *delegationWindow // nil while closed
}

// show opens (or raises) the delegation list of this pet.
func (d *delegations) show() {
	w := d.w
	if d.win != nil {
		d.win.win.Show()
		d.win.win.RequestFocus()
		return
	}
	dw := &delegationWindow{win: w.app.NewWindow(lang.L("{{.Name}} — delegations", map[string]any{"Name": w.opts.Name})), box: container.NewVBox()}
	dw.win.SetContent(container.NewVScroll(dw.box))
	dw.win.Resize(fyne.NewSize(420, 300))
	dw.win.SetOnClosed(func() { d.win = nil })
	d.win = dw
	dw.update(w.view.Delegations)
	dw.win.Show()
	w.log.Info("window_open", "window", "delegations", "name", w.opts.Name)
}

func (d *delegationWindow) update(items []transport.Delegation) {
	d.last = items
	d.box.RemoveAll()
	if len(items) == 0 {
		d.box.Add(widget.NewLabel(lang.L("No delegated work.")))
	}
	for _, it := range items {
		state := it.State
		if it.State == "done" && it.Status != "" {
			state = lang.L("done, {{.Status}}", map[string]any{"Status": it.Status})
		}
		started := time.UnixMilli(it.StartedAt).Format("15:04")
		title := widget.NewLabelWithStyle(lang.L("{{.Title}} — {{.State}} (since {{.Time}})", map[string]any{"Title": it.Title, "State": state, "Time": started}), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		title.Wrapping = fyne.TextWrapWord
		d.box.Add(title)
		if it.Summary != "" {
			s := widget.NewLabel(it.Summary)
			s.Wrapping = fyne.TextWrapWord
			d.box.Add(s)
		}
		d.box.Add(widget.NewSeparator())
	}
	d.box.Refresh()
}
