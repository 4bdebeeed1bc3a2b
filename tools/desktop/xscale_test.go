package desktop

import (
	"image"
	"math"
	"testing"
)

// A monitor as a compositor lays it out: its mode in pixels, its scale and
// its place in the compositor's own coordinates.
type testMonitor struct {
	pixels image.Point
	scale  float64
	at     image.Point
}

// setting is one way a compositor relates its coordinates to XWayland's,
// as xscale.go describes them from mutter's and KWin's sources: the size
// of a monitor in the compositor's coordinates and XWayland's factor.
type setting struct {
	name    string
	logical func(m testMonitor) image.Point
	xScale  func(ms []testMonitor) float64
}

func physical(m testMonitor) image.Point { return m.pixels }
func logical(m testMonitor) image.Point {
	return image.Pt(int(math.Round(float64(m.pixels.X)/m.scale)), int(math.Round(float64(m.pixels.Y)/m.scale)))
}
func one([]testMonitor) float64 { return 1 }
func highest(ms []testMonitor) float64 {
	s := 1.0
	for _, m := range ms {
		s = max(s, m.scale)
	}
	return s
}

var settings = []setting{
	{"mutter physical layout (GNOME's default)", physical, one},
	{"mutter logical layout, X scaled by the compositor", logical, one},
	{"mutter logical layout, XWayland native scaling", logical, func(ms []testMonitor) float64 { return math.Ceil(highest(ms)) }},
	{"KWin, X scaled by the system", logical, one},
	{"KWin, X applications scale themselves", logical, highest},
}

// The screen of each setting: the compositor's size and XWayland's, and
// each monitor's place in both.
func layout(s setting, ms []testMonitor) (stage, x image.Point, logicalRects, xRects []image.Rectangle) {
	f := s.xScale(ms)
	for _, m := range ms {
		r := image.Rectangle{Min: m.at, Max: m.at.Add(s.logical(m))}
		logicalRects = append(logicalRects, r)
		xr := image.Rect(int(math.Round(float64(r.Min.X)*f)), int(math.Round(float64(r.Min.Y)*f)),
			int(math.Round(float64(r.Max.X)*f)), int(math.Round(float64(r.Max.Y)*f)))
		xRects = append(xRects, xr)
		stage = image.Pt(max(stage.X, r.Max.X), max(stage.Y, r.Max.Y))
		x = image.Pt(max(x.X, xr.Max.X), max(x.Y, xr.Max.Y))
	}
	return stage, x, logicalRects, xRects
}

func TestXScaleSettings(t *testing.T) {
	hd := image.Pt(1920, 1080)
	uhd := image.Pt(3840, 2160)
	screens := map[string][]testMonitor{
		"scale 1":    {{hd, 1, image.Pt(0, 0)}},
		"scale 2":    {{uhd, 2, image.Pt(0, 0)}},
		"scale 1.25": {{hd, 1.25, image.Pt(0, 0)}},
		"scale 1.5":  {{uhd, 1.5, image.Pt(0, 0)}},
	}
	for _, s := range settings {
		// Two monitors, 2 and 1, side by side: the second begins where
		// the first ends in the compositor's coordinates.
		first := testMonitor{uhd, 2, image.Pt(0, 0)}
		screens["two monitors 2 and 1 under "+s.name] = []testMonitor{first, {hd, 1, image.Pt(s.logical(first).X, 0)}}
		first = testMonitor{hd, 1, image.Pt(0, 0)}
		screens["two monitors 1 and 1.5 under "+s.name] = []testMonitor{first, {uhd, 1.5, image.Pt(s.logical(first).X, 0)}}
	}
	for _, s := range settings {
		for name, ms := range screens {
			stage, xs, lrs, xrs := layout(s, ms)
			f := fromSizes(stage, xs)
			if want := s.xScale(ms); float64(f) != want {
				t.Errorf("%s, %s: factor %v, want %v (stage %v, X %v)", s.name, name, f, want, stage, xs)
				continue
			}
			for i, lr := range lrs {
				// A window filling the monitor, and one on its top left
				// quarter: a pet sitting on it sits on the same pixels.
				if got := f.rect(lr); got != xrs[i] {
					t.Errorf("%s, %s: monitor %d at %v maps to %v, want %v", s.name, name, i, lr, got, xrs[i])
				}
				q := image.Rectangle{Min: lr.Min, Max: lr.Min.Add(lr.Size().Div(2))}
				got := f.rect(q)
				if d := got.Min.Sub(xrs[i].Min); d != (image.Point{}) {
					t.Errorf("%s, %s: a window at the monitor's corner is off by %v", s.name, name, d)
				}
				if w := xrs[i].Dx() / 2; got.Dx() < w-1 || got.Dx() > w+1 {
					t.Errorf("%s, %s: a half-wide window is %d wide in X, want %d", s.name, name, got.Dx(), w)
				}
			}
		}
	}
}

func TestXScaleFromSizes(t *testing.T) {
	for _, c := range []struct {
		stage, x image.Point
		want     xScale
	}{
		{image.Pt(1920, 1080), image.Pt(1920, 1080), 1},
		{image.Pt(1920, 1080), image.Pt(3840, 2160), 2},
		{image.Pt(1536, 864), image.Pt(1920, 1080), 1.25},
		{image.Pt(911, 512), image.Pt(1366, 768), 1.5},  // sizes rounded by the compositor
		{image.Pt(0, 0), image.Pt(1920, 1080), 1},       // an extension that tells no size
		{image.Pt(1920, 1080), image.Pt(0, 0), 1},       // no X answer
		{image.Pt(1920, 1080), image.Pt(3840, 1080), 1}, // width and height disagree
		{image.Pt(1, 1), image.Pt(1920, 1080), 1},       // out of any scale
	} {
		if got := fromSizes(c.stage, c.x); got != c.want {
			t.Errorf("fromSizes(%v, %v) = %v, want %v", c.stage, c.x, got, c.want)
		}
	}
	if r := xScale(1.5).rect(image.Rect(-10, 3, 11, 5)); r != image.Rect(-15, 5, 17, 8) {
		t.Errorf("rect = %v", r)
	}
}

// The compositor's facts of a desktop scaled by 2 (KWin's XWayland scale,
// mutter's native scaling) come out in X coordinates: the windows' frames
// and the watches' moves, and again after the screen is rescaled.
func TestFactTableScaled(t *testing.T) {
	xSize := image.Pt(3840, 2160)
	tab := newFactTable(func() image.Point { return xSize })
	mustApply(t, tab, `{"kind":"all","windows":[
	  {"id":"7","title":"Notes","x":100,"y":50,"width":300,"height":200,"scale":2,"normal":true}],
	  "focus":"7","order":["7"],"stage":{"width":1920,"height":1080}}`)
	ws, _, ok := tab.windows()
	if !ok || len(ws) != 1 || ws[0].Frame != image.Rect(200, 100, 800, 500) {
		t.Fatalf("windows = %+v", ws)
	}
	var got []Change
	stop, ok := tab.watch(nativeBit|7, func(c Change) { got = append(got, c) })
	if !ok {
		t.Fatal("no watch")
	}
	defer stop()
	mustApply(t, tab, `{"kind":"window","window":{"id":"7","x":101,"y":50,"width":300,"height":200}}`)
	if len(got) != 1 || got[0].Window.Frame != image.Rect(202, 100, 802, 500) {
		t.Fatalf("changes = %+v", got)
	}
	// The monitor set to 1.25: the compositor tells everything again.
	xSize = image.Pt(1920, 1080)
	mustApply(t, tab, `{"kind":"all","windows":[
	  {"id":"7","title":"Notes","x":80,"y":40,"width":240,"height":160,"scale":1.25,"normal":true}],
	  "focus":"7","order":["7"],"stage":{"width":1536,"height":864}}`)
	if ws, _, _ := tab.windows(); ws[0].Frame != image.Rect(100, 50, 400, 250) {
		t.Fatalf("after the rescale: %v", ws[0].Frame)
	}
	if len(got) != 2 || got[1].Window.Frame != image.Rect(100, 50, 400, 250) {
		t.Fatalf("changes = %+v", got)
	}
	// An extension of before the size was told: the frames as they come.
	mustApply(t, tab, `{"kind":"all","windows":[{"id":"7","x":80,"y":40,"width":240,"height":160}],"order":["7"]}`)
	if ws, _, _ := tab.windows(); ws[0].Frame != image.Rect(80, 40, 320, 200) {
		t.Fatalf("without a size: %v", ws[0].Frame)
	}
}
