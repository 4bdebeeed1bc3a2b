package petwindow

import (
	"time"

	"fyne.io/fyne/v2"
)

// PatHold is how long a press on the head lasts to be a pat.
const PatHold = 600 * time.Millisecond

// holdState follows one press on the character (UI thread only).
type holdState struct {
	at      time.Time
	head    bool // the press began on the head: the top third
	dragged bool
	patted  bool // the last release was a pat: its tap is no poke
}

func (h *holdState) down(pos fyne.Position, size fyne.Size, now time.Time) {
	*h = holdState{at: now, head: pos.Y < size.Height/3}
}

// up reports whether the press now ending was a pat: on the head, held
// PatHold or longer, not dragged.
func (h *holdState) up(now time.Time) bool {
	h.patted = h.head && !h.dragged && !h.at.IsZero() && now.Sub(h.at) >= PatHold
	return h.patted
}
