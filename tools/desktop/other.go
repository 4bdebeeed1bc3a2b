//go:build !((linux || freebsd || openbsd || netbsd) && !android) && !windows

package desktop

import "log/slog"

// Open returns ErrUnsupported: this platform has no desktop layer yet.
func Open(log *slog.Logger) (Desktop, error) { return nil, ErrUnsupported }
