package petwindow

import (
	"fmt"
	"image"
	"strings"
)

// PositionStore keeps a pet window's position per monitor layout. The app
// backs it with the preset's saved position in the settings store.
type PositionStore interface {
	// LoadPosition returns the window's top-left corner saved for layout.
	LoadPosition(layout string) (x, y int, ok bool)
	// SavePosition records the window's top-left corner for layout.
	SavePosition(layout string, x, y int)
}

// layoutKey names a monitor layout: the monitors' rectangles, primary
// first, as "1280x800+0+0,1920x1080+1280+0".
func layoutKey(monitors []image.Rectangle) string {
	parts := make([]string, len(monitors))
	for i, m := range monitors {
		parts[i] = fmt.Sprintf("%dx%d%+d%+d", m.Dx(), m.Dy(), m.Min.X, m.Min.Y)
	}
	return strings.Join(parts, ",")
}

// homeMargin is the gap between the home position and the screen edges.
const homeMargin = 24

// homePosition is where a pet with no saved position goes: the bottom
// right corner of the primary monitor, the window's body (the character
// and what is under it, body inside the window) fully visible.
func homePosition(monitors []image.Rectangle, win image.Point) image.Point {
	if len(monitors) == 0 {
		return image.Point{}
	}
	m := monitors[0]
	return image.Pt(max(m.Min.X, m.Max.X-win.X-homeMargin), max(m.Min.Y, m.Max.Y-win.Y-homeMargin))
}

// placeOnScreen returns where to put a window whose top-left corner should
// be at p, so that body (the character's rectangle, window-relative) lies
// fully on a monitor: the monitor it overlaps most, moved the least. A
// position whose body touches no monitor (a removed monitor) goes home.
func placeOnScreen(p image.Point, body image.Rectangle, win image.Point, monitors []image.Rectangle) image.Point {
	if len(monitors) == 0 {
		return p
	}
	abs := body.Add(p)
	best, area := -1, 0
	for i, m := range monitors {
		in := abs.Intersect(m)
		if a := in.Dx() * in.Dy(); a > area {
			best, area = i, a
		}
	}
	if best < 0 {
		return homePosition(monitors, win)
	}
	m := monitors[best]
	if abs.Min.X < m.Min.X {
		p.X += m.Min.X - abs.Min.X
	} else if abs.Max.X > m.Max.X {
		p.X -= abs.Max.X - m.Max.X
	}
	if abs.Min.Y < m.Min.Y {
		p.Y += m.Min.Y - abs.Min.Y
	} else if abs.Max.Y > m.Max.Y {
		p.Y -= abs.Max.Y - m.Max.Y
	}
	return p
}
