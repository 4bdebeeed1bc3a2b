package settingswindow

import (
	"fmt"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"yui/pet/voice"
)

// The level meter's scale, in dBFS.
const (
	meterMin = -90.0
	meterMax = 0.0
)

// levelMeter is the Voice tab's microphone level: a bar for the level, a
// line for the voice-activity threshold (floor + sensitivity), and the
// figures. Set it from the UI goroutine.
type levelMeter struct {
	widget.BaseWidget
	r      voice.Reading
	active bool // a reading arrived since the meter started
	note   string
}

func newLevelMeter() *levelMeter {
	m := &levelMeter{note: lang.L("Not listening")}
	m.ExtendBaseWidget(m)
	return m
}

// Set shows a reading.
func (m *levelMeter) Set(r voice.Reading) {
	m.r, m.active, m.note = r, true, ""
	m.Refresh()
}

// SetNote shows text instead of figures (not listening, an error).
func (m *levelMeter) SetNote(text string) {
	m.active, m.note = false, text
	m.Refresh()
}

// Text is what the meter says in words: the level and the threshold, or
// its note.
func (m *levelMeter) Text() string {
	if !m.active {
		return m.note
	}
	return lang.L("{{.Level}} dBFS · voice from {{.Threshold}} dBFS", map[string]any{"Level": fmt.Sprintf("%.0f", m.r.Level), "Threshold": fmt.Sprintf("%.0f", m.r.Threshold)})
}

func (m *levelMeter) MinSize() fyne.Size { return fyne.NewSize(240, 40) }

func (m *levelMeter) CreateRenderer() fyne.WidgetRenderer {
	r := &meterRenderer{m: m,
		track:  canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground)),
		bar:    canvas.NewRectangle(theme.Color(theme.ColorNameSuccess)),
		thresh: canvas.NewRectangle(theme.Color(theme.ColorNameError)),
		text:   canvas.NewText("", theme.Color(theme.ColorNameForeground)),
	}
	r.track.CornerRadius = 3
	r.text.TextSize = theme.CaptionTextSize()
	r.Refresh()
	return r
}

type meterRenderer struct {
	m                  *levelMeter
	track, bar, thresh *canvas.Rectangle
	text               *canvas.Text
}

// frac places a dBFS value on the bar, 0 to 1.
func frac(db float64) float32 {
	return float32(min(max((db-meterMin)/(meterMax-meterMin), 0), 1))
}

func (r *meterRenderer) Layout(size fyne.Size) {
	barH := size.Height * 0.45
	r.track.Move(fyne.NewPos(0, 0))
	r.track.Resize(fyne.NewSize(size.Width, barH))
	level, thr := float32(0), float32(-1)
	if r.m.active {
		level, thr = frac(r.m.r.Level), frac(r.m.r.Threshold)
	}
	r.bar.Move(fyne.NewPos(0, 0))
	r.bar.Resize(fyne.NewSize(size.Width*level, barH))
	r.thresh.Hidden = thr < 0
	r.thresh.Move(fyne.NewPos(size.Width*max(thr, 0)-1, -2))
	r.thresh.Resize(fyne.NewSize(2, barH+4))
	r.text.Move(fyne.NewPos(0, barH+2))
}

func (r *meterRenderer) MinSize() fyne.Size { return r.m.MinSize() }

func (r *meterRenderer) Refresh() {
	r.text.Text = r.m.Text()
	col := theme.Color(theme.ColorNameSuccess)
	if r.m.active && r.m.r.Level < r.m.r.Threshold {
		col = color.NRGBA{0x9a, 0xa0, 0xb0, 0xff} // below the threshold: not voice
	}
	r.bar.FillColor = col
	r.Layout(r.m.Size())
	r.track.Refresh()
	r.bar.Refresh()
	r.thresh.Refresh()
	r.text.Refresh()
}

func (r *meterRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.track, r.bar, r.thresh, r.text}
}

func (r *meterRenderer) Destroy() {}
