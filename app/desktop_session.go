package app

import (
	"log/slog"
	"os"

	"yui/tools/desktop"
	"yui/tools/look"
)

// deskOpened is the desktop layer with what the session gives screen looks
// and idle time, chosen at start-up from the session (XDG_SESSION_TYPE,
// XDG_CURRENT_DESKTOP): on X11 and Windows the layer's own; on Wayland the
// XDG desktop portal's Screenshot (tools/look/session.go) and the
// compositor's idle time (tools/desktop/idle_session.go). Opened off the
// UI goroutine: the idle source is found with calls on the session bus.
type deskOpened struct {
	desk      desktop.Desktop
	idle      desktop.IdleReader // nil without idle time
	closeIdle func()
	screen    *look.SessionScreen
}

func openDeskSide(log *slog.Logger) deskOpened {
	d := openDesktop(log)
	s := desktop.DetectSession(os.Getenv)
	o := deskOpened{desk: d, closeIdle: func() {}}
	if d == nil {
		return o
	}
	dlog := log.With("component", "desktop")
	o.idle, o.closeIdle = desktop.SessionIdle(d, s, "", dlog)
	o.screen = look.OpenSessionScreen(look.SessionOptions{Session: s, Desktop: d, Log: dlog})
	return o
}

// ScreenStatus is how screen looks are taken here and what went wrong
// last, for the App tab; the zero value without a desktop layer. Any
// goroutine.
func (y *yui) ScreenStatus() look.ScreenStatus {
	if y.screen == nil {
		return look.ScreenStatus{}
	}
	return y.screen.Status()
}
