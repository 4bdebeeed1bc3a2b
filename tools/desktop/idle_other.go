//go:build !((linux || freebsd || openbsd || netbsd) && !android)

package desktop

import "log/slog"

// busIdle is no idle source outside the free Unix desktops: there is no
// Wayland session there.
type busIdle interface {
	IdleReader
	Source() string
	Close() error
}

func openBusIdle(Session, string, *slog.Logger) (busIdle, error) { return nil, ErrUnsupported }

func openWaylandIdle(Session, *slog.Logger) (busIdle, error) { return nil, ErrUnsupported }
