//go:build !((linux || freebsd || openbsd || netbsd) && !android)

package app

import "context"

// trayHost is "": Windows and macOS always have a tray.
func trayHost(context.Context) string { return "" }
