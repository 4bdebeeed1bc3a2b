package rig

import (
	"math"

	"yui/pet/character/vrm"
)

// The desktop motions, written once in the normalised bone space (see
// state.pose in skeleton.go): with the model facing +Z and its left at
// +X, a rotation about −X swings a hanging limb forward, about +X a lower
// leg back (the knee bends), about +Z the model's left arm or leg out to
// its side and the right one in.

const motionFPS = 8

var (
	axisX = vec3{1, 0, 0}
	axisY = vec3{0, 1, 0}
	axisZ = vec3{0, 0, 1}
)

// bones builds a Pose.Bones map from rotations.
type bones map[string]vrm.Quat

func (b bones) rot(name string, q quat) bones {
	if old, ok := b[name]; ok {
		q = q.mul(q64(old))
	}
	b[name] = q.norm().f32()
	return b
}

func (b bones) x(name string, deg float64) bones { return b.rot(name, axisAngle(axisX, deg)) }
func (b bones) z(name string, deg float64) bones { return b.rot(name, axisAngle(axisZ, deg)) }
func (b bones) y(name string, deg float64) bones { return b.rot(name, axisAngle(axisY, deg)) }

// side mirrors a left-side angle about Z for the right side.
func side(s string, deg float64) float64 {
	if s == "right" {
		return -deg
	}
	return deg
}

func (r *Rig) motions() []Motion {
	ms := []Motion{r.idle(), r.walk(), r.sit(), r.sitEdge(), r.fall(), r.land(), r.drag(), r.thinking()}
	return ms
}

// grounded moves p so that the lowest foot joint stays where the
// stance's is (a bent knee lowers the figure, a swinging leg bobs it).
func (r *Rig) grounded(p Pose) Pose {
	if math.IsNaN(r.footRest) {
		return p
	}
	q := p
	q.Hips = vrm.Vec3{}
	q.Turn = 0
	if y, ok := r.footHeight(r.skeleton(q)); ok {
		p.Hips[1] += float32(r.footRest - y)
	}
	return p
}

// standBounds is the stance's box, zero when the model cannot be posed.
func (r *Rig) standBounds() (vrm.Vec3, vrm.Vec3) {
	lo, hi, err := r.bounds(Pose{})
	if err != nil {
		return vrm.Vec3{}, vrm.Vec3{}
	}
	return lo, hi
}

func (r *Rig) idle() Motion {
	const n = 10
	m := Motion{Name: "idle", FPS: motionFPS, Loop: true}
	for i := 0; i < n; i++ {
		b := math.Sin(2 * math.Pi * float64(i) / n) // the breath, -1..1
		p := Pose{Bones: bones{}.
			x("spine", -0.8*b).x("chest", -1.2*b).x("upperChest", -0.8*b).
			x("neck", 0.8*b).x("head", 0.6*b).
			z("leftShoulder", 1.5*b).z("rightShoulder", -1.5*b).
			z("leftUpperArm", -1*b).z("rightUpperArm", 1*b)}
		if i == 6 {
			p.Expressions = map[string]float32{"blink": 1}
		}
		m.Poses = append(m.Poses, r.grounded(p))
	}
	return m
}

// walkTurn turns the walker towards the side she walks to, enough that
// her legs read from the side.
const walkTurn = 75

func (r *Rig) walk() Motion {
	const n = 12
	m := Motion{Name: "walk", FPS: 12, Loop: true, Faces: +1}
	_, hi := r.standBounds()
	noLegs := math.IsNaN(r.footRest)
	for i := 0; i < n; i++ {
		ph := 2 * math.Pi * float64(i) / n
		s, c := math.Sin(ph), math.Cos(ph)
		// The leg swinging forward (cos > 0 for the left) lifts its knee.
		kneeL := 5 + 40*math.Max(0, c)
		kneeR := 5 + 40*math.Max(0, -c)
		b := bones{}.
			x("leftUpperLeg", -28*s).x("rightUpperLeg", 28*s).
			x("leftLowerLeg", kneeL).x("rightLowerLeg", kneeR).
			x("leftFoot", -0.3*kneeL).x("rightFoot", -0.3*kneeR).
			x("leftUpperArm", 22*s).x("rightUpperArm", -22*s).
			x("leftLowerArm", -10-8*math.Max(0, -s)).x("rightLowerArm", -10-8*math.Max(0, s)).
			y("spine", 4*s).y("chest", -6*s).x("spine", 3)
		p := r.grounded(Pose{Bones: b, Turn: walkTurn})
		if noLegs {
			// A figure without legs hops along as a whole.
			p.Hips[1] += float32(0.03 * float64(hi[1]) * math.Abs(s))
		}
		m.Poses = append(m.Poses, p)
	}
	return m
}

// sitBones sits the figure: the upper legs forward 90°, the lower legs
// bent by knee degrees.
func sitBones(knee float64) bones {
	return bones{}.
		x("leftUpperLeg", -90).x("rightUpperLeg", -90).
		z("leftUpperLeg", 6).z("rightUpperLeg", -6).
		x("leftLowerLeg", knee).x("rightLowerLeg", knee).
		x("spine", 4).x("leftUpperArm", -20).x("rightUpperArm", -20).
		x("leftLowerArm", -25).x("rightLowerArm", -25)
}

// sit is sitting on the floor: legs forward, lowered until the lowest
// point is where the standing feet were.
func (r *Rig) sit() Motion {
	m := Motion{Name: "sit", FPS: 4, Loop: true}
	lo, _ := r.standBounds()
	for i := 0; i < 4; i++ {
		b := sitBones(10).x("chest", -0.8*math.Sin(math.Pi*float64(i)/2))
		p := Pose{Bones: b}
		if l, _, err := r.bounds(p); err == nil && !math.IsNaN(r.footRest) {
			p.Hips[1] = lo[1] - l[1]
		}
		m.Poses = append(m.Poses, p)
	}
	return m
}

// sitEdge sits on a window's edge: the seat (the thighs' underside) on
// the standing feet's line, the lower legs hanging below it.
func (r *Rig) sitEdge() Motion {
	m := Motion{Name: "sit_edge", FPS: 4, Loop: true}
	lo, _ := r.standBounds()
	for i := 0; i < 4; i++ {
		sw := 6 * math.Sin(math.Pi*float64(i)/2) // the feet swing
		b := sitBones(90).x("leftLowerLeg", sw).x("rightLowerLeg", -sw)
		p := Pose{Bones: b}
		if seat, ok := r.seatHeight(p); ok {
			p.Hips[1] = lo[1] - float32(seat)
		}
		m.Poses = append(m.Poses, p)
	}
	return m
}

// seatHeight is the thighs' underside in p (without its hips offset):
// the upper legs' joints less the thighs' thickness, taken as half the
// distance between the hip joints.
func (r *Rig) seatHeight(p Pose) (float64, bool) {
	l, rr := r.boneNode("leftUpperLeg"), r.boneNode("rightUpperLeg")
	if l < 0 || rr < 0 {
		return 0, false
	}
	w := r.skeleton(p)
	a, b := w[l].origin(), w[rr].origin()
	thick := 0.5 * math.Abs(a[0]-b[0])
	return math.Min(a[1], b[1]) - thick, true
}

func (r *Rig) fall() Motion {
	m := Motion{Name: "fall", FPS: 8, Loop: true}
	for i := 0; i < 4; i++ {
		f := 8 * math.Sin(2*math.Pi*float64(i)/4)
		b := bones{}
		for _, s := range []string{"left", "right"} {
			b.z(s+"UpperArm", side(s, 140+f)).x(s+"LowerArm", -15).
				z(s+"UpperLeg", side(s, 22-f/2)).x(s+"LowerLeg", 20+f)
		}
		b.x("head", -8)
		m.Poses = append(m.Poses, Pose{Bones: b, Expressions: map[string]float32{"surprised": 0.6}})
	}
	return m
}

func (r *Rig) land() Motion {
	m := Motion{Name: "land", FPS: 12}
	for _, k := range []float64{0.6, 1, 0.8, 0.5, 0.2, 0} {
		b := bones{}.
			x("leftUpperLeg", -45*k).x("rightUpperLeg", -45*k).
			x("leftLowerLeg", 85*k).x("rightLowerLeg", 85*k).
			x("leftFoot", -40*k).x("rightFoot", -40*k).
			x("spine", 15*k).x("leftUpperArm", -25*k).x("rightUpperArm", -25*k)
		m.Poses = append(m.Poses, r.grounded(Pose{Bones: b}))
	}
	return m
}

func (r *Rig) drag() Motion {
	const n = 8
	m := Motion{Name: "drag", FPS: 8, Loop: true}
	for i := 0; i < n; i++ {
		s := math.Sin(2 * math.Pi * float64(i) / n)
		b := bones{}
		for _, sd := range []string{"left", "right"} {
			b.z(sd+"UpperArm", side(sd, -10)).x(sd+"UpperArm", -6*s).x(sd+"LowerArm", -4).
				x(sd+"UpperLeg", 6*s).x(sd+"LowerLeg", 12)
		}
		b.x("head", 6).z("spine", 3*s)
		m.Poses = append(m.Poses, Pose{Bones: b, Expressions: map[string]float32{"surprised": 0.3}})
	}
	return m
}

func (r *Rig) thinking() Motion {
	const n = 8
	m := Motion{Name: "thinking", FPS: 4, Loop: true}
	hand := r.handToChin("right")
	for i := 0; i < n; i++ {
		s := math.Sin(2 * math.Pi * float64(i) / n)
		b := bones{}.x("leftUpperArm", -15).x("leftLowerArm", -40).
			z("head", -10-2*s).x("head", -4).x("spine", 2)
		for k, v := range hand {
			b[k] = v
		}
		m.Poses = append(m.Poses, r.grounded(Pose{Bones: b, Pitch: 20, Yaw: float32(8 * s)}))
	}
	return m
}

// handToChin aims one arm in world terms, from the stance's joint
// positions: the upper arm forward, down and in, the forearm from the
// elbow up to just under the chin.
func (r *Rig) handToChin(sd string) bones {
	ua, la, hd := r.boneNode(sd+"UpperArm"), r.boneNode(sd+"LowerArm"), r.boneNode(sd+"Hand")
	neck := r.boneNode("neck")
	if neck < 0 {
		neck = r.boneNode("head")
	}
	if ua < 0 || la < 0 || hd < 0 || neck < 0 {
		return bones{}
	}
	w := r.skeleton(Pose{})
	pu, pl, ph, pn := w[ua].origin(), w[la].origin(), w[hd].origin(), w[neck].origin()
	lu := pl.sub(pu).length()
	in := -1.0 // towards the body's middle
	if pu[0] < pn[0] {
		in = 1
	}
	upper := vec3{0.3 * in, -0.75, 0.6}.norm()
	bu := fromTo(pl.sub(pu), upper)
	elbow := pu.add(upper.scale(lu))
	chin := pn.add(vec3{0, 0, 0.45 * lu})
	// The forearm's rotation acts in the frame the upper arm's left it in.
	turned := bu.rotate(ph.sub(pl))
	fore := chin.sub(elbow).norm()
	bl := bu.conj().mul(fromTo(turned, fore)).mul(bu)
	// The hand bends back at the wrist to point up under the chin.
	acc := bu.mul(bl)
	bh := acc.conj().mul(fromTo(fore, vec3{0, 1, -0.3})).mul(acc)
	return bones{sd + "UpperArm": bu.norm().f32(), sd + "LowerArm": bl.norm().f32(), sd + "Hand": bh.norm().f32()}
}
