package character

import (
	"fmt"
	"image"
	"math"
	"time"
)

// Optional motions a pack may add to the required ones. The pet shows
// each for its moment and falls back as FallbackMotion says when the pack
// has none (an imported Shimeji set has them all; Yui has none).
const (
	// MotionSitEdge is sitting on a window's top edge, legs over it.
	MotionSitEdge = "sit_edge"
	// MotionLand plays once where a fall ends.
	MotionLand = "land"
	// MotionDrag is being held by the pointer.
	MotionDrag = "drag"
)

// Facing is which way a pack's images look.
type Facing string

const (
	FacingFront Facing = ""      // no side: never mirrored
	FacingLeft  Facing = "left"  // mirrored while the pet goes right
	FacingRight Facing = "right" // mirrored while the pet goes left
)

// Limits of the pose fields.
const (
	MaxWalkSpeed = 5000                  // logical pixels per second
	MinFrameTime = 10 * time.Millisecond // per frame, durations_ms
	MaxFrameTime = 10 * time.Minute
)

// FallbackMotion is the motion shown for an optional one the pack lacks:
// sit_edge sits, land and drag keep what the pet shows ("").
func FallbackMotion(id string) string {
	if id == MotionSitEdge {
		return "sit"
	}
	return ""
}

// Has reports whether the pack has frames for motion id.
func (p *Pack) Has(id string) bool {
	return p != nil && len(p.Motions[id].Frames) > 0
}

// Length is how long one run of the motion lasts: the sum of its frame
// durations, or its frames at its frame rate.
func (m Motion) Length() time.Duration {
	if len(m.Durations) == len(m.Frames) && len(m.Durations) > 0 {
		var d time.Duration
		for _, f := range m.Durations {
			d += f
		}
		return d
	}
	if m.FPS <= 0 || len(m.Frames) == 0 {
		return 0
	}
	return time.Duration(float64(len(m.Frames)) / m.FPS * float64(time.Second))
}

// Mirrored reports whether the pack's images are drawn flipped while the
// pet goes right (right true) or left.
func (p *Pack) Mirrored(right bool) bool {
	if p == nil {
		return false
	}
	return (p.Faces == FacingLeft && right) || (p.Faces == FacingRight && !right)
}

// poseFields are character.json's optional pose fields.
type poseFields struct {
	// Feet is the point [x, y] (logical pixels from the top-left) the
	// character stands on; default the middle of the bottom edge.
	Feet []int `json:"feet"`
	// Faces is "left", "right" or "" (front).
	Faces string `json:"faces"`
	// WalkSpeed is the walk's pace in logical pixels per second; 0 is the
	// app's own.
	WalkSpeed float64 `json:"walk_speed"`
	// Source says what the pack was imported from ("shimeji"); "" for a
	// pack made by hand. The gallery offers to delete imported ones.
	Source string `json:"source"`
}

// validatePose checks the pose fields and the motions' per-frame
// durations and sets them on p.
func (m *manifest) validatePose(p *Pack) error {
	p.Feet = image.Pt(p.Size[0]/2, p.Size[1])
	if m.Feet != nil {
		if len(m.Feet) != 2 {
			return fmt.Errorf(`"feet" must be [x, y], got %d numbers`, len(m.Feet))
		}
		if m.Feet[0] < 0 || m.Feet[0] > p.Size[0] || m.Feet[1] < 1 || m.Feet[1] > p.Size[1] {
			return fmt.Errorf(`"feet" [%d, %d] is outside the character's size %dx%d`, m.Feet[0], m.Feet[1], p.Size[0], p.Size[1])
		}
		p.Feet = image.Pt(m.Feet[0], m.Feet[1])
	}
	switch f := Facing(m.Faces); f {
	case FacingFront, FacingLeft, FacingRight:
		p.Faces = f
	default:
		return fmt.Errorf(`"faces" %q must be "left", "right" or left out`, m.Faces)
	}
	if math.IsNaN(m.WalkSpeed) || m.WalkSpeed < 0 || m.WalkSpeed > MaxWalkSpeed {
		return fmt.Errorf(`"walk_speed" %v is outside 0..%d`, m.WalkSpeed, MaxWalkSpeed)
	}
	p.WalkSpeed = m.WalkSpeed
	if len(m.Source) > MaxNameLen || !ValidID(m.Source) && m.Source != "" {
		return fmt.Errorf(`"source" %q must be a short id`, m.Source)
	}
	p.Source = m.Source
	for _, id := range sortedKeys(m.Motions) {
		mo := m.Motions[id]
		if mo == nil || mo.DurationsMS == nil {
			continue
		}
		if len(mo.DurationsMS) != len(mo.Frames) {
			return fmt.Errorf(`motion %s: "durations_ms" has %d values for %d frames`, id, len(mo.DurationsMS), len(mo.Frames))
		}
		for i, ms := range mo.DurationsMS {
			d := time.Duration(ms) * time.Millisecond
			if d < MinFrameTime || d > MaxFrameTime {
				return fmt.Errorf(`motion %s: "durations_ms" %d of frame %d is outside %d..%d`, id, ms, i, MinFrameTime.Milliseconds(), MaxFrameTime.Milliseconds())
			}
		}
	}
	return nil
}

// durations returns a motion's per-frame durations, nil when it has none.
func (mo *manifestMotion) durations() []time.Duration {
	if mo.DurationsMS == nil {
		return nil
	}
	out := make([]time.Duration, len(mo.DurationsMS))
	for i, ms := range mo.DurationsMS {
		out[i] = time.Duration(ms) * time.Millisecond
	}
	return out
}

// makeMirror fills p.Mirror with flipped copies of the images when the
// pack faces a side. Each image is flipped once.
func (p *Pack) makeMirror() {
	if p.Faces == FacingFront {
		return
	}
	done := map[image.Image]image.Image{}
	flip := func(img image.Image) image.Image {
		if f, ok := done[img]; ok {
			return f
		}
		f := FlipH(img)
		done[img] = f
		return f
	}
	mi := &Mirror{Emotions: map[string]image.Image{}, Motions: map[string]Motion{}}
	for id, img := range p.Emotions {
		mi.Emotions[id] = flip(img)
	}
	for id, mo := range p.Motions {
		frames := make([]image.Image, len(mo.Frames))
		for i, f := range mo.Frames {
			frames[i] = flip(f)
		}
		mo.Frames = frames
		mi.Motions[id] = mo
	}
	p.Mirror = mi
}

// FlipH returns img mirrored left to right, as *image.NRGBA.
func FlipH(img image.Image) *image.NRGBA {
	src := toNRGBA(img)
	b := src.Rect
	out := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := 0; y < b.Dy(); y++ {
		row := src.Pix[y*src.Stride : y*src.Stride+b.Dx()*4]
		dst := out.Pix[y*out.Stride : y*out.Stride+b.Dx()*4]
		for x := 0; x < b.Dx(); x++ {
			copy(dst[(b.Dx()-1-x)*4:(b.Dx()-x)*4], row[x*4:x*4+4])
		}
	}
	return out
}

// Mirror holds a side-facing pack's images flipped (Pack.Mirror).
type Mirror struct {
	Emotions map[string]image.Image
	Motions  map[string]Motion
}

// Turned returns the pack as drawn flipped: the same pack with the
// mirror's images, or p itself when it has no mirror.
func (p *Pack) Turned(mirrored bool) *Pack {
	if p == nil || !mirrored || p.Mirror == nil {
		return p
	}
	q := *p
	q.Emotions, q.Motions, q.Mirror = p.Mirror.Emotions, p.Mirror.Motions, nil
	return &q
}
