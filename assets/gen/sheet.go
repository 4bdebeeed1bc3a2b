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
	type cell struct {
		label string
		img   *image.RGBA
	}
	var emo, mot []cell
	for _, e := range emotions() {
		emo = append(emo, cell{e.id, render(e.pose)})
	}
	for _, m := range motions() {
		for i, p := range m.frames {
			mot = append(mot, cell{m.id + string(rune('0'+i)), render(p)})
		}
	}
	const (
		full  = 192 // cell width at logical size (1x)
		fullH = 256
		small = 72 // 96 px tall is 72 px wide
		pad   = 16
		label = 16
	)
	light := color.RGBA{0xf4, 0xf1, 0xec, 0xff}
	dark := color.RGBA{0x22, 0x24, 0x2c, 0xff}
	perRow := 10
	rows := func(n int) int { return (n + perRow - 1) / perRow }
	bigRows := rows(len(emo)) + rows(len(mot))
	smallCells := len(emo) + len(mot)
	smallPerRow := 24
	smallRows := (smallCells + smallPerRow - 1) / smallPerRow
	W := pad + perRow*(full+pad)
	H := pad + 2*bigRows*(fullH+label+pad) + 2*smallRows*(96+pad) + rows(len(emo))*(fullH+label+pad) + 3*(label+pad) + fullH
	sheet := image.NewRGBA(image.Rect(0, 0, W, H))
	draw.Draw(sheet, sheet.Bounds(), image.NewUniform(color.RGBA{0xd8, 0xd4, 0xcc, 0xff}), image.Point{}, draw.Src)
	y := pad
	heading := func(s string) {
		text(sheet, pad, y+12, s, color.RGBA{0x30, 0x30, 0x30, 0xff})
		y += label + pad/2
	}
	big := func(cells []cell, bg color.Color, mask bool) {
		for i, c := range cells {
			x := pad + (i%perRow)*(full+pad)
			if i > 0 && i%perRow == 0 {
				y += fullH + label + pad
			}
			r := image.Rect(x, y+label, x+full, y+label+fullH)
			if mask {
				checker(sheet, r)
			} else {
				draw.Draw(sheet, r, image.NewUniform(bg), image.Point{}, draw.Src)
			}
			var src image.Image = c.img
			if mask {
				src = cutMask(c.img)
			}
			xdraw.CatmullRom.Scale(sheet, r, src, src.Bounds(), xdraw.Over, nil)
			text(sheet, x+2, y+12, c.label, color.RGBA{0x30, 0x30, 0x30, 0xff})
		}
		y += fullH + label + pad
	}
	smallRow := func(cells []cell, bg color.Color) {
		for i, c := range cells {
			if i > 0 && i%smallPerRow == 0 {
				y += 96 + pad
			}
			x := pad + (i%smallPerRow)*(small+8)
			r := image.Rect(x, y, x+small, y+96)
			draw.Draw(sheet, r, image.NewUniform(bg), image.Point{}, draw.Src)
			xdraw.CatmullRom.Scale(sheet, r, c.img, c.img.Bounds(), xdraw.Over, nil)
		}
		y += 96 + pad
	}
	heading("Yui - emotions and motions at 1x (192x256) on light")
	big(emo, light, false)
	big(mot, light, false)
	heading("on dark")
	big(emo, dark, false)
	big(mot, dark, false)
	heading("96 px tall, light and dark; then the X11 1-bit window mask (alpha > 50%) over a busy wallpaper")
	smallRow(append(append([]cell{}, emo...), mot...), light)
	smallRow(append(append([]cell{}, emo...), mot...), dark)
	big(emo, nil, true)
	return sheet.SubImage(image.Rect(0, 0, W, y)).(*image.RGBA)
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
