//go:build freebsd || openbsd || netbsd

package desktop

import "log/slog"

// onCompositor is x: the compositors' facts are read on Linux only
// (compositor.go).
func onCompositor(x *x11, _ *slog.Logger) Desktop { return x }
