// Package vrm reads VRM avatars (glTF 2.0 binaries with the VRM 0.x `VRM`
// or the VRM 1.0 `VRMC_vrm` extension) and VRM Animation clips (`.vrma`,
// `VRMC_vrm_animation`) into typed models the posing (pet/character/rig)
// and the import (docs/product.md §14) work from. The glTF container is
// read by github.com/qmuntal/gltf; the VRM extensions by this package's
// own typed code.
//
// A Model is normalised to VRM 1.0's conventions whichever version the
// file is: the model faces +Z (0.x models, which face −Z, are turned
// half a turn about Y at the root), expressions carry VRM 1.0's preset
// names (0.x's joy is happy, sorrow is sad, fun is relaxed, a is aa, …),
// weights run 0..1 (0.x's 0..100 are scaled), MToon's parameters have
// VRM 1.0's meaning (0.x's materialProperties are converted as three-vrm's
// VRM 0.x compatibility does: colours from sRGB, the outline width from
// centimetres, shade shift and toony remapped), and the humanoid's bones
// have 1.0's names (0.x's thumb bones are renamed).
//
// Package vrmtest, beside this one, writes a test avatar (VRM 1.0 or
// 0.x) and a test clip for the tests and benchmarks of the import.
//
// Everything read is checked before it is used: a file that is not a VRM
// model, is cut short, points outside its buffers, loops its node tree or
// would exhaust memory is refused with one clear error, never a panic.
package vrm

import (
	"image"
	"io"
)

// Vec2, Vec3, Vec4 and Mat4 are float32 vectors and a column-major 4×4
// matrix, as glTF stores them.
type (
	Vec2 [2]float32
	Vec3 [3]float32
	Vec4 [4]float32
	Quat [4]float32 // x, y, z, w
	Mat4 [16]float32
)

// Model is one avatar.
type Model struct {
	// SpecVersion is 0 for VRM 0.x and 1 for VRM 1.0.
	SpecVersion int
	Meta        Meta
	Nodes       []Node
	// Roots are the scene's root nodes.
	Roots     []int
	Meshes    []Mesh
	Skins     []Skin
	Materials []Material
	Textures  []Texture
	// Humanoid maps VRM 1.0 bone names ("hips", "spine", "chest",
	// "upperChest", "neck", "head", "leftEye", "leftUpperArm",
	// "leftLowerArm", "leftHand", "leftUpperLeg", "leftLowerLeg",
	// "leftFoot", "leftToes", "leftShoulder", fingers, and the right
	// ones) to node indices.
	Humanoid    map[string]int
	Expressions []Expression
	LookAt      LookAt
}

// Node is a glTF node with its rest transform (TRS; a matrix in the file
// is decomposed).
type Node struct {
	Name        string
	Parent      int // -1 for a root
	Children    []int
	Translation Vec3
	Rotation    Quat
	Scale       Vec3
	Mesh        int // -1 for none
	Skin        int // -1 for none
}

// Mesh is a glTF mesh: its primitives and the default morph weights.
type Mesh struct {
	Name           string
	Primitives     []Primitive
	DefaultWeights []float32
	// TargetNames are the morph targets' names where the file gives them.
	TargetNames []string
}

// Primitive is one triangle list (other modes are turned into triangles
// or refused). Attributes other than POSITION may be nil.
type Primitive struct {
	Positions []Vec3
	Normals   []Vec3
	UVs       []Vec2 // TEXCOORD_0
	Colors    []Vec4 // COLOR_0
	Joints    [][4]uint16
	Weights   []Vec4
	Indices   []uint32
	Targets   []MorphTarget
	Material  int // -1 for glTF's default material
}

// MorphTarget holds displacements (same length as the positions; Normals
// may be nil).
type MorphTarget struct {
	Positions []Vec3
	Normals   []Vec3
}

// Skin is a glTF skin.
type Skin struct {
	Joints              []int
	InverseBindMatrices []Mat4 // identity when the file gives none
}

// AlphaMode is glTF's alphaMode.
type AlphaMode uint8

const (
	AlphaOpaque AlphaMode = iota
	AlphaMask
	AlphaBlend
)

// OutlineMode is MToon's outlineWidthMode.
type OutlineMode uint8

const (
	OutlineNone OutlineMode = iota
	OutlineWorld
	OutlineScreen
)

// TextureRef points at a texture; Index -1 is none.
type TextureRef struct {
	Index    int
	TexCoord int
	// Offset and Scale are KHR_texture_transform's (identity: 0,0 and 1,1).
	Offset, Scale Vec2
}

// Material is a glTF material with its MToon or unlit look.
type Material struct {
	Name            string
	BaseColor       Vec4 // linear
	BaseTexture     TextureRef
	AlphaMode       AlphaMode
	AlphaCutoff     float32
	DoubleSided     bool
	Unlit           bool
	Emissive        Vec3
	EmissiveTexture TextureRef
	Toon            *Toon // nil: not MToon
}

// Toon is MToon in VRM 1.0's meaning.
type Toon struct {
	ShadeColor          Vec3
	ShadeTexture        TextureRef
	ShadingShift        float32
	ShadingToony        float32
	RimColor            Vec3 // parametricRimColorFactor
	RimTexture          TextureRef
	RimFresnelPower     float32
	RimLift             float32
	RimLightingMix      float32
	OutlineMode         OutlineMode
	OutlineWidth        float32
	OutlineWidthTexture TextureRef
	OutlineColor        Vec3
	OutlineLightingMix  float32
	RenderQueueOffset   int
	TransparentZWrite   bool
}

// Sampler wrap and filter modes, as glTF numbers them.
type Sampler struct {
	WrapS, WrapT int // 10497 repeat (default), 33071 clamp, 33648 mirrored
	MagFilter    int // 9728 nearest, 9729 linear, 0 unset
}

// Texture is a glTF texture: its image's encoded bytes (PNG or JPEG) and
// its sampler. Decode decodes it on demand, so that a model's textures
// are not all held decoded at once.
type Texture struct {
	MIME string
	// Data is a slice of the file's bytes, not a copy: do not modify it.
	Data    []byte
	Sampler Sampler
}

// Decode decodes the texture's image, refusing one larger than MaxTextureSide.
func (t Texture) Decode() (image.Image, error) { return decodeTexture(t) }

// Expression is a VRM expression (a 0.x blend shape group).
type Expression struct {
	// Name is the preset's VRM 1.0 name ("happy", "aa", "blink",
	// "lookLeft", …) or the custom expression's own name.
	Name     string
	Preset   bool
	IsBinary bool
	// Override* are VRM 1.0's overrideBlink/LookAt/Mouth: "none",
	// "block" or "blend" ("none" for 0.x).
	OverrideBlink, OverrideLookAt, OverrideMouth string
	Morphs                                       []MorphBind
	Colors                                       []ColorBind
	TextureTransforms                            []TextureTransformBind
}

// MorphBind sets morph target Index of mesh Mesh (through every node
// that shows that mesh) to Weight (0..1) at the expression's full weight.
type MorphBind struct {
	Mesh, Index int
	Weight      float32
}

// ColorBind moves a material colour towards Target: Type is VRM 1.0's
// "color", "emissionColor", "shadeColor", "matcapColor", "rimColor" or
// "outlineColor".
type ColorBind struct {
	Material int
	Type     string
	Target   Vec4
}

// TextureTransformBind sets a material's texture transform.
type TextureTransformBind struct {
	Material      int
	Scale, Offset Vec2
}

// LookAt is how the eyes turn: by the eye bones or by expressions.
type LookAt struct {
	// Type is "bone" or "expression".
	Type string
	// OffsetFromHeadBone is in the head bone's local frame. A 0.x model's
	// is converted as three-vrm does (Unity's Z negated); with its root
	// turned half a turn, the head's local −Z is then the front.
	OffsetFromHeadBone Vec3
	// RangeMaps: input degrees to output (degrees for bones, weight for
	// expressions), VRM 1.0's rangeMap*.
	HorizontalInner, HorizontalOuter, VerticalDown, VerticalUp RangeMap
}

// RangeMap is VRM 1.0's lookAt range map.
type RangeMap struct{ InputMaxValue, OutputScale float32 }

// Meta is the model's meta: who made it and what its user may do.
type Meta struct {
	Title, Version, Author, Contact, Reference string
	// License is the licence's name or URL (0.x licenseName, 1.0 licenseUrl).
	License string
	// AllowedUser is "OnlyAuthor", "OnlySeparatelyLicensedPerson" or
	// "Everyone" (0.x's ExplicitlyLicensedPerson is the second).
	AllowedUser string
	// Commercial is 1.0's commercialUsage ("personalNonProfit",
	// "personalProfit", "corporation"; 0.x Allow is "corporation",
	// Disallow "personalNonProfit").
	Commercial string
	// Redistribution is whether the model may be redistributed (1.0
	// allowRedistribution; 0.x: unknown, false).
	Redistribution bool
	// Thumbnail is the thumbnail image's texture index, -1 when none.
	Thumbnail int
}

// Limits a model must keep.
const (
	MaxFileBytes    = 512 << 20 // a .vrm file
	MaxTextureSide  = 8192      // pixels, either side
	MaxNodes        = 65536
	MaxVertices     = 8 << 20 // over all primitives
	MaxIndices      = 32 << 20
	MaxMorphTargets = 1024 // per primitive
	// MaxMorphVertices bounds the vertices of all morph targets together
	// (a mesh's vertex count times its targets, summed).
	MaxMorphVertices = 8 << 20
)

// Read reads a VRM model from r (a whole .vrm file; at most MaxFileBytes).
// Errors start with "vrm: " and say what is wrong in one line, e.g.
// "vrm: not a VRM model: the glTF has no VRM or VRMC_vrm extension".
func Read(r io.Reader) (*Model, error) { return read(r) }

// Clip is a VRM Animation (.vrma): humanoid bone rotations over time.
type Clip struct {
	Name     string
	Duration float32 // seconds
	// Rotations are keyed by VRM 1.0 humanoid bone name, in the clip's
	// rest-pose-relative meaning (VRMC_vrm_animation: the rotation of
	// the bone relative to its parent in a T-pose-normalised skeleton).
	Rotations map[string]RotationTrack
	// HipsTranslation is the hips' track, may be empty.
	HipsTranslation TranslationTrack
	// Expressions are the clip's expression weights (0..1) by VRM 1.0
	// expression name, preset or custom; may be empty.
	Expressions map[string]WeightTrack
}

// WeightTrack is a linear or step track of weights.
type WeightTrack struct {
	Times  []float32
	Values []float32
	Step   bool
}

// RotationTrack is a linear (slerp) or step rotation track.
type RotationTrack struct {
	Times  []float32
	Values []Quat
	Step   bool
}

// TranslationTrack is a linear or step translation track.
type TranslationTrack struct {
	Times  []float32
	Values []Vec3
	Step   bool
}

// ReadClip reads a .vrma file.
func ReadClip(r io.Reader) (*Clip, error) { return readClip(r) }
