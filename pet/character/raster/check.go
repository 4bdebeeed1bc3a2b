package raster

import (
	"fmt"
)

// MaxSupersample bounds Options.Supersample: 8 per side is 64 samples a
// pixel, already far past what the edges need.
const MaxSupersample = 8

// maxVertices bounds the vertices of a scene, four for each of
// MaxTriangles: twice it (an outline copies its mesh) still indexes in
// an int32.
const maxVertices = 4 * MaxTriangles

// settings are Options with their defaults filled in and checked.
type settings struct {
	w, h    int // picture, pixels
	ss      int // samples per pixel side
	workers int
}

func checkOptions(o Options, procs int) (settings, error) {
	if o.Width < 1 || o.Height < 1 || o.Width > MaxSide || o.Height > MaxSide {
		return settings{}, fmt.Errorf("raster: picture %d×%d out of range (1..%d a side)", o.Width, o.Height, MaxSide)
	}
	ss := o.Supersample
	if ss == 0 {
		ss = 3
	}
	if ss < 1 || ss > MaxSupersample {
		return settings{}, fmt.Errorf("raster: supersample %d out of range (1..%d)", o.Supersample, MaxSupersample)
	}
	wk := o.Workers
	if wk < 0 {
		return settings{}, fmt.Errorf("raster: %d workers", o.Workers)
	}
	if wk == 0 {
		wk = procs
	}
	return settings{w: o.Width, h: o.Height, ss: ss, workers: max(wk, 1)}, nil
}

// checkScene refuses what cannot be drawn: attribute arrays whose lengths
// disagree with the positions, indices past the vertices, more triangles
// than MaxTriangles. Non-finite positions are not an error: their
// triangles are skipped as they are met.
func checkScene(s *Scene) error {
	if s == nil {
		return fmt.Errorf("raster: no scene")
	}
	total, verts := 0, 0
	for i := range s.Meshes {
		m := &s.Meshes[i]
		n := len(m.Positions)
		verts += n
		if verts > maxVertices {
			return fmt.Errorf("raster: more than %d vertices", maxVertices)
		}
		if l := len(m.Normals); l != 0 && l != n {
			return fmt.Errorf("raster: mesh %d: %d normals for %d positions", i, l, n)
		}
		if l := len(m.UVs); l != 0 && l != n {
			return fmt.Errorf("raster: mesh %d: %d texture coordinates for %d positions", i, l, n)
		}
		if l := len(m.Colors); l != 0 && l != n {
			return fmt.Errorf("raster: mesh %d: %d colours for %d positions", i, l, n)
		}
		if len(m.Indices)%3 != 0 {
			return fmt.Errorf("raster: mesh %d: %d indices, not whole triangles", i, len(m.Indices))
		}
		total += len(m.Indices) / 3
		if total > MaxTriangles {
			return fmt.Errorf("raster: more than %d triangles", MaxTriangles)
		}
		if err := checkMaterial(m.Material); err != nil {
			return fmt.Errorf("raster: mesh %d: %w", i, err)
		}
		for k, ix := range m.Indices {
			if int64(ix) >= int64(n) {
				return fmt.Errorf("raster: mesh %d: index %d is %d, past its %d vertices", i, k, ix, n)
			}
		}
	}
	return nil
}

// checkMaterial refuses a texture whose pixels are fewer than its size
// says (an image put together by hand), which sampling would run past.
func checkMaterial(m *Material) error {
	if m == nil {
		return nil
	}
	texs := []*Texture{m.BaseTexture, m.EmissiveTexture}
	if t := m.Toon; t != nil {
		texs = append(texs, t.ShadeTexture, t.RimTexture, t.OutlineWidthTexture)
	}
	for _, t := range texs {
		if t == nil || t.Image == nil {
			continue
		}
		img := t.Image
		b := img.Bounds()
		if b.Empty() {
			continue
		}
		start := img.PixOffset(b.Min.X, b.Min.Y)
		if img.Stride < 4*b.Dx() || start < 0 || int64(start)+int64(b.Dy()-1)*int64(img.Stride)+int64(4*b.Dx()) > int64(len(img.Pix)) {
			return fmt.Errorf("material %q: a %d×%d texture with %d bytes of pixels", m.Name, b.Dx(), b.Dy(), len(img.Pix))
		}
	}
	return nil
}
