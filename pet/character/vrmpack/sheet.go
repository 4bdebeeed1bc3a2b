package vrmpack

import (
	"image"
	"image/color"
	"image/draw"

	"yui/pet/character"
)

// ContactSheet tiles every picture of a pack into one image to look at:
// a row of the emotions, a row of the gaze, then one row per motion in
// name order, each picture scaled to cell pixels tall over a light
// checker (so a transparent edge or a stray pixel shows). The pack's
// feet line is drawn across each row in a faint red.
func ContactSheet(p *character.Pack, cell int) *image.NRGBA {
	var rows [][]image.Image
	var emo []image.Image
	for _, id := range sortedKeys(p.Emotions) {
		emo = append(emo, p.Emotions[id])
	}
	rows = append(rows, emo)
	var gz []image.Image
	for _, id := range sortedKeys(p.Gaze) {
		gz = append(gz, p.Gaze[id])
	}
	if len(gz) > 0 {
		rows = append(rows, gz)
	}
	for _, id := range sortedKeys(p.Motions) {
		rows = append(rows, p.Motions[id].Frames)
	}
	cw := max(1, cell*p.Size[0]/max(1, p.Size[1]))
	cols := 1
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	const gap = 2
	out := image.NewNRGBA(image.Rect(0, 0, cols*(cw+gap)+gap, len(rows)*(cell+gap)+gap))
	draw.Draw(out, out.Rect, image.NewUniform(color.NRGBA{90, 90, 90, 255}), image.Point{}, draw.Src)
	feetY := p.Feet.Y * cell / max(1, p.Size[1])
	for ri, r := range rows {
		for ci, img := range r {
			at := image.Pt(gap+ci*(cw+gap), gap+ri*(cell+gap))
			box := image.Rectangle{Min: at, Max: at.Add(image.Pt(cw, cell))}
			checker(out, box)
			scaleOver(out, box, img)
			if feetY > 0 && feetY < cell {
				for x := box.Min.X; x < box.Max.X; x += 2 {
					out.Set(x, at.Y+feetY, color.NRGBA{220, 60, 60, 255})
				}
			}
		}
	}
	return out
}

// checker fills box with a light two-tone checker.
func checker(dst *image.NRGBA, box image.Rectangle) {
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			v := uint8(235)
			if ((x-box.Min.X)/8+(y-box.Min.Y)/8)%2 == 1 {
				v = 205
			}
			dst.SetNRGBA(x, y, color.NRGBA{v, v, v, 255})
		}
	}
}

// scaleOver draws img into box (nearest sample) over what is there.
func scaleOver(dst *image.NRGBA, box image.Rectangle, img image.Image) {
	b := img.Bounds()
	if b.Empty() {
		return
	}
	for y := 0; y < box.Dy(); y++ {
		sy := b.Min.Y + y*b.Dy()/box.Dy()
		for x := 0; x < box.Dx(); x++ {
			sx := b.Min.X + x*b.Dx()/box.Dx()
			c := color.NRGBAModel.Convert(img.At(sx, sy)).(color.NRGBA)
			if c.A == 0 {
				continue
			}
			d := dst.NRGBAAt(box.Min.X+x, box.Min.Y+y)
			a := uint32(c.A)
			mix := func(s, t uint8) uint8 { return uint8((uint32(s)*a + uint32(t)*(255-a)) / 255) }
			dst.SetNRGBA(box.Min.X+x, box.Min.Y+y, color.NRGBA{mix(c.R, d.R), mix(c.G, d.G), mix(c.B, d.B), 255})
		}
	}
}
