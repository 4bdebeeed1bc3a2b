package petwindow

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
)

func TestPatIsAHeldPressOnTheHead(t *testing.T) {
	size := fyne.NewSize(192, 256)
	t0 := time.Unix(1_700_000_000, 0)
	for _, c := range []struct {
		name    string
		y       float32
		held    time.Duration
		dragged bool
		want    bool
	}{
		{"held on the head", 40, PatHold, false, true},
		{"a click on the head", 40, 100 * time.Millisecond, false, false},
		{"held on the belly", 200, time.Second, false, false},
		{"dragged by the head", 40, time.Second, true, false},
	} {
		var h holdState
		h.down(fyne.NewPos(96, c.y), size, t0)
		h.dragged = c.dragged
		if got := h.up(t0.Add(c.held)); got != c.want || h.patted != c.want {
			t.Errorf("%s: pat %v, want %v", c.name, got, c.want)
		}
	}
}
