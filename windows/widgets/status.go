package widgets

import (
	"image/color"

	"fyne.io/fyne/v2"

	"yui/transport"
)

// SetShown shows or hides o, refreshing it only when that changes.
func SetShown(o fyne.CanvasObject, shown bool) {
	if shown && !o.Visible() {
		o.Show()
	} else if !shown && o.Visible() {
		o.Hide()
	}
}

// StateColor is the status pill's dot colour for a connection state.
func StateColor(s transport.ConnState) color.Color {
	switch s {
	case transport.StateReady:
		return ColReady
	case transport.StateIdle, transport.StateConnecting, transport.StateReconnecting, transport.StateRateLimited:
		return ColWaiting
	}
	return ColFailed
}
