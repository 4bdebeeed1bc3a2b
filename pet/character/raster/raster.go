// Package raster draws triangle meshes into pictures, in pure Go: no cgo,
// no GPU, the same pixels on every machine. It is the renderer of VRM
// imports (docs/product.md §14), and it knows nothing of VRM: meshes in
// world space, materials, a camera, a light, pixels. The caller poses and
// deforms its model first (pet/character/rig) and hands over the result.
//
// What it draws: perspective-correct texturing with bilinear filtering,
// the alpha modes (opaque, mask with its cutoff, blend drawn back to
// front), double-sided materials, the MToon look (lit and shade colours
// with shading toony and shift, rim, emission, the outline as an inverted
// hull), unlit materials, supersampled anti-aliasing and a soft drop
// shadow. Rendering is spread over the cores.
//
// How it draws (setup.go, band.go): every mesh is projected once, its
// faces clipped against the near plane and culled by their facing; an
// outline is a second copy of its mesh pushed out along the normals with
// only its far faces kept. The picture, at Supersample× its size, is cut
// into bands of rows; each triangle is listed in the bands it touches, and
// each band is drawn whole by one goroutine: the opaque and masked faces
// into a visibility buffer (nearest face and its perspective-correct
// weights per sample, the mask's cutoff tested per sample), each visible
// sample shaded once, then the blended faces over it in their sorted order
// (material Order, then back to front), then the samples averaged
// (premultiplied) into pixels with the shadow beneath. Light is mixed in
// linear colour; the picture is sRGB.
//
// The same scene gives the same bytes for any Workers: a band's pixels
// depend on nothing another band does. Across processors, Go may fuse a
// multiply and an add where the processor has the instruction (arm64,
// not amd64), which can move a channel by one step.
package raster

import (
	"context"
	"image"
)

// Vec2, Vec3 and Vec4 are float32 vectors: positions, normals, colours.
type (
	Vec2 [2]float32
	Vec3 [3]float32
	Vec4 [4]float32
)

// Wrap is a texture's wrap mode along one axis.
type Wrap uint8

const (
	WrapRepeat Wrap = iota // glTF's default
	WrapClamp
	WrapMirror
)

// Texture is an image sampled with bilinear filtering (nearest when
// Nearest is set). Image is non-premultiplied sRGB; the renderer converts
// to linear where it mixes light.
type Texture struct {
	Image        *image.NRGBA
	WrapS, WrapT Wrap
	Nearest      bool
}

// AlphaMode is glTF's alphaMode.
type AlphaMode uint8

const (
	AlphaOpaque AlphaMode = iota
	AlphaMask             // discarded below Material.AlphaCutoff
	AlphaBlend            // drawn after the opaque ones, back to front
)

// UVTransform maps a texture coordinate: uv*Scale + Offset (applied to
// every texture of the material; VRM's texture-transform binds and MToon's
// UV animation at time 0 land here). The zero value is the identity.
type UVTransform struct {
	Offset, Scale Vec2
}

// Material is how a mesh's surface looks. Colours are linear, factors
// multiplied with their texture's sample, as in glTF.
type Material struct {
	Name        string
	BaseColor   Vec4 // RGBA; A is the opacity
	BaseTexture *Texture
	AlphaMode   AlphaMode
	AlphaCutoff float32 // for AlphaMask; glTF's default is 0.5
	DoubleSided bool
	// Unlit draws BaseColor × texture as it is (KHR_materials_unlit).
	Unlit           bool
	Emissive        Vec3
	EmissiveTexture *Texture
	UV              UVTransform
	// Toon is the MToon look; nil is a plain lit material (lambert with
	// the scene's ambient).
	Toon *Toon
	// Order sorts blended materials among themselves before distance:
	// MToon's renderQueueOffsetNumber (lower first).
	Order int
}

// OutlineMode is MToon's outlineWidthMode.
type OutlineMode uint8

const (
	OutlineNone OutlineMode = iota
	// OutlineWorld: Toon.OutlineWidth is in world units (metres).
	OutlineWorld
	// OutlineScreen: Toon.OutlineWidth is a fraction of the picture's height.
	OutlineScreen
)

// Toon holds MToon's parameters in VRM 1.0's meaning (VRMC_materials_mtoon);
// VRM 0.x's are converted to these by the reader.
type Toon struct {
	ShadeColor   Vec3
	ShadeTexture *Texture
	ShadingShift float32 // -1..1
	ShadingToony float32 // 0..1
	// Rim light: (RimColor × rim texture) × fresnel^RimFresnelPower,
	// lifted by RimLift; RimLightingMix blends it with the light's colour.
	RimColor        Vec3
	RimTexture      *Texture
	RimFresnelPower float32
	RimLift         float32
	RimLightingMix  float32
	OutlineMode     OutlineMode
	OutlineWidth    float32
	// OutlineWidthTexture scales the width by its green channel (may be nil).
	OutlineWidthTexture *Texture
	OutlineColor        Vec3
	// OutlineLightingMix blends the outline colour with the lit colour.
	OutlineLightingMix float32
}

// Mesh is one triangle list in world space, posed and deformed. Normals
// and UVs are per vertex (same length as Positions; UVs may be nil for an
// untextured mesh). Indices are triangles, three per face, counter-
// clockwise front faces as in glTF.
type Mesh struct {
	Positions []Vec3
	Normals   []Vec3
	UVs       []Vec2
	// Colors is an optional per-vertex colour (glTF COLOR_0), multiplied in.
	Colors   []Vec4
	Indices  []uint32
	Material *Material
}

// Camera is a perspective camera looking from Eye to Target, with Up
// the picture's upward direction, FovY the vertical field of view in
// radians, and Near and Far the clip distances (both > 0).
type Camera struct {
	Eye, Target, Up Vec3
	FovY            float32
	Near, Far       float32
}

// Light is the scene's one directional light and its ambient term.
// Direction points from the light towards the scene.
type Light struct {
	Direction Vec3
	Color     Vec3
	Ambient   Vec3
}

// Shadow is the soft drop shadow under the figure: an ellipse on the
// ground plane y = Ground, centred below Center (x, z), of radii
// RadiusX, RadiusZ in world units, at Opacity (0..1) in its middle and
// fading to nothing at its rim. It is drawn under everything.
type Shadow struct {
	Ground           float32
	Center           Vec2 // x, z
	RadiusX, RadiusZ float32
	Opacity          float32
}

// Scene is everything one picture needs.
type Scene struct {
	Meshes []Mesh
	Camera Camera
	Light  Light
	Shadow *Shadow // nil: none
}

// Options say how big the picture is and how it is drawn.
type Options struct {
	Width, Height int
	// Supersample is the anti-aliasing factor per side (1 none; 3 draws
	// 9 samples a pixel); 0 means 3.
	Supersample int
	// Workers bound the goroutines drawing; 0 means runtime.GOMAXPROCS(0).
	Workers int
}

// Limits on what Render accepts.
const (
	MaxSide      = 8192      // pixels, either side of the picture
	MaxTriangles = 4_000_000 // over all meshes of a scene
)

// Render draws the scene into a new non-premultiplied picture whose
// background is transparent. It returns an error, and no picture, for a
// scene it cannot draw (a mesh whose indices point past its vertices,
// sizes out of range), and ctx's error when ctx ends first.
func Render(ctx context.Context, s *Scene, o Options) (*image.NRGBA, error) {
	return render(ctx, s, o)
}

// Project maps a world point to picture pixels (x right, y down) with the
// scene's camera at the size of o, and reports whether it lies in front
// of the camera. The baker uses it to find the feet and the head.
func Project(c Camera, o Options, p Vec3) (x, y float32, ok bool) {
	return project(c, o, p)
}
