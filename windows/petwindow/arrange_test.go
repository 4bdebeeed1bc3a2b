package petwindow

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// The numbers below are the places the pet window's parts had before
// they were worked out by arrange (the render of layout.go laid them out
// itself): the e2e tests' positions and screenshots depend on them. The
// default character is 192x256, so the window is 360 wide, the character
// at 84,150, the plate row at y 410, the pill row at 436, the composer at
// 462 and the error line at 506.
func TestArrange(t *testing.T) {
	test.NewTempApp(t)
	g := newGeometry(nil)
	tag := func(w float32) partView { return partView{fyne.NewSize(w, 22), true} }
	hidden := func(w float32) partView { return partView{fyne.NewSize(w, 22), false} }
	at := func(x, y, w, h float32) spot { return spot{fyne.NewPos(x, y), fyne.NewSize(w, h)} }
	standing := partsFrame{rows: rowsFor(g, 207, false)}
	plain := composerSpots{
		bg: at(8, 462, 344, 40), attach: at(12, 466, 32, 32), send: at(316, 466, 32, 32), entry: at(48, 466, 264, 32),
	}
	cases := []struct {
		name string
		v    partsView
		want partsPlacement
	}{{
		name: "idle: the pill alone, centred under the character",
		v:    partsView{pill: tag(120), badge: hidden(20), plate: hidden(20), caption: hidden(20), chip: hidden(20), errLine: hidden(20), frame: standing},
		want: partsPlacement{
			badge: at(256, 152, 20, 22), plate: at(170, 410, 20, 22), caption: at(170, 410, 20, 22),
			eye: at(120, 436, 22, 22), pill: at(120, 436, 120, 22), chip: at(244, 436, 20, 22), errLine: at(20, 506, 20, 22),
			composer: plain,
		},
	}, {
		name: "talking: the bubble over the badge's corner, a plate, the eye and the chip by the pill",
		v: partsView{
			bubble: partView{fyne.NewSize(200, 80), true},
			badge:  tag(30), plate: tag(80), caption: tag(100), pill: tag(150), chip: tag(60), errLine: hidden(20),
			watching: true, hasPlate: true, frame: standing,
		},
		want: partsPlacement{
			bubble: at(80, 127, 200, 80),
			badge:  at(262, 116, 30, 22), plate: at(140, 410, 80, 22), caption: at(130, 380, 100, 22),
			eye: at(60, 436, 22, 22), pill: at(86, 436, 150, 22), chip: at(240, 436, 60, 22), errLine: at(20, 506, 20, 22),
			composer: plain,
		},
	}, {
		name: "sitting at a monitor's top, composer open: the rows above the head, the bubble under the composer",
		v: partsView{
			bubble: partView{fyne.NewSize(200, 100), true},
			badge:  hidden(30), plate: hidden(20), caption: hidden(20), pill: tag(100), chip: hidden(20), errLine: tag(150),
			mic: true, screen: true,
			frame: partsFrame{rows: rowsFor(g, 200, true), rise: 60, composerOpen: true},
		},
		want: partsPlacement{
			bubble: at(80, 506, 200, 100), bubbleBelow: true,
			badge: at(246, 152, 30, 22), plate: at(170, 152, 20, 22), caption: at(170, 152, 20, 22),
			eye: at(130, 178, 22, 22), pill: at(130, 178, 100, 22), chip: at(234, 178, 20, 22), errLine: at(20, 506, 150, 22),
			composer: composerSpots{
				bg: at(8, 462, 344, 40), attach: at(12, 466, 32, 32), screen: at(48, 466, 32, 32), entry: at(84, 466, 192, 32),
				mic: at(280, 466, 32, 32), send: at(316, 466, 32, 32),
			},
		},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := arrange(c.v, g); got != c.want {
				t.Errorf("arrange\n got %+v\nwant %+v", got, c.want)
			}
		})
	}
}

func TestBubbleYRisen(t *testing.T) {
	test.NewTempApp(t)
	g := newGeometry(nil)
	for _, c := range []struct {
		f         partsFrame
		wantY     float32
		wantBelow bool
	}{
		{partsFrame{}, 107, false},
		{partsFrame{rise: 108}, 462, true},
		{partsFrame{rise: 108, composerOpen: true}, 506, true},
	} {
		if y, below := bubbleY(207, 100, c.f, g); y != c.wantY || below != c.wantBelow {
			t.Errorf("bubbleY(207, 100, %+v) = %v, %v; want %v, %v", c.f, y, below, c.wantY, c.wantBelow)
		}
	}
}

func TestPillMaxWidth(t *testing.T) {
	test.NewTempApp(t)
	g := newGeometry(nil)
	if got := pillMaxWidth(g, false, false, 60); got != 344 {
		t.Errorf("alone: %v, want 344", got)
	}
	if got := pillMaxWidth(g, true, true, 60); got != 254 {
		t.Errorf("with the eye and a 60-wide chip: %v, want 254", got)
	}
}
