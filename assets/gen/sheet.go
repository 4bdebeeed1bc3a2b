package main

import (
	"image"
	"image/color"
	"image/draw"

	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// contactSheet lays out every emotion and motion frame: at full size on a
// light and a dark background, at 96 px tall on both, and as the X11 window
// mask would cut it (alpha above 50%) over a busy wallpaper.
func contactSheet() *image.RGBA {
	emo, mot := sheetCells()
	light := color.RGBA{0xf4, 0xf1, 0xec, 0xff}
	dark := color.RGBA{0x22, 0x24, 0x2c, 0xff}
	s := newSheetWriter(len(emo), len(mot))
	s.heading("Yui - emotions and motions at 1x (192x256) on light")
	s.big(emo, light, false)
	s.big(mot, light, false)
	s.heading("on dark")
	s.big(emo, dark, false)
	s.big(mot, dark, false)
	s.heading("96 px tall, light and dark; then the X11 1-bit window mask (alpha > 50%) over a busy wallpaper")
	s.smallRow(append(append([]sheetCell{}, emo...), mot...), light)
	s.smallRow(append(append([]sheetCell{}, emo...), mot...), dark)
	s.big(emo, nil, true)
	return s.img.SubImage(image.Rect(0, 0, s.img.Bounds().Dx(), s.y)).(*image.RGBA)
}

// sheetCell is one image on the contact sheet and its label.
type sheetCell struct {
	label string
	img   *image.RGBA
}

// sheetCells renders every emotion, and every motion's frames labelled
// with the frame's number.
func sheetCells() (emo, mot []sheetCell) {
	for _, e := range emotions() {
		emo = append(emo, sheetCell{e.id, render(e.pose)})
	}
	for _, m := range motions() {
		for i, p := range m.frames {
			mot = append(mot, sheetCell{m.id + string(rune('0'+i)), render(p)})
		}
	}
	return emo, mot
}

// The contact sheet's geometry, in pixels.
const (
	sheetFull        = 192 // cell width at logical size (1x)
	sheetFullH       = 256
	sheetSmall       = 72 // 96 px tall is 72 px wide
	sheetPad         = 16
	sheetLabel       = 16
	sheetPerRow      = 10 // full-size cells a row
	sheetSmallPerRow = 24 // 96 px cells a row
)

// sheetWriter draws the contact sheet top to bottom; y is where the next
// part goes.
type sheetWriter struct {
	img *image.RGBA
	y   int
}

// newSheetWriter makes a sheet tall enough for every part contactSheet
// draws of emo emotions and mot motion frames.
func newSheetWriter(emo, mot int) *sheetWriter {
	rows := func(n int) int { return (n + sheetPerRow - 1) / sheetPerRow }
	bigRows := rows(emo) + rows(mot)
	smallRows := (emo + mot + sheetSmallPerRow - 1) / sheetSmallPerRow
	W := sheetPad + sheetPerRow*(sheetFull+sheetPad)
	H := sheetPad + 2*bigRows*(sheetFullH+sheetLabel+sheetPad) + 2*smallRows*(96+sheetPad) + rows(emo)*(sheetFullH+sheetLabel+sheetPad) + 3*(sheetLabel+sheetPad) + sheetFullH
	img := image.NewRGBA(image.Rect(0, 0, W, H))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.RGBA{0xd8, 0xd4, 0xcc, 0xff}), image.Point{}, draw.Src)
	return &sheetWriter{img: img, y: sheetPad}
}

// heading writes a section's title.
func (s *sheetWriter) heading(title string) {
	text(s.img, sheetPad, s.y+12, title, color.RGBA{0x30, 0x30, 0x30, 0xff})
	s.y += sheetLabel + sheetPad/2
}

// big draws cells at full size, labelled, on bg or, with mask, cut by the
// window mask over the wallpaper.
func (s *sheetWriter) big(cells []sheetCell, bg color.Color, mask bool) {
	for i, c := range cells {
		x := sheetPad + (i%sheetPerRow)*(sheetFull+sheetPad)
		if i > 0 && i%sheetPerRow == 0 {
			s.y += sheetFullH + sheetLabel + sheetPad
		}
		r := image.Rect(x, s.y+sheetLabel, x+sheetFull, s.y+sheetLabel+sheetFullH)
		if mask {
			checker(s.img, r)
		} else {
			draw.Draw(s.img, r, image.NewUniform(bg), image.Point{}, draw.Src)
		}
		var src image.Image = c.img
		if mask {
			src = cutMask(c.img)
		}
		xdraw.CatmullRom.Scale(s.img, r, src, src.Bounds(), xdraw.Over, nil)
		text(s.img, x+2, s.y+12, c.label, color.RGBA{0x30, 0x30, 0x30, 0xff})
	}
	s.y += sheetFullH + sheetLabel + sheetPad
}

// smallRow draws cells 96 px tall on bg, unlabelled.
func (s *sheetWriter) smallRow(cells []sheetCell, bg color.Color) {
	for i, c := range cells {
		if i > 0 && i%sheetSmallPerRow == 0 {
			s.y += 96 + sheetPad
		}
		x := sheetPad + (i%sheetSmallPerRow)*(sheetSmall+8)
		r := image.Rect(x, s.y, x+sheetSmall, s.y+96)
		draw.Draw(s.img, r, image.NewUniform(bg), image.Point{}, draw.Src)
		xdraw.CatmullRom.Scale(s.img, r, c.img, c.img.Bounds(), xdraw.Over, nil)
	}
	s.y += 96 + sheetPad
}

// cutMask keeps only the pixels the X11 shape mask keeps, opaque.
func cutMask(img *image.RGBA) *image.RGBA {
	out := image.NewRGBA(img.Bounds())
	for i := 0; i < len(img.Pix); i += 4 {
		if img.Pix[i+3] > 127 {
			a := uint32(img.Pix[i+3])
			for k := 0; k < 3; k++ {
				out.Pix[i+k] = uint8(uint32(img.Pix[i+k]) * 255 / a)
			}
			out.Pix[i+3] = 255
		}
	}
	return out
}

// checker fills r with a high-contrast wallpaper-like pattern.
func checker(dst *image.RGBA, r image.Rectangle) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := color.RGBA{0x3a, 0x6e, 0xa5, 0xff}
			if ((x-r.Min.X)/16+(y-r.Min.Y)/16)%2 == 0 {
				c = color.RGBA{0xf0, 0xe0, 0x90, 0xff}
			}
			dst.SetRGBA(x, y, c)
		}
	}
}

func text(dst draw.Image, x, y int, s string, c color.Color) {
	d := font.Drawer{Dst: dst, Src: image.NewUniform(c), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
	d.DrawString(s)
}
