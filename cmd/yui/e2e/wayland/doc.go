//go:build e2e

// Package wayland is the end-to-end group under the real Wayland
// desktops, headless: GNOME Shell (gnome-shell --headless, with Yui's
// extension installed by `yui desktop setup` before it starts) and KWin
// (kwin_wayland --virtual), each with XWayland for the pet, native
// Wayland windows from foot beside X11 ones. The sessions (private
// system and session buses, a logind stand-in, the compositors) come from
// the harness (cmd/yui/e2e/harness/wayland.go). Run with `make
// e2e-wayland`.
package wayland
