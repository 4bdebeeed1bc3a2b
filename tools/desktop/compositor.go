//go:build linux && !android

package desktop

import (
	"context"
	"fmt"
	"image"
	"log/slog"
	"os"
	"strings"

	"github.com/jezek/xgb/xproto"
)

// compositor is the desktop layer of a GNOME or KDE Plasma Wayland
// session: the window list, the active window, the watches and the change
// count come from the compositor's facts (facts.go), which see native
// Wayland windows and XWayland's alike (each once: the compositor lists
// both); the monitors, the user's idle time and the X connection the pet
// windows share stay XWayland's (the embedded x11). While the
// compositor's side is not there (the GNOME extension not yet loaded,
// KWin's scripting gone) it answers from XWayland as before.
type compositor struct {
	*x11
	facts *factTable
	src   interface{ Close() error } // the GNOME or KWin source
	kind  string
}

// onCompositor wraps x in the compositor's facts when the session is
// GNOME's or KDE Plasma's Wayland; else it returns x, unchanged.
func onCompositor(x *x11, log *slog.Logger) Desktop {
	kind := SessionKind(os.Getenv)
	if kind == "" {
		if os.Getenv("XDG_SESSION_TYPE") == "wayland" || os.Getenv("WAYLAND_DISPLAY") != "" {
			log.Warn("desktop_compositor_unknown", "desktop", os.Getenv("XDG_CURRENT_DESKTOP"),
				"hint", "this compositor tells Yui nothing of its native Wayland windows: she sees XWayland's alone, and the private-window rule cannot see native ones")
		}
		return x
	}
	c := &compositor{x11: x, facts: newFactTable(x.screenSize), kind: kind}
	var err error
	switch kind {
	case "gnome":
		c.src, err = startGnome(c.facts, log)
	case "kde":
		c.src, err = startKWin(c.facts, log)
	}
	if err != nil {
		log.Warn("desktop_compositor_unavailable", "desktop", kind, "err", err.Error(),
			"hint", "native Wayland windows are not seen; the windows are XWayland's")
		return x
	}
	log.Info("desktop_compositor", "desktop", kind)
	return c
}

// compositorKind is the desktop the windows come from now (Compositor).
func (c *compositor) compositorKind() string {
	if c.facts.isLive() {
		return c.kind
	}
	return ""
}

func (c *compositor) Windows() ([]Window, error) {
	if c.isClosed() {
		return nil, errClosed
	}
	if ws, _, ok := c.facts.windows(); ok {
		return ws, nil
	}
	return c.x11.Windows()
}

// WindowStates is Windows with the active window's id: the table has
// both at no cost (quiet.go's stateReader).
func (c *compositor) WindowStates() ([]Window, ID, error) {
	if c.isClosed() {
		return nil, 0, errClosed
	}
	if ws, active, ok := c.facts.windows(); ok {
		return ws, active, nil
	}
	return c.x11.WindowStates()
}

func (c *compositor) Active() (Window, bool, error) {
	if c.isClosed() {
		return Window{}, false, errClosed
	}
	if w, ok, known := c.facts.active(); known {
		return w, ok, nil
	}
	return c.x11.Active()
}

// ActiveName is Active: the table has the names already (activity.go).
func (c *compositor) ActiveName() (Window, bool, error) {
	if c.isClosed() {
		return Window{}, false, errClosed
	}
	if w, ok, known := c.facts.active(); known {
		return w, ok, nil
	}
	return c.x11.ActiveName()
}

func (c *compositor) Watch(id ID, f func(Change)) (func(), error) {
	if c.isClosed() {
		return nil, errClosed
	}
	if stop, ok := c.facts.watch(id, f); ok {
		return stop, nil
	}
	return c.x11.Watch(id, f)
}

// Changes counts the compositor's events and XWayland's root events: a
// change either way makes do-not-disturb read again (quiet.go).
func (c *compositor) Changes() uint64 {
	return c.facts.changes.Load() + c.x11.Changes()
}

func (c *compositor) Close() error {
	c.facts.stopAll()
	err := c.src.Close()
	if xerr := c.x11.Close(); err == nil {
		err = xerr
	}
	return err
}

// logEvent records one compositor event at debug level: what a failing
// test or a user's report needs to tell which fact came when. Titles are
// not logged (a private window's title is the user's).
func logEvent(log *slog.Logger, msg string, ev factEvent) {
	if !log.Enabled(context.Background(), slog.LevelDebug) {
		return
	}
	if w := ev.Window; w != nil {
		log.Debug(msg, "kind", ev.Kind, "id", w.ID, "app", w.App, "frame", fmt.Sprintf("%d,%d %dx%d", w.X, w.Y, w.Width, w.Height),
			"focus", w.Focus, "fullscreen", w.Fullscreen, "minimized", w.Minimized)
		return
	}
	log.Debug(msg, "kind", ev.Kind, "id", ev.ID, "focus", ev.Focus, "order", strings.Join(ev.Order, ","), "windows", len(ev.Windows))
}

// screenSize is XWayland's screen (its root window) in X pixels, the
// other half of the compositor's scale (xscale.go); zero when the X
// server does not answer.
func (x *x11) screenSize() image.Point {
	if x.isClosed() {
		return image.Point{}
	}
	g, err := xproto.GetGeometry(x.conn, xproto.Drawable(x.root)).Reply()
	if err != nil || g == nil {
		return image.Point{}
	}
	return image.Pt(int(g.Width), int(g.Height))
}
