package desktop

import "strings"

// Session is the kind of graphical session the process runs in, read once
// at start-up from the environment the session manager sets
// (XDG_SESSION_TYPE, XDG_CURRENT_DESKTOP, WAYLAND_DISPLAY). The screen
// look (tools/look/session.go) and the idle time (idle_bus.go) choose their
// way from it; X11 and Windows keep theirs.
type Session struct {
	// Wayland is true in a Wayland session, where the pet's own window is
	// an XWayland one but most other windows are not.
	Wayland bool
	// Desktops are XDG_CURRENT_DESKTOP's names, lower case ("gnome",
	// "ubuntu:gnome" gives both, "kde").
	Desktops []string
	// Display and RuntimeDir are WAYLAND_DISPLAY and XDG_RUNTIME_DIR:
	// where the compositor listens, for the idle time's own connection
	// (idle_wayland.go).
	Display, RuntimeDir string
}

// DetectSession reads the session from getenv (os.Getenv in the app).
// XDG_SESSION_TYPE decides when set; without it a WAYLAND_DISPLAY means
// Wayland.
func DetectSession(getenv func(string) string) Session {
	s := Session{Display: getenv("WAYLAND_DISPLAY"), RuntimeDir: getenv("XDG_RUNTIME_DIR")}
	switch strings.ToLower(getenv("XDG_SESSION_TYPE")) {
	case "wayland":
		s.Wayland = true
	case "":
		s.Wayland = getenv("WAYLAND_DISPLAY") != ""
	}
	for _, d := range strings.Split(getenv("XDG_CURRENT_DESKTOP"), ":") {
		if d = strings.ToLower(strings.TrimSpace(d)); d != "" {
			s.Desktops = append(s.Desktops, d)
		}
	}
	return s
}

// Is reports whether XDG_CURRENT_DESKTOP names desktop (lower case).
func (s Session) Is(desktop string) bool {
	for _, d := range s.Desktops {
		if d == desktop {
			return true
		}
	}
	return false
}

// GNOME reports a GNOME Shell session (Ubuntu's says "ubuntu:GNOME").
func (s Session) GNOME() bool { return s.Is("gnome") }

// KDE reports a KDE Plasma session.
func (s Session) KDE() bool { return s.Is("kde") }

// String names the session for the log.
func (s Session) String() string {
	kind := "x11"
	if s.Wayland {
		kind = "wayland"
	}
	if len(s.Desktops) == 0 {
		return kind
	}
	return kind + "/" + strings.Join(s.Desktops, ":")
}

// KnowsActive reports whether d's Active is the window the user is in
// now: always outside Wayland; on Wayland only while the layer reads the
// compositor's facts (Compositor: Yui's GNOME Shell extension, the KWin
// script), since through XWayland a native window in front leaves the X
// active window stale or empty. It can change: the facts come once the
// extension runs.
func KnowsActive(d Desktop, s Session) bool {
	return !s.Wayland || Compositor(d) != ""
}
