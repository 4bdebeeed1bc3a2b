package petwindow

import (
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"yui/transport"
)

// shortcut is the global shortcut: it shows every hidden pet (through
// Host.ShortcutPressed: with no tray it is the way back for a hidden pet) and opens
// this one's composer.
func (w *PetWindow) shortcut() {
	if w.closed.Load() || w.comp.shortcutTalk() { // voice: push-to-talk held (mic.go)
		return
	}
	w.opts.Host.ShortcutPressed()
	w.Show()
	w.OpenComposer()
}

// DoNotDisturbLabel is the do-not-disturb switch in the pet and tray menus.
const DoNotDisturbLabel = "Do not disturb"

// showMenu opens the right-click menu at pos; the shape grows to hold it
// while it is open.
func (w *PetWindow) showMenu(pos fyne.Position) {
	host := w.opts.Host
	item := func(label string, f func()) *fyne.MenuItem {
		return fyne.NewMenuItem(label, func() {
			if f != nil {
				f()
			}
		})
	}
	items := []*fyne.MenuItem{
		item(lang.L("Talk"), w.OpenComposer),
		item(lang.L("Messages"), host.OpenMessages),
		item(lang.L("Settings"), host.OpenSettings),
	}
	if r, ok := host.(Reconnecter); ok && w.view.Pill.ConnState != transport.StateReady {
		items = append(items, item(lang.L("Reconnect"), r.Reconnect))
	}
	if d, ok := host.(DoNotDisturber); ok {
		on := d.DoNotDisturb()
		dnd := item(lang.L(DoNotDisturbLabel), func() { d.SetDoNotDisturb(!on) })
		dnd.Checked = on
		items = append(items, dnd)
	}
	items = append(items, fyne.NewMenuItemSeparator(), item(lang.L("Hide"), w.Hide), item(lang.L("Quit"), host.Quit))
	menu := fyne.NewMenu("", items...)
	m := widget.NewPopUpMenu(menu, w.win.Canvas())
	dismiss := m.OnDismiss
	m.OnDismiss = func() {
		dismiss()
		w.shape.menu = image.Rectangle{}
		w.shape.update()
	}
	m.ShowAtPosition(pos)
	p, s := m.Position(), m.Size()
	w.shape.menu = w.shim.rect(p.X-2, p.Y-2, s.Width+4, s.Height+4)
	w.shape.update()
}
