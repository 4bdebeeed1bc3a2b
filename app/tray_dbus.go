//go:build (linux || freebsd || openbsd || netbsd) && !android

package app

import (
	"context"
	"fmt"
	"time"

	"github.com/godbus/dbus/v5"
)

// trayWatcherName is the bus name of a StatusNotifierWatcher, the tray
// host of KDE, of GNOME with the AppIndicator extension, and of most
// Wayland and X11 panels.
const trayWatcherName = "org.kde.StatusNotifierWatcher"

// trayHost says why no tray shows: "" when a StatusNotifierWatcher owns
// its name on the session bus. Slow (a D-Bus connection and a call):
// never on the UI thread.
func trayHost(ctx context.Context) (reason string) {
	conn, err := dbus.SessionBusPrivate(dbus.WithContext(ctx))
	if err != nil {
		return "no D-Bus session bus"
	}
	defer conn.Close()
	if err := conn.Auth(nil); err != nil {
		return fmt.Sprintf("D-Bus session bus refused: %v", err)
	}
	if err := conn.Hello(); err != nil {
		return fmt.Sprintf("D-Bus session bus refused: %v", err)
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	var has bool
	if err := conn.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.NameHasOwner", 0, trayWatcherName).Store(&has); err != nil {
		return fmt.Sprintf("D-Bus session bus: %v", err)
	}
	if !has {
		return "no StatusNotifierWatcher on the session bus"
	}
	return ""
}
