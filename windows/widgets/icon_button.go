package widgets

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// IconButton is a round-cornered button showing only an icon: the
// composer's attach and send/stop buttons. Unlike widget.Button it measures
// no text, so the bold font faces (several MiB) are never loaded.
type IconButton struct {
	widget.BaseWidget
	Icon fyne.Resource
	// Importance picks the colours: widget.HighImportance (primary
	// colour), widget.DangerImportance (error colour) or
	// widget.LowImportance (no background until hovered).
	Importance widget.Importance
	OnTapped   func()

	hovered bool
}

var (
	_ fyne.Tappable     = (*IconButton)(nil)
	_ desktop.Hoverable = (*IconButton)(nil)
)

func NewIconButton(icon fyne.Resource, imp widget.Importance, tapped func()) *IconButton {
	b := &IconButton{Icon: icon, Importance: imp, OnTapped: tapped}
	b.ExtendBaseWidget(b)
	return b
}

// Set changes the icon and colours, redrawing only when they changed.
func (b *IconButton) Set(icon fyne.Resource, imp widget.Importance) {
	if b.Icon == icon && b.Importance == imp {
		return
	}
	b.Icon, b.Importance = icon, imp
	b.Refresh()
}

func (b *IconButton) Tapped(*fyne.PointEvent) {
	if b.OnTapped != nil {
		b.OnTapped()
	}
}

func (b *IconButton) MouseIn(*desktop.MouseEvent) { b.hovered = true; b.Refresh() }

func (b *IconButton) MouseMoved(*desktop.MouseEvent) {}

func (b *IconButton) MouseOut() { b.hovered = false; b.Refresh() }

// Cursor is the hand pointer.
func (b *IconButton) Cursor() desktop.Cursor { return desktop.PointerCursor }

func (b *IconButton) MinSize() fyne.Size { return fyne.NewSize(32, 32) }

func (b *IconButton) CreateRenderer() fyne.WidgetRenderer {
	r := &iconButtonRenderer{b: b, bg: canvas.NewRectangle(color.Transparent), icon: canvas.NewImageFromResource(nil)}
	r.bg.CornerRadius = 8
	r.icon.FillMode = canvas.ImageFillContain
	r.Refresh()
	return r
}

type iconButtonRenderer struct {
	b    *IconButton
	bg   *canvas.Rectangle
	icon *canvas.Image
	res  fyne.Resource // the coloured icon showing
}

func (r *iconButtonRenderer) Layout(size fyne.Size) {
	r.bg.Resize(size)
	const pad = 6
	r.icon.Move(fyne.NewPos(pad, pad))
	r.icon.Resize(fyne.NewSize(size.Width-2*pad, size.Height-2*pad))
}

func (r *iconButtonRenderer) MinSize() fyne.Size { return r.b.MinSize() }

func (r *iconButtonRenderer) Refresh() {
	th := r.b.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	var bg color.Color = color.Transparent
	fg := theme.ColorNameForeground
	switch r.b.Importance {
	case widget.HighImportance:
		bg, fg = th.Color(theme.ColorNamePrimary, v), theme.ColorNameForegroundOnPrimary
	case widget.DangerImportance:
		bg, fg = th.Color(theme.ColorNameError, v), theme.ColorNameForegroundOnError
	}
	if r.b.hovered {
		if r.b.Importance == widget.LowImportance {
			bg = th.Color(theme.ColorNameHover, v)
		} else {
			bg = blend(bg, th.Color(theme.ColorNameHover, v))
		}
	}
	r.bg.FillColor = bg
	r.bg.Refresh()
	if r.b.Icon != nil {
		if res := theme.NewColoredResource(r.b.Icon, fg); r.res == nil || r.res.Name() != res.Name() {
			r.res = res
			r.icon.Resource = res
			r.icon.Refresh()
		}
	}
	r.Layout(r.b.Size())
}

func (r *iconButtonRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.bg, r.icon}
}

func (r *iconButtonRenderer) Destroy() {}

// blend lays over (with its alpha) on top of base.
func blend(base, over color.Color) color.Color {
	br, bg, bb, ba := base.RGBA()
	or, og, ob, oa := over.RGBA()
	mix := func(b, o uint32) uint8 { return uint8((o + b*(0xffff-oa)/0xffff) >> 8) }
	return color.NRGBA{mix(br, or), mix(bg, og), mix(bb, ob), uint8(max(ba, oa) >> 8)}
}
