package settingswindow

import (
	"context"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"yui/windows"
	"yui/windows/i18n"
)

// The App tab's desktop row: how much of this desktop's windows Yui sees
// (all of them on X11 and KDE Plasma; on GNOME's Wayland the native ones
// only through Yui's GNOME Shell extension), what is missing and why, and
// an Install button that does what `yui desktop setup` does
// (app/desktopsetup.go).

// desktopWait bounds the state's read and the install (gsettings).
const desktopWait = 30 * time.Second

// DesktopSetup is what the App tab's desktop row asks the app: how much
// of this desktop's windows Yui sees, and the install of what it lacks
// (GNOME's extension; `yui desktop setup`).
type DesktopSetup interface {
	// DesktopState reads the session; it may run programs (gsettings),
	// so never on the UI thread.
	DesktopState(ctx context.Context) windows.DesktopState
	// InstallDesktop installs and enables what the session needs.
	InstallDesktop(ctx context.Context) error
}

type desktopRow struct {
	w       *SettingsWindow
	session *widget.Label
	state   *widget.Label
	install *widget.Button
	box     *fyne.Container
}

func newDesktopRow(w *SettingsWindow) *desktopRow {
	r := &desktopRow{w: w, session: widget.NewLabel(""), state: helpText("")}
	r.install = widget.NewButtonWithIcon(lang.L("Install"), theme.DownloadIcon(), r.doInstall)
	r.install.Hide()
	r.box = container.NewVBox(r.session, r.state, container.NewHBox(r.install))
	return r
}

// load reads the state off the UI goroutine and shows it.
func (r *desktopRow) load() {
	r.w.run(desktopWait, func(ctx context.Context) func() {
		st := r.w.b.DesktopState(ctx)
		return func() { r.show(st) }
	})
}

func (r *desktopRow) show(st windows.DesktopState) {
	r.session.SetText(st.Session)
	r.state.SetText(desktopText(st.Status))
	if st.CanInstall {
		r.install.Show()
	} else {
		r.install.Hide()
	}
}

// desktopText says what Yui sees of the desktop, and why not more.
func desktopText(s windows.DesktopStatus) string {
	switch s {
	case windows.DesktopNeedsExtension:
		return lang.L("Yui's GNOME Shell extension is not installed, so Yui sees only the windows of X11 applications, not the native Wayland ones. Install adds it for you.")
	case windows.DesktopNextLogin:
		return lang.L("Yui's GNOME Shell extension is installed and enabled. GNOME Shell runs it from your next login.")
	case windows.DesktopBlind:
		return lang.L("This desktop tells Yui nothing of its native Wayland windows: she sees only the windows of X11 applications, and the private-window rule cannot see native ones.")
	}
	return lang.L("Yui sees every window of this desktop.")
}

func (r *desktopRow) doInstall() {
	r.install.Disable()
	r.w.run(desktopWait, func(ctx context.Context) func() {
		err := r.w.b.InstallDesktop(ctx)
		st := r.w.b.DesktopState(ctx)
		return func() {
			r.install.Enable()
			r.show(st)
			if err != nil {
				r.state.SetText(lang.L("Could not install: {{.Reason}}", map[string]any{"Reason": i18n.Error(err)}))
			}
		}
	})
}
