package vrmtest

import "math"

// The face's morph targets, in the Face mesh's order. Each moves the
// brows, eyelids and mouth so that the expression shows at a glance.
var targetNames = []string{
	"happy", "angry", "sad", "relaxed", "surprised",
	"aa", "ih", "ou", "ee", "oh",
	"blink", "blinkLeft", "blinkRight",
	"smirk", "puzzled", // custom expressions
}

// customExpressions are the targets that are not VRM 1.0 presets.
var customExpressions = map[string]bool{"smirk": true, "puzzled": true}

// featureKind is the part of the face a vertex belongs to.
type featureKind uint8

const (
	fWhite featureKind = iota
	fLid
	fBrow
	fMouth
)

// feature is one small ellipsoid on the face.
type feature struct {
	kind featureKind
	c, r vec3
	side float32 // +1 the avatar's left (+X), -1 its right, 0 the middle
}

// surfaceZ is the head's front surface's Z at (x, y).
func surfaceZ(x, y float32) float32 {
	u, v := x/headRX, (y-headY)/headRY
	return headRZ * float32(math.Sqrt(math.Max(0, float64(1-u*u-v*v))))
}

func faceFeatures() []feature {
	var fs []feature
	for _, s := range []float32{1, -1} {
		x := s * eyeX
		z := surfaceZ(x, eyeY)
		fs = append(fs,
			feature{fWhite, vec3{x, eyeY, z + 0.001}, vec3{0.022, 0.026, 0.005}, s},
			feature{fLid, vec3{x, eyeY + lidOpenY, z + 0.006}, vec3{0.027, lidOpenR, 0.006}, s},
			feature{fBrow, vec3{x, eyeY + 0.05, surfaceZ(x, eyeY+0.05) + 0.004}, vec3{0.026, 0.006, 0.004}, s},
		)
	}
	fs = append(fs, feature{fMouth, vec3{0, mouthY, surfaceZ(0, mouthY) + 0.002}, vec3{mouthW, mouthH, 0.004}, 0})
	return fs
}

// The eyelids' open and closed centre offsets and half-heights, and the
// mouth's rest half-width and half-height.
const (
	lidOpenY   = 0.03
	lidOpenR   = 0.008
	lidClosedY = 0.004
	lidClosedR = 0.03
	mouthW     = 0.022
	mouthH     = 0.004
)

// mouthShape is a mouth's half-width, half-height and corner lift.
type mouthShape struct{ w, h, corner float32 }

// look is what one target does to the face.
type look struct {
	mouth      *mouthShape
	lids       [2]float32 // closed fraction: left, right
	browUp     float32    // both brows up
	browInner  float32    // the brows' inner ends up (sad) or down (angry, negative)
	browLeftUp float32
	smirk      float32 // the mouth's left corner up
}

var looks = map[string]look{
	"happy":      {mouth: &mouthShape{0.028, 0.008, 0.009}, lids: [2]float32{0.35, 0.35}, browUp: 0.004},
	"angry":      {mouth: &mouthShape{0.018, 0.004, -0.004}, browInner: -0.016},
	"sad":        {mouth: &mouthShape{0.018, 0.004, -0.007}, browInner: 0.014, lids: [2]float32{0.2, 0.2}},
	"relaxed":    {mouth: &mouthShape{0.024, 0.004, 0.004}, lids: [2]float32{0.5, 0.5}},
	"surprised":  {mouth: &mouthShape{0.014, 0.016, 0}, browUp: 0.014},
	"aa":         {mouth: &mouthShape{0.02, 0.02, 0}},
	"ih":         {mouth: &mouthShape{0.026, 0.008, 0.002}},
	"ou":         {mouth: &mouthShape{0.011, 0.012, 0}},
	"ee":         {mouth: &mouthShape{0.03, 0.007, 0.001}},
	"oh":         {mouth: &mouthShape{0.016, 0.016, 0}},
	"blink":      {lids: [2]float32{1, 1}},
	"blinkLeft":  {lids: [2]float32{1, 0}},
	"blinkRight": {lids: [2]float32{0, 1}},
	"smirk":      {smirk: 0.008},
	"puzzled":    {browLeftUp: 0.014},
}

// displacement is where target name moves vertex v of feature f.
func displacement(name string, f feature, v vec3) vec3 {
	lk := looks[name]
	u := (v[0] - f.c[0]) / f.r[0] // −1..1 across the feature
	w := (v[1] - f.c[1]) / f.r[1] // −1..1 up it
	var d vec3
	switch f.kind {
	case fLid:
		k := lk.lids[0]
		if f.side < 0 {
			k = lk.lids[1]
		}
		cy := lidOpenY + (lidClosedY-lidOpenY)*k
		ry := lidOpenR + (lidClosedR-lidOpenR)*k
		d[1] = (eyeY + cy + w*ry) - v[1]
	case fBrow:
		inner := (1 - u*f.side) / 2 // 1 at the end nearer the middle
		d[1] = lk.browUp + lk.browInner*inner
		if f.side > 0 {
			d[1] += lk.browLeftUp
		}
	case fMouth:
		m := mouthShape{mouthW, mouthH, 0}
		if lk.mouth != nil {
			m = *lk.mouth
		}
		nx := f.c[0] + u*m.w
		ny := f.c[1] + w*m.h + m.corner*u*u + lk.smirk*max(u, 0)*max(u, 0)
		d[0], d[1] = nx-v[0], ny-v[1]
	}
	return d
}
