package desktop

// SessionKind is the Wayland desktop the environment names: "gnome",
// "kde", or "" for an X11 session or another compositor. It is
// DetectSession's Kind (xdg_session.go), the one reading of the session.
func SessionKind(getenv func(string) string) string {
	return DetectSession(getenv).Kind()
}

// Kind is the Wayland desktop whose windows Yui can read from its
// compositor: "gnome" (GNOME Shell, GNOME Classic, Ubuntu's and
// Pop!_OS's "ubuntu:GNOME", "pop:GNOME"), "kde", or "" for an X11 session
// or another compositor.
func (s Session) Kind() string {
	switch {
	case !s.Wayland:
		return ""
	case s.GNOME() || s.Is("gnome-classic"):
		return "gnome"
	case s.KDE():
		return "kde"
	}
	return ""
}

// Compositor is the Wayland desktop whose facts a layer reads its
// windows from now: "gnome" or "kde", "" for XWayland's or X11's (and on
// other platforms).
func Compositor(d Desktop) string {
	if c, ok := d.(interface{ compositorKind() string }); ok {
		return c.compositorKind()
	}
	return ""
}
