// Package rig poses and deforms a VRM model (pet/character/vrm) in pure
// Go: the humanoid bones from the model's bind pose (T or A) to a relaxed
// standing stance, linear-blend skinning with up to four weights, morph
// targets, meshes hung on bone nodes without a skin, expressions (morph,
// material-colour and texture-transform binds with VRM 1.0's override
// rules) and lookAt by bone or by expression. It also makes the desktop
// motions from the skeleton (walk, sit, sit_edge, fall, land, drag,
// thinking, the idle breath) and bakes VRM Animation clips onto the model.
//
// Its output is geometry in world space and the materials as the
// expressions leave them; turning that into pictures is the import's
// (pet/character/vrmpack) and the renderer's (pet/character/raster).
package rig

import "yui/pet/character/vrm"

// Pose is one moment of the character: humanoid bone rotations on top of
// the relaxed stance, a hips offset, expression weights and a gaze.
type Pose struct {
	// Bones are rotations by VRM 1.0 humanoid bone name, applied after
	// the relaxed stance (the identity: stand). They are "normalised"
	// (as three-vrm's normalized bones, with the stance as the rest):
	// each turns its bone about axes aligned with the world's (+X the
	// model's left, +Y up, +Z the way the model faces) through the
	// bone's joint, carried along by its parents' rotations, whatever
	// the model's own bone axes. So "leftUpperLeg: 30° about −X" swings
	// the left leg forward on every model, about +X on a lower leg bends
	// the knee, about +Z lifts the left arm out (the right arm in).
	// Unknown names are ignored.
	Bones map[string]vrm.Quat
	// Hips moves the whole figure (world units, +Y up, +Z towards the
	// camera's side the model faces).
	Hips vrm.Vec3
	// Expressions are weights 0..1 by expression name ("happy", "aa",
	// "blink", or a custom one's name).
	Expressions map[string]float32
	// Yaw and Pitch are the gaze in degrees (positive: the model's left
	// and up), applied through the model's lookAt.
	Yaw, Pitch float32
	// Turn turns the whole figure about +Y, in degrees (a walk to the
	// side turns the model towards it; positive turns her towards her
	// left, the viewer's right).
	Turn float32
}

// Posed is one primitive deformed into world space.
type Posed struct {
	Positions []vrm.Vec3
	Normals   []vrm.Vec3
	UVs       []vrm.Vec2
	Colors    []vrm.Vec4
	Indices   []uint32
	Material  int // index into Frame.Materials, -1 for the default
}

// Frame is a posed model: its primitives and its materials with the
// expressions' colour and texture-transform binds applied.
type Frame struct {
	Prims     []Posed
	Materials []vrm.Material
}

// Motion is a named sequence of poses played at FPS; Loop says whether
// it repeats. Faces, when not 0, says the side the poses are turned to
// (-1 the viewer's left, +1 the right), for a walk.
type Motion struct {
	Name  string
	Poses []Pose
	FPS   float64
	Loop  bool
	Faces int
}

// Rig is a model ready to pose. It is not safe for concurrent Apply
// calls that share a Frame; distinct calls may run at once.
type Rig struct {
	m *vrm.Model
	state
}

// New prepares m: it finds the humanoid, computes the relaxed stance
// from the bind pose and checks what posing needs. A model without the
// bones a stance needs (hips, spine, head, the arms and the legs) is
// posed as it stands, and its motions fall back to moving the whole.
func New(m *vrm.Model) (*Rig, error) { return newRig(m) }

// Apply poses the model and deforms every primitive.
func (r *Rig) Apply(p Pose) (*Frame, error) { return r.apply(p) }

// Bounds is the world-space box of the model in pose p.
func (r *Rig) Bounds(p Pose) (min, max vrm.Vec3, err error) { return r.bounds(p) }

// Motions are the desktop motions made from the skeleton: "idle" (breath
// and a blink), "walk" (8 frames or more), "sit", "sit_edge", "fall",
// "land", "drag", "thinking".
func (r *Rig) Motions() []Motion { return r.motions() }

// Bake turns a VRM Animation clip into a motion named name, sampled at
// fps. The bones the clip animates follow it instead of the stance, the
// others keep the stance (see bake.go); the motion loops when the clip
// ends where it starts.
func (r *Rig) Bake(name string, c *vrm.Clip, fps float64) (Motion, error) {
	return r.bake(name, c, fps)
}
