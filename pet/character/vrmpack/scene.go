package vrmpack

import (
	"errors"
	"fmt"
	"image"
	"image/draw"
	"math"

	"yui/pet/character/raster"
	"yui/pet/character/rig"
	"yui/pet/character/vrm"
)

// The camera, the light and the shadow of every picture of a pack, and
// the model's materials as the renderer takes them.
//
// The camera (docs/product.md §14): the whole figure, seen from a little
// above (cameraPitch) and a few degrees to the model's left (cameraYaw) so
// the face is not flat-on, through a narrow lens (cameraFOV) so a limb
// towards the viewer does not balloon. It is framed once, on the standing
// stance's box: the head a little below the top (topMargin) and the feet
// at the ground line (groundLine), which leaves room below for legs over
// a window's edge (sit_edge). Every picture of the pack uses the same
// camera, so a sit is shorter than the stand and nothing jumps.
const (
	cameraYaw   = 12 * math.Pi / 180
	cameraPitch = 8 * math.Pi / 180
	cameraFOV   = 20 * math.Pi / 180
	topMargin   = 0.10 // of the picture's height: room for arms raised in a fall
	groundLine  = 0.80 // of the picture's height: room below for legs over an edge
	sideMargin  = 0.06 // of the picture's width, either side
	// maxTextureSide bounds a texture as drawn: a picture of 384x512
	// drawn at 3x3 samples never needs more, and a 4096² texture held at
	// this size costs 4 MiB instead of 64.
	maxTextureSide = 1024
)

// framing is the pack's camera and where its ground line lands.
type framing struct {
	cam  raster.Camera
	opt  raster.Options
	feet image.Point // pixels of the picture (2x the logical size)
	// ground, centre and radii of the shadow, from the stance.
	ground           float32
	center           raster.Vec2
	radiusX, radiusZ float32
}

// frame chooses the camera from the standing stance's box (min, max).
func frame(min, max vrm.Vec3, o raster.Options) (framing, error) {
	for i := 0; i < 3; i++ {
		if !finite(min[i]) || !finite(max[i]) || max[i] < min[i] {
			return framing{}, errors.New("the model's size cannot be measured")
		}
	}
	h := max[1] - min[1]
	if h <= 0 {
		h = float32(math.Max(float64(max[0]-min[0]), float64(max[2]-min[2])))
	}
	if h <= 0 {
		return framing{}, errors.New("the model has no size")
	}
	cx, cz := (min[0]+max[0])/2, (min[2]+max[2])/2
	target := raster.Vec3{cx, (min[1] + max[1]) / 2, cz}
	tan := float32(math.Tan(cameraFOV / 2))
	dist := h / 2 / tan / float32(groundLine-topMargin)
	corners := boxCorners(min, max)
	ground := raster.Vec3{cx, min[1], cz}
	H, W := float32(o.Height), float32(o.Width)
	var cam raster.Camera
	for iter := 0; iter < 6; iter++ {
		cam = lookFrom(target, dist)
		top, left, right := H, W, float32(0)
		for _, c := range corners {
			x, y, ok := raster.Project(cam, o, c)
			if !ok {
				return framing{}, errors.New("the camera cannot see the model")
			}
			top, left, right = minf(top, y), minf(left, x), maxf(right, x)
		}
		_, fy, ok := raster.Project(cam, o, ground)
		if !ok {
			return framing{}, errors.New("the camera cannot see the model's feet")
		}
		span, want := fy-top, H*float32(groundLine-topMargin)
		scale := span / want
		if w := (right - left) / (W * (1 - 2*sideMargin)); w > scale {
			scale = w // a wide model: fit the width, the figure then shorter
		}
		if span <= 0 || !finite(scale) {
			return framing{}, errors.New("the camera cannot frame the model")
		}
		dist *= scale
		// Raise the camera (the figure shows lower) by what puts the
		// feet on the ground line at the new distance.
		now := H/2 + (fy-H/2)/scale
		perPixel := 2 * dist * tan / H
		target[1] += (H*groundLine - now) * perPixel
	}
	cam = lookFrom(target, dist)
	fx, fy, _ := raster.Project(cam, o, ground)
	f := framing{
		cam: cam, opt: o,
		feet:    image.Pt(int(math.Round(float64(fx))), int(math.Round(float64(fy)))),
		ground:  min[1],
		center:  raster.Vec2{cx, cz},
		radiusX: maxf(0.18*h, (max[0]-min[0])*0.45),
		radiusZ: maxf(0.08*h, (max[2]-min[2])*0.5),
	}
	return f, nil
}

// lookFrom is the camera at dist from target, from a little above and
// turned a few degrees.
func lookFrom(target raster.Vec3, dist float32) raster.Camera {
	cp, sp := float32(math.Cos(cameraPitch)), float32(math.Sin(cameraPitch))
	cy, sy := float32(math.Cos(cameraYaw)), float32(math.Sin(cameraYaw))
	eye := raster.Vec3{target[0] + dist*cp*sy, target[1] + dist*sp, target[2] + dist*cp*cy}
	return raster.Camera{Eye: eye, Target: target, Up: raster.Vec3{0, 1, 0}, FovY: cameraFOV, Near: dist / 20, Far: dist * 20}
}

// light is the scene's light: from above, in front and to the viewer's
// left, as the built-in characters are drawn. The light and the ambient
// add up to one at a fully lit surface, so that the toon colours stay
// what the model's maker chose: more washes light skin out to white
// (pet/character/raster/shade.go adds the ambient on the lit colour).
func light() raster.Light {
	d := normalize(raster.Vec3{0.35, -0.7, -0.6})
	return raster.Light{Direction: d, Color: raster.Vec3{0.8, 0.8, 0.8}, Ambient: raster.Vec3{0.2, 0.2, 0.2}}
}

// shadow is the drop shadow under a figure standing on the ground.
func (f framing) shadow() *raster.Shadow {
	return &raster.Shadow{Ground: f.ground, Center: f.center, RadiusX: f.radiusX, RadiusZ: f.radiusZ, Opacity: 0.35}
}

// textures are the model's textures decoded once and shrunk to what a
// picture needs, by texture index.
type textures struct {
	m    *vrm.Model
	byIx map[int]*raster.Texture
}

// loadTextures decodes every texture the materials use, one at a time so
// that at most one is held at its full size.
func loadTextures(m *vrm.Model) (*textures, error) {
	t := &textures{m: m, byIx: map[int]*raster.Texture{}}
	for _, mat := range m.Materials {
		refs := []vrm.TextureRef{mat.BaseTexture, mat.EmissiveTexture}
		if mat.Toon != nil {
			refs = append(refs, mat.Toon.ShadeTexture, mat.Toon.RimTexture, mat.Toon.OutlineWidthTexture)
		}
		for _, r := range refs {
			if r.Index < 0 || t.byIx[r.Index] != nil {
				continue
			}
			if r.Index >= len(m.Textures) {
				return nil, fmt.Errorf("material %q names texture %d of %d", mat.Name, r.Index, len(m.Textures))
			}
			tex, err := decodeShrunk(m.Textures[r.Index], maxTextureSide)
			if err != nil {
				return nil, fmt.Errorf("texture %d of material %q: %w", r.Index, mat.Name, err)
			}
			t.byIx[r.Index] = tex
		}
	}
	return t, nil
}

// decodeShrunk decodes a texture and shrinks it by a box filter until no
// side is over side.
func decodeShrunk(vt vrm.Texture, side int) (*raster.Texture, error) {
	img, err := vt.Decode()
	if err != nil {
		return nil, err
	}
	tex := &raster.Texture{Image: shrink(img, side), WrapS: wrapOf(vt.Sampler.WrapS), WrapT: wrapOf(vt.Sampler.WrapT), Nearest: vt.Sampler.MagFilter == 9728}
	return tex, nil
}

func wrapOf(gl int) raster.Wrap {
	switch gl {
	case 33071:
		return raster.WrapClamp
	case 33648:
		return raster.WrapMirror
	}
	return raster.WrapRepeat
}

// shrink returns img as NRGBA, averaged down by a whole factor until it
// fits side. Averaging is done on premultiplied colour, so transparent
// texels do not darken their neighbours.
func shrink(img image.Image, side int) *image.NRGBA {
	b := img.Bounds()
	f := 1
	for b.Dx()/f > side || b.Dy()/f > side {
		f++
	}
	src := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(src, src.Rect, img, b.Min, draw.Src)
	w, h := max(1, b.Dx()/f), max(1, b.Dy()/f)
	out := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var s [4]uint32
			n := uint32(0)
			for yy := y * f; yy < min((y+1)*f, b.Dy()); yy++ {
				row := src.Pix[yy*src.Stride:]
				for xx := x * f; xx < min((x+1)*f, b.Dx()); xx++ {
					p := row[xx*4 : xx*4+4]
					s[0], s[1], s[2], s[3] = s[0]+uint32(p[0]), s[1]+uint32(p[1]), s[2]+uint32(p[2]), s[3]+uint32(p[3])
					n++
				}
			}
			o := out.Pix[y*out.Stride+x*4:]
			a := s[3] / n
			o[3] = uint8(a)
			if s[3] > 0 {
				for c := 0; c < 3; c++ {
					o[c] = uint8(min(255, s[c]*255/s[3]))
				}
			}
		}
	}
	return out
}

// material is a posed material as the renderer takes it.
func (t *textures) material(vm vrm.Material) *raster.Material {
	rm := &raster.Material{
		Name:            vm.Name,
		BaseColor:       raster.Vec4(vm.BaseColor),
		BaseTexture:     t.get(vm.BaseTexture),
		AlphaMode:       raster.AlphaMode(vm.AlphaMode),
		AlphaCutoff:     vm.AlphaCutoff,
		DoubleSided:     vm.DoubleSided,
		Unlit:           vm.Unlit,
		Emissive:        raster.Vec3(vm.Emissive),
		EmissiveTexture: t.get(vm.EmissiveTexture),
	}
	if s := vm.BaseTexture.Scale; vm.BaseTexture.Index >= 0 && (s != vrm.Vec2{1, 1} || vm.BaseTexture.Offset != vrm.Vec2{}) && (s != vrm.Vec2{}) {
		rm.UV = raster.UVTransform{Offset: raster.Vec2(vm.BaseTexture.Offset), Scale: raster.Vec2(s)}
	}
	if tn := vm.Toon; tn != nil {
		rm.Order = tn.RenderQueueOffset
		rm.Toon = &raster.Toon{
			ShadeColor:          raster.Vec3(tn.ShadeColor),
			ShadeTexture:        t.get(tn.ShadeTexture),
			ShadingShift:        tn.ShadingShift,
			ShadingToony:        tn.ShadingToony,
			RimColor:            raster.Vec3(tn.RimColor),
			RimTexture:          t.get(tn.RimTexture),
			RimFresnelPower:     tn.RimFresnelPower,
			RimLift:             tn.RimLift,
			RimLightingMix:      tn.RimLightingMix,
			OutlineMode:         raster.OutlineMode(tn.OutlineMode),
			OutlineWidth:        tn.OutlineWidth,
			OutlineWidthTexture: t.get(tn.OutlineWidthTexture),
			OutlineColor:        raster.Vec3(tn.OutlineColor),
			OutlineLightingMix:  tn.OutlineLightingMix,
		}
	}
	return rm
}

func (t *textures) get(r vrm.TextureRef) *raster.Texture {
	if r.Index < 0 {
		return nil
	}
	return t.byIx[r.Index]
}

// defaultMaterial is glTF's material for a primitive that names none.
var defaultMaterial = vrm.Material{Name: "default", BaseColor: vrm.Vec4{1, 1, 1, 1}, BaseTexture: vrm.TextureRef{Index: -1}, EmissiveTexture: vrm.TextureRef{Index: -1}}

// scene turns a posed frame into what the renderer draws.
func (t *textures) scene(fr *rig.Frame, f framing, withShadow bool) *raster.Scene {
	mats := make([]*raster.Material, len(fr.Materials))
	for i, vm := range fr.Materials {
		mats[i] = t.material(vm)
	}
	var def *raster.Material
	s := &raster.Scene{Camera: f.cam, Light: light(), Meshes: make([]raster.Mesh, 0, len(fr.Prims))}
	for _, p := range fr.Prims {
		mesh := raster.Mesh{Positions: vec3s(p.Positions), Normals: vec3s(p.Normals), Indices: p.Indices}
		if len(p.UVs) == len(p.Positions) {
			mesh.UVs = make([]raster.Vec2, len(p.UVs))
			for i, uv := range p.UVs {
				mesh.UVs[i] = raster.Vec2(uv)
			}
		}
		if len(p.Colors) == len(p.Positions) {
			mesh.Colors = make([]raster.Vec4, len(p.Colors))
			for i, c := range p.Colors {
				mesh.Colors[i] = raster.Vec4(c)
			}
		}
		switch {
		case p.Material >= 0 && p.Material < len(mats):
			mesh.Material = mats[p.Material]
		default:
			if def == nil {
				def = t.material(defaultMaterial)
			}
			mesh.Material = def
		}
		s.Meshes = append(s.Meshes, mesh)
	}
	if withShadow {
		s.Shadow = f.shadow()
	}
	return s
}

func vec3s(v []vrm.Vec3) []raster.Vec3 {
	if v == nil {
		return nil
	}
	out := make([]raster.Vec3, len(v))
	for i, p := range v {
		out[i] = raster.Vec3(p)
	}
	return out
}

func boxCorners(lo, hi vrm.Vec3) []raster.Vec3 {
	out := make([]raster.Vec3, 0, 8)
	for i := 0; i < 8; i++ {
		c := raster.Vec3{lo[0], lo[1], lo[2]}
		if i&1 != 0 {
			c[0] = hi[0]
		}
		if i&2 != 0 {
			c[1] = hi[1]
		}
		if i&4 != 0 {
			c[2] = hi[2]
		}
		out = append(out, c)
	}
	return out
}

func normalize(v raster.Vec3) raster.Vec3 {
	l := float32(math.Sqrt(float64(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])))
	return raster.Vec3{v[0] / l, v[1] / l, v[2] / l}
}

func finite(f float32) bool { return !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0) }

func minf(a, b float32) float32 { return min(a, b) }
func maxf(a, b float32) float32 { return max(a, b) }
