package settingswindow

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"yui/windows"
)

// On GNOME's Wayland without the extension the App tab says what is
// missing and why, and Install installs it and says it runs from the next
// login.
func TestDesktopRowInstall(t *testing.T) {
	b := newFakeBackend(t)
	b.Desktop = windows.DesktopState{Session: "GNOME (Wayland)", Status: windows.DesktopNeedsExtension, CanInstall: true}
	h := openSettings(t, b, "")
	r := h.sw.global.desktop
	r.load()
	h.sw.jobs.Wait()
	if r.session.Text != "GNOME (Wayland)" || !strings.Contains(r.state.Text, "not installed") || !r.install.Visible() {
		t.Fatalf("row: %q, %q, install shown %v", r.session.Text, r.state.Text, r.install.Visible())
	}
	test.Tap(r.install)
	h.sw.jobs.Wait()
	if b.Installs != 1 || !strings.Contains(r.state.Text, "next login") || r.install.Visible() {
		t.Fatalf("after Install: %d installs, %q, install shown %v", b.Installs, r.state.Text, r.install.Visible())
	}
}

func TestDesktopRowX11(t *testing.T) {
	h := openSettings(t, nil, "")
	r := h.sw.global.desktop
	r.load()
	h.sw.jobs.Wait()
	if r.session.Text != "X11" || r.state.Text != "Yui sees every window of this desktop." || r.install.Visible() {
		t.Fatalf("row: %q, %q, install shown %v", r.session.Text, r.state.Text, r.install.Visible())
	}
}
