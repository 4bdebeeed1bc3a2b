package app

import "yui/windows/petwindow"

// petHost is a session's side of its pet window (petwindow.Host): the
// menu's items open the app's windows for the session's preset, and the
// user's drags, drops and the monitor changes go to the session's body
// tool. It also has the Reconnect item and the do-not-disturb switch
// (petwindow.Reconnecter, petwindow.DoNotDisturber). UI thread.
type petHost struct {
	s        *session
	presetID string // the preset the window was made for
}

var (
	_ petwindow.Host           = petHost{}
	_ petwindow.Reconnecter    = petHost{}
	_ petwindow.DoNotDisturber = petHost{}
)

func (h petHost) OpenMessages()    { h.s.y.openMessages(h.presetID) }
func (h petHost) OpenSettings()    { h.s.y.openSettings(h.presetID) }
func (h petHost) Quit()            { h.s.y.quit() }
func (h petHost) OpenPermissions() { h.s.y.openPermissions() }
func (h petHost) ShortcutPressed() { h.s.y.bringForward() }
func (h petHost) PetGrabbed()      { h.s.userDragged() }
func (h petHost) PetDropped()      { h.s.dropped() }
func (h petHost) MonitorsChanged() { h.s.relayout() }

// Reconnect is the menu's Reconnect item.
func (h petHost) Reconnect() {
	h.s.log.Info("reconnect_requested")
	h.s.Reconnect()
}

func (h petHost) DoNotDisturb() bool      { return h.s.y.quiet.Manual() }
func (h petHost) SetDoNotDisturb(on bool) { h.s.y.quiet.SetManual(on) }
