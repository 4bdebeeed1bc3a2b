package desktop

import "strings"

// SessionKind is the Wayland desktop the environment names: "gnome",
// "kde", or "" for an X11 session or another compositor.
func SessionKind(getenv func(string) string) string {
	wayland := getenv("XDG_SESSION_TYPE") == "wayland" || getenv("WAYLAND_DISPLAY") != ""
	if !wayland {
		return ""
	}
	// Ubuntu's is "ubuntu:GNOME", Pop!_OS's "pop:GNOME".
	for _, d := range strings.Split(strings.ToUpper(getenv("XDG_CURRENT_DESKTOP")), ":") {
		switch d {
		case "GNOME", "GNOME-CLASSIC":
			return "gnome"
		case "KDE":
			return "kde"
		}
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
