package raster

import (
	"image"
	"image/color"
	"math"
)

// The synthetic scenes the tests draw: small meshes built here, a camera
// at (0, 0, 3) looking at the origin, a light from the upper left front.

func testCamera() Camera {
	return Camera{Eye: Vec3{0, 0, 3}, Target: Vec3{0, 0, 0}, Up: Vec3{0, 1, 0}, FovY: 40 * math.Pi / 180, Near: 0.1, Far: 100}
}

func testLight() Light {
	return Light{Direction: Vec3{0.5, -0.5, -1}, Color: Vec3{1, 1, 1}, Ambient: Vec3{0.2, 0.2, 0.2}}
}

// sphere is a UV sphere of radius rad around c, faces wound outwards.
func sphere(c Vec3, rad float32, stacks, slices int, m *Material) Mesh {
	var me Mesh
	for i := 0; i <= stacks; i++ {
		th := math.Pi * float64(i) / float64(stacks)
		for j := 0; j <= slices; j++ {
			ph := 2 * math.Pi * float64(j) / float64(slices)
			n := Vec3{float32(math.Sin(th) * math.Sin(ph)), float32(math.Cos(th)), float32(math.Sin(th) * math.Cos(ph))}
			me.Positions = append(me.Positions, Vec3{c[0] + rad*n[0], c[1] + rad*n[1], c[2] + rad*n[2]})
			me.Normals = append(me.Normals, n)
			me.UVs = append(me.UVs, Vec2{float32(j) / float32(slices), float32(i) / float32(stacks)})
		}
	}
	row := uint32(slices + 1)
	for i := uint32(0); i < uint32(stacks); i++ {
		for j := uint32(0); j < uint32(slices); j++ {
			a, b, cc, d := i*row+j, (i+1)*row+j, (i+1)*row+j+1, i*row+j+1
			me.addFace(a, b, cc, c)
			me.addFace(a, cc, d, c)
		}
	}
	me.Material = m
	return me
}

// addFace appends a triangle wound counter-clockwise seen from outside,
// outside being away from centre c.
func (m *Mesh) addFace(a, b, c uint32, centre Vec3) {
	pa, pb, pc := to64(m.Positions[a]), to64(m.Positions[b]), to64(m.Positions[c])
	n := pb.sub(pa).cross(pc.sub(pa))
	mid := pa.add(pb).add(pc).scale(1.0 / 3).sub(to64(centre))
	if n.dot(mid) < 0 {
		b, c = c, b
	}
	if n.dot(n) == 0 {
		return
	}
	m.Indices = append(m.Indices, a, b, c)
}

// quad is the four corners p (counter-clockwise seen from where it
// faces) with texture coordinates from the top left.
func quad(p [4]Vec3, m *Material) Mesh {
	e1, e2 := to64(p[1]).sub(to64(p[0])), to64(p[2]).sub(to64(p[0]))
	n64, _ := e1.cross(e2).norm()
	n := Vec3{float32(n64[0]), float32(n64[1]), float32(n64[2])}
	return Mesh{
		Positions: p[:],
		Normals:   []Vec3{n, n, n, n},
		UVs:       []Vec2{{0, 1}, {1, 1}, {1, 0}, {0, 0}},
		Indices:   []uint32{0, 1, 2, 0, 2, 3},
		Material:  m,
	}
}

// square is an upright quad facing +z at depth z, centre (x, y), side 2h.
func square(x, y, z, h float32, m *Material) Mesh {
	return quad([4]Vec3{{x - h, y - h, z}, {x + h, y - h, z}, {x + h, y + h, z}, {x - h, y + h, z}}, m)
}

func checker(n, cell int, a, b color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, n, n))
	for y := range n {
		for x := range n {
			c := a
			if (x/cell+y/cell)%2 == 1 {
				c = b
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

// solidTex is a w×h texture of one colour, with alpha a.
func solidTex(w, h int, c color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

func scene(ms ...Mesh) *Scene {
	return &Scene{Meshes: ms, Camera: testCamera(), Light: testLight()}
}

func opaque(r, g, b float32) *Material {
	return &Material{BaseColor: Vec4{r, g, b, 1}, AlphaCutoff: 0.5}
}

func toonMat(lit, shade Vec3) *Material {
	return &Material{
		BaseColor: Vec4{lit[0], lit[1], lit[2], 1}, AlphaCutoff: 0.5,
		Toon: &Toon{ShadeColor: shade, ShadingToony: 0.9, ShadingShift: 0},
	}
}
