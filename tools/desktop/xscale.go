package desktop

import (
	"image"
	"math"
)

// xScale maps the compositor's coordinates (the logical ones GNOME Shell
// and KWin report a window's frame in) to XWayland's X coordinates, the
// ones the pet's own window is placed in and the monitors are read in
// (x11.go). On GNOME and KDE Plasma the two differ by one factor for the
// whole screen, never per monitor, and with no offset:
//
//   - mutter in its physical layout (GNOME's default without the
//     scale-monitor-framebuffer feature): the stage is in pixels and
//     XWayland's screen is the stage: 1;
//   - mutter in its logical layout (scale-monitor-framebuffer): X is the
//     stage times mutter's "effective" XWayland scale, the configured
//     XWayland scaling factor rounded or else the highest monitor scale
//     rounded up (mutter's src/wayland/meta-xwayland.c,
//     meta_xwayland_get_effective_scale, applied to each window by
//     src/wayland/meta-window-xwayland.c's stage_to_protocol). Before
//     mutter's XWayland native scaling the factor is 1 there too;
//   - KWin: X is the logical layout times its XWayland scale ("legacy
//     applications: apply scaling themselves"), a scale override on
//     XWayland's whole Wayland connection, fractional too; 1 when the
//     system scales X applications (KWin's wayland_server.cpp,
//     createXWaylandConnection).
//
// So the factor is what XWayland's screen measures over what the
// compositor's screen measures, which needs to know none of these
// settings and follows each as it changes: fromSizes.
type xScale float64

// scaleStep is the grain of a fractional scale: Wayland's fractional
// scales are multiples of 1/120 (wp-fractional-scale-v1), and a ratio
// of two rounded screen sizes is snapped to it.
const scaleStep = 120

// fromSizes is the factor between the compositor's screen size (logical)
// and XWayland's (X pixels); 1 when either is unknown or the two
// disagree between width and height (a screen being reconfigured: the
// next snapshot tells it again).
func fromSizes(logical, x image.Point) xScale {
	if logical.X <= 0 || logical.Y <= 0 || x.X <= 0 || x.Y <= 0 {
		return 1
	}
	sx := snapScale(float64(x.X) / float64(logical.X))
	sy := snapScale(float64(x.Y) / float64(logical.Y))
	if sx != sy || sx < 1.0/4 || sx > 8 {
		return 1
	}
	return xScale(sx)
}

func snapScale(f float64) float64 {
	return math.Round(f*scaleStep) / scaleStep
}

// rect is r in X coordinates: each edge scaled and rounded, so that
// windows side by side stay side by side.
func (s xScale) rect(r image.Rectangle) image.Rectangle {
	if s == 1 || s == 0 {
		return r
	}
	return image.Rectangle{Min: s.point(r.Min), Max: s.point(r.Max)}
}

func (s xScale) point(p image.Point) image.Point {
	f := float64(s)
	return image.Pt(int(math.Round(float64(p.X)*f)), int(math.Round(float64(p.Y)*f)))
}
