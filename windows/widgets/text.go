package widgets

import (
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// WrapText breaks text into at most maxLines lines no wider than width,
// where the language lets a line break (Wrap) and inside a word when it
// must. A text that needs more lines ends its last line with an ellipsis.
func WrapText(text string, width, size float32, maxLines int) []string {
	style := fyne.TextStyle{}
	fits := func(s string) bool { return fyne.MeasureText(s, size, style).Width <= width }
	lines := Wrap(text, fits)
	if len(lines) > maxLines {
		lines = lines[:maxLines]
		last := []rune(lines[maxLines-1])
		for len(last) > 0 && !fits(string(last)+"…") {
			last = last[:len(last)-1]
		}
		lines[maxLines-1] = strings.TrimRight(string(last), " ") + "…"
	}
	return lines
}

// CutText cuts text to width, ending it with an ellipsis when cut.
func CutText(text string, width, size float32, style fyne.TextStyle) string {
	if fyne.MeasureText(text, size, style).Width <= width {
		return text
	}
	r := []rune(text)
	for len(r) > 0 && fyne.MeasureText(string(r)+"…", size, style).Width > width {
		r = r[:len(r)-1]
	}
	return strings.TrimRight(string(r), " ") + "…"
}

// TextLines are the canvas texts of a wrapped text, one a line, for the
// renderers of the tag and the bubble: texts are kept between refreshes
// (the ones past the last line hidden) and follow the renderer's own
// objects in objs.
type TextLines struct {
	texts []*canvas.Text
	Objs  []fyne.CanvasObject
}

// Set shows lines in fg and style at size, after the objects own.
func (l *TextLines) Set(lines []string, fg color.Color, size float32, style fyne.TextStyle, own ...fyne.CanvasObject) {
	for len(l.texts) < len(lines) {
		t := canvas.NewText("", fg)
		t.TextSize = size
		l.texts = append(l.texts, t)
	}
	for i, t := range l.texts {
		t.Hidden = i >= len(lines)
		if !t.Hidden {
			t.Text = lines[i]
		}
		t.Color, t.TextStyle = fg, style
	}
	l.Objs = append(l.Objs[:0], own...)
	for _, t := range l.texts {
		l.Objs = append(l.Objs, t)
	}
}

// Texts are the line texts, for a renderer's Layout to place.
func (l *TextLines) Texts() []*canvas.Text { return l.texts }

// Refresh refreshes every object.
func (l *TextLines) Refresh() {
	for _, o := range l.Objs {
		o.Refresh()
	}
}
