package app

import (
	"context"
	"os"
	"runtime"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/lang"

	"yui/assets"
	"yui/windows/petwindow"
)

// setupTray adds the tray menu where the desktop has a tray: each pet to
// show or hide and its messages, Settings, Quit. On Linux and the BSDs
// the tray speaks D-Bus (StatusNotifierItem): with no session bus there
// is no tray, and Fyne's systray would crash on quit, so none is set up;
// with a bus but no StatusNotifierWatcher on it (GNOME without the
// AppIndicator extension) the tray is set up all the same and registers
// when a watcher comes. Either way the log says so once, and the shortcut
// and the settings window bring hidden pets back. The menu follows the
// running presets. The tray is sysTray, not Fyne's (systray.go says why).
func (y *yui) setupTray() {
	if _, ok := y.app.(desktop.App); !ok {
		return // a test's app: no desktop, no tray
	}
	if runtime.GOOS != "windows" && runtime.GOOS != "darwin" && os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		y.log.Info("tray_unavailable", "reason", "no D-Bus session bus")
		return
	}
	y.tray = startTray("Yui", assets.Icon, y.log)
	set := func() { y.tray.SetMenu(y.trayMenu()) }
	set()
	y.trayRefresh = set
	y.WatchSessions(func() { fyne.Do(set) })
	go func() { // a D-Bus round trip, bounded: off the UI thread
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if reason := trayHost(ctx); reason != "" {
			y.log.Info("tray_unavailable", "reason", reason)
		} else {
			y.log.Info("tray_ready")
		}
	}()
}

// trayMenu is the tray menu for the pets running now.
func (y *yui) trayMenu() *fyne.Menu {
	var items []*fyne.MenuItem
	for _, s := range y.running() {
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
			for _, s := range y.running() {
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
