//go:build !((linux || freebsd || openbsd || netbsd) && !android)

package desktop

// CheckDisplay is nil: there is no X display to need here, and the
// windowing library reports its own errors.
func CheckDisplay() (release func(), err error) { return func() {}, nil }
