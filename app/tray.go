package app

import (
	"context"
	"log/slog"
	"os"
	"runtime"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/lang"

	"yui/assets"
	"yui/windows/petwindow"
)

// petTray is the system tray, where the desktop has one: its icon and
// the menu of the running pets, redrawn as they start and stop. The tray
// is sysTray, not Fyne's (systray.go says why). UI thread only; the zero
// value is no tray.
type petTray struct {
	icon *sysTray          // nil without a tray
	menu func() *fyne.Menu // the menu as it is now; nil without a tray
}

// start adds the tray where the desktop has one, its menu from menu: each
// pet to show or hide and its messages, Settings, Quit; watch calls its
// func whenever a preset starts or stops (the menu follows). On Linux and
// the BSDs the tray speaks D-Bus (StatusNotifierItem): with no session
// bus there is no tray, and Fyne's systray would crash on quit, so none
// is set up; with a bus but no StatusNotifierWatcher on it (GNOME without
// the AppIndicator extension) the tray is set up all the same and
// registers when a watcher comes. Either way the log says so once, and
// the shortcut and the settings window bring hidden pets back.
func (t *petTray) start(a fyne.App, log *slog.Logger, menu func() *fyne.Menu, watch func(fn func()) (cancel func())) {
	if _, ok := a.(desktop.App); !ok {
		return // a test's app: no desktop, no tray
	}
	if runtime.GOOS != "windows" && runtime.GOOS != "darwin" && os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		log.Info("tray_unavailable", "reason", "no D-Bus session bus")
		return
	}
	t.icon, t.menu = startTray("Yui", assets.Icon, log), menu
	t.refresh()
	watch(func() { fyne.Do(t.refresh) })
	go func() { // a D-Bus round trip, bounded: off the UI thread
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if reason := trayHost(ctx); reason != "" {
			log.Info("tray_unavailable", "reason", reason)
		} else {
			log.Info("tray_ready")
		}
	}()
}

// refresh redraws the menu; nothing without a tray.
func (t *petTray) refresh() {
	if t.icon != nil {
		t.icon.SetMenu(t.menu())
	}
}

// stop takes the tray's icon away, where there is one.
func (t *petTray) stop() {
	if t.icon != nil {
		t.icon.Stop()
	}
}

// trayMenu is the tray menu for the pets running now.
func (y *yui) trayMenu() *fyne.Menu {
	var items []*fyne.MenuItem
	for _, s := range y.roster.all() {
		s := s
		pet := fyne.NewMenuItem(s.cfg().Name, nil)
		pet.ChildMenu = fyne.NewMenu(s.cfg().Name,
			fyne.NewMenuItem(lang.L("Show"), func() { s.win.Show() }),
			fyne.NewMenuItem(lang.L("Hide"), func() { s.win.Hide() }),
			fyne.NewMenuItem(lang.L("Messages"), func() { y.openMessages(s.cfg().ID) }),
		)
		items = append(items, pet)
	}
	on := y.quiet.Manual()
	dnd := fyne.NewMenuItem(lang.L(petwindow.DoNotDisturbLabel), func() { y.quiet.SetManual(!on) })
	dnd.Checked = on
	items = append(items,
		fyne.NewMenuItem(lang.L("Show all pets"), y.bringForward),
		fyne.NewMenuItem(lang.L("Hide all pets"), func() {
			for _, s := range y.roster.all() {
				s.win.Hide()
			}
		}),
		dnd,
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem(lang.L("Settings"), func() { y.openSettings("") }),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem(lang.L("Quit"), y.quit),
	)
	return fyne.NewMenu("Yui", items...)
}
