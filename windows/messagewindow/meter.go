package messagewindow

import (
	"fmt"
	"strconv"
	"yui/windows/widgets"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"
)

// heartPath is a heart in a 24×24 box (the usual "favorite" shape).
const heartPath = "M12 21.35l-1.45-1.32C5.4 15.36 2 12.28 2 8.5 2 5.42 4.42 3 7.5 3c1.74 0 3.41.81 4.5 2.09C13.09 3.81 14.76 3 16.5 3 19.58 3 22 5.42 22 8.5c0 3.78-3.4 6.86-8.55 11.54L12 21.35z"

func heartSVG(name, fill string) fyne.Resource {
	svg := fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="%s" fill="%s"/></svg>`, heartPath, fill)
	return fyne.NewStaticResource(name, []byte(svg))
}

var (
	heartFull  = heartSVG("heart-full.svg", "#e0245e")
	heartEmpty = heartSVG("heart-empty.svg", "#d3d6de")
)

const (
	heartSize = 14
	heartGap  = 2
)

// heartMeter is the relation meter (docs/protocol/client-tools.md rate_relation): one
// filled heart per level reached, the level's name and the score.
type heartMeter struct {
	widget.BaseWidget
	score int
}

func newHeartMeter(score int) *heartMeter {
	m := &heartMeter{score: score}
	m.ExtendBaseWidget(m)
	return m
}

// setScore shows a new score.
func (m *heartMeter) setScore(score int) {
	if score == m.score {
		return
	}
	m.score = score
	m.Refresh()
}

// label is the meter's words: "warm 64".
func (m *heartMeter) label() string {
	return levelOf(m.score).String() + " " + strconv.Itoa(min(max(m.score, 0), 100))
}

func (m *heartMeter) CreateRenderer() fyne.WidgetRenderer {
	r := &heartMeterRenderer{m: m, text: canvas.NewText("", widgets.ColInk)}
	r.text.TextSize = chipTextSize
	for range relationLevels {
		img := canvas.NewImageFromResource(heartEmpty)
		img.FillMode = canvas.ImageFillContain
		r.hearts = append(r.hearts, img)
	}
	r.Refresh()
	return r
}

type heartMeterRenderer struct {
	m      *heartMeter
	hearts []*canvas.Image
	text   *canvas.Text
}

func (r *heartMeterRenderer) Layout(size fyne.Size) {
	y := (size.Height - heartSize) / 2
	x := float32(0)
	for _, h := range r.hearts {
		h.Move(fyne.NewPos(x, y))
		h.Resize(fyne.NewSize(heartSize, heartSize))
		x += heartSize + heartGap
	}
	ts := r.text.MinSize()
	r.text.Move(fyne.NewPos(x+4, (size.Height-ts.Height)/2))
	r.text.Resize(ts)
}

func (r *heartMeterRenderer) MinSize() fyne.Size {
	ts := fyne.MeasureText(r.m.label(), chipTextSize, fyne.TextStyle{})
	w := relationLevels*(heartSize+heartGap) + 4 + ts.Width
	return fyne.NewSize(w, max(ts.Height, heartSize))
}

func (r *heartMeterRenderer) Refresh() {
	filled := int(levelOf(r.m.score)) + 1
	for i, h := range r.hearts {
		res := heartEmpty
		if i < filled {
			res = heartFull
		}
		if h.Resource != res {
			h.Resource = res
			h.Refresh()
		}
	}
	r.text.Text = r.m.label()
	r.text.Color = widgets.ColInk
	r.text.Refresh()
	r.Layout(r.m.Size())
}

func (r *heartMeterRenderer) Objects() []fyne.CanvasObject {
	objs := make([]fyne.CanvasObject, 0, len(r.hearts)+1)
	for _, h := range r.hearts {
		objs = append(objs, h)
	}
	return append(objs, r.text)
}

func (r *heartMeterRenderer) Destroy() {}
