package raster

import (
	"context"
	"image/color"
	"testing"
)

// BenchmarkRender100k draws a textured MToon sphere of about 100,000
// triangles at 384×512 with 3×3 supersampling, an import's frame size.
func BenchmarkRender100k(b *testing.B) {
	m := toonMat(Vec3{1, 1, 1}, Vec3{0.5, 0.4, 0.6})
	m.BaseTexture = &Texture{Image: checker(256, 16, color.NRGBA{220, 80, 60, 255}, color.NRGBA{240, 230, 200, 255})}
	m.Toon.RimColor = Vec3{0.2, 0.2, 0.3}
	m.Toon.RimFresnelPower = 2
	s := scene(sphere(Vec3{}, 1, 224, 224, m))
	s.Shadow = &Shadow{Ground: -1, RadiusX: 1, RadiusZ: 0.5, Opacity: 0.4}
	s.Camera.Eye = Vec3{0, 0, 3.4}
	tris := 0
	for _, me := range s.Meshes {
		tris += len(me.Indices) / 3
	}
	b.ReportMetric(float64(tris), "triangles")
	o := Options{Width: 384, Height: 512}
	ctx := context.Background()
	for b.Loop() {
		if _, err := Render(ctx, s, o); err != nil {
			b.Fatal(err)
		}
	}
}
