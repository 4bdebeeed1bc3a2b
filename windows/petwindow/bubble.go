package petwindow

import (
	"image/color"
	"yui/windows/widgets"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"
)

// Sizes of the speech bubble.
const (
	bubbleTextSize = 14
	bubblePad      = 10
	bubbleRadius   = 12
	tailW, tailH   = 22, 12
	maxBubbleLines = 6
)

// bubble is the speech bubble: dark text wrapped on a white rounded
// rectangle with a tail under it pointing at the character.
type bubble struct {
	widget.BaseWidget
	Text string
	// MaxWidth is the widest the bubble grows, tail and border included.
	MaxWidth float32
	OnTapped func()
	// Below puts the tail on top, pointing up at a character the bubble
	// sits under (no room above it, toproom.go).
	Below bool

	memoText  string
	memoWidth float32
	memoLines []string
	memoSize  fyne.Size
}

func newBubble(maxWidth float32) *bubble {
	b := &bubble{MaxWidth: maxWidth}
	b.ExtendBaseWidget(b)
	return b
}

// Tapped runs OnTapped.
func (b *bubble) Tapped(*fyne.PointEvent) {
	if b.OnTapped != nil {
		b.OnTapped()
	}
}

// lines wraps the text to the bubble's width.
func (b *bubble) lines() []string {
	b.layout()
	return b.memoLines
}

// layout wraps the text and sizes the bubble unless the text or width
// changed since the last call (the driver asks for the minimum size
// before every repaint).
func (b *bubble) layout() {
	if b.memoLines != nil && b.memoText == b.Text && b.memoWidth == b.MaxWidth {
		return
	}
	b.memoText, b.memoWidth = b.Text, b.MaxWidth
	b.memoLines = widgets.WrapText(b.Text, b.MaxWidth-2*bubblePad, bubbleTextSize, maxBubbleLines)
	var w float32
	for _, l := range b.memoLines {
		w = max(w, fyne.MeasureText(l, bubbleTextSize, fyne.TextStyle{}).Width)
	}
	lh := lineHeight()
	b.memoSize = fyne.NewSize(float32(int(w+2*bubblePad+0.999)), float32(int(float32(len(b.memoLines))*lh+2*bubblePad+tailH+0.999)))
}

// MinSize is the wrapped text's size plus padding and the tail.
func (b *bubble) MinSize() fyne.Size {
	b.layout()
	return b.memoSize
}

// bodyRect is the rounded body of a bubble of size s (the tail is under it).
func bubbleBody(s fyne.Size) fyne.Size { return fyne.NewSize(s.Width, s.Height-tailH) }

func lineHeight() float32 {
	return fyne.MeasureText("Ag", bubbleTextSize, fyne.TextStyle{}).Height
}

func (b *bubble) CreateRenderer() fyne.WidgetRenderer {
	r := &bubbleRenderer{b: b, body: canvas.NewRectangle(widgets.ColBubble)}
	r.body.CornerRadius = bubbleRadius
	r.body.StrokeColor = widgets.ColBubbleStroke
	r.body.StrokeWidth = 1
	r.tail = canvas.NewRasterWithPixels(func(x, y, w, h int) color.Color {
		// A downward triangle: full width at the top, a point at the
		// bottom; upward under the character.
		if b.Below {
			y = h - 1 - y
		}
		half := float64(w) / 2 * float64(h-y) / float64(h)
		if d := float64(x) + 0.5 - float64(w)/2; d >= -half && d <= half {
			if d <= -half+1 || d >= half-1 {
				return widgets.ColBubbleStroke
			}
			return widgets.ColBubble
		}
		return color.Transparent
	})
	r.Refresh()
	return r
}

type bubbleRenderer struct {
	b     *bubble
	body  *canvas.Rectangle
	tail  *canvas.Raster
	lines widgets.TextLines
}

func (r *bubbleRenderer) Layout(size fyne.Size) {
	body := bubbleBody(size)
	var top float32 // the body's top: under the tail when Below
	r.body.Resize(body)
	if r.b.Below {
		top = tailH
		r.tail.Move(fyne.NewPos((size.Width-tailW)/2, 0))
	} else {
		r.tail.Move(fyne.NewPos((size.Width-tailW)/2, body.Height-1))
	}
	r.body.Move(fyne.NewPos(0, top))
	r.tail.Resize(fyne.NewSize(tailW, tailH+1))
	lh := lineHeight()
	for i, t := range r.lines.Texts() {
		t.Move(fyne.NewPos(bubblePad, top+bubblePad+float32(i)*lh))
		t.Resize(fyne.NewSize(body.Width-2*bubblePad, lh))
	}
}

func (r *bubbleRenderer) MinSize() fyne.Size { return r.b.MinSize() }

func (r *bubbleRenderer) Refresh() {
	r.lines.Set(r.b.lines(), widgets.ColInk, bubbleTextSize, fyne.TextStyle{}, r.tail, r.body)
	r.Layout(r.b.Size())
	r.lines.Refresh()
}

func (r *bubbleRenderer) Objects() []fyne.CanvasObject { return r.lines.Objs }

func (r *bubbleRenderer) Destroy() {}
