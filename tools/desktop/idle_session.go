package desktop

import (
	"errors"
	"log/slog"
)

// SessionIdle is the session's idle time, chosen at start-up: on X11 and
// Windows the desktop layer's own (the screensaver extension,
// GetLastInputInfo), unchanged; on Wayland the compositor's over the
// session bus (idle_bus.go), falling back to the layer's XWayland count,
// logged, where the compositor tells none. bus "" is the environment's
// session bus. The reader is nil when there is no idle time at all; close
// ends what it opened.
func SessionIdle(d Desktop, s Session, bus string, log *slog.Logger) (r IdleReader, close func()) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if s.Wayland {
		b, err := openBusIdle(s, bus, log)
		if err == nil {
			log.Info("idle_source", "session", s.String(), "source", b.Source())
			return b, func() { _ = b.Close() }
		}
		w, werr := openWaylandIdle(s, log)
		if werr == nil {
			log.Info("idle_source", "session", s.String(), "source", w.Source())
			return w, func() { _ = w.Close() }
		}
		log.Warn("idle_source", "session", s.String(), "source", "xwayland", "err", errors.Join(err, werr).Error(),
			"note", "idle time counts only input to X windows: typing in a native window looks idle")
	}
	r, _ = d.(IdleReader) // a nil d is no IdleReader
	return r, func() {}
}
