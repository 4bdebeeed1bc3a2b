package vrmpack

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"yui/pet/character"
	"yui/pet/character/rig"
	"yui/pet/character/vrm"
)

// The pack's frames as poses (docs/product.md §14): what each picture
// shows, before anything is drawn. Poses that are the same are drawn once
// and their picture shared (a talk loop's closed mouth is its emotion's
// still; an emotion the model has no expression for is the neutral face).

// Emotions every pack made from a model has, whether or not the model
// has an expression for each (it then shows the neutral face).
var baseEmotions = []string{"neutral", "happy", "angry", "sad", "relaxed", "surprised"}

// presetNames are VRM 1.0's preset expressions: the ones that are not an
// emotion of their own.
var presetNames = map[string]bool{
	"neutral": true, "happy": true, "angry": true, "sad": true, "relaxed": true, "surprised": true,
	"aa": true, "ih": true, "ou": true, "ee": true, "oh": true,
	"blink": true, "blinkLeft": true, "blinkRight": true,
	"lookUp": true, "lookDown": true, "lookLeft": true, "lookRight": true,
}

// talkMouth is a talk loop's mouth, frame by frame: closed, opening
// through the visemes to the widest (aa) at frame n/2, and closing
// through the others. pet/mouth.go picks frames 0..n/2 by the audio's
// level, so they open wider one by one; the loop plays all of them when
// there is no audio to follow.
var talkMouth = []struct {
	viseme string
	weight float32
}{{"", 0}, {"ih", 0.6}, {"ee", 0.8}, {"aa", 1}, {"oh", 0.9}, {"ou", 0.7}}

// Rates of the motions the pack makes itself.
const (
	talkFPS = 8
	clipFPS = 12
	// gazeYaw is how far the eyes turn towards the pointer, in degrees.
	gazeYaw = 25
	// maxCustomEmotions bounds the model's own expressions taken as
	// emotions: each is a still and a talk loop.
	maxCustomEmotions = 12
)

// shot is one picture to draw.
type shot struct {
	file   string
	pose   rig.Pose
	shadow bool
}

// motionSpec is a motion of character.json.
type motionSpec struct {
	Frames []string `json:"frames"`
	FPS    float64  `json:"fps"`
	Loop   bool     `json:"loop"`
}

// plan is every picture of the pack and where the manifest uses it.
type plan struct {
	shots    []shot
	byKey    map[string]string // pose → file, to draw a pose once
	known    map[string]bool   // the model's expressions
	emotions map[string]string
	motions  map[string]motionSpec
	talkBy   map[string]string
	gaze     map[string]string
	faces    character.Facing
}

// add names the picture of pose p (drawing it once) and returns its file.
func (pl *plan) add(name string, p rig.Pose, shadow bool) string {
	if len(p.Expressions) > 0 {
		// Weights on expressions the model lacks change nothing drawn.
		w := make(map[string]float32, len(p.Expressions))
		for k, v := range p.Expressions {
			if pl.known[k] && v != 0 {
				w[k] = v
			}
		}
		p.Expressions = w
	}
	key := fmt.Sprintf("%v|%v|%v|%v|%v|%v|%v", poseBones(p.Bones), p.Hips, poseWeights(p.Expressions), p.Yaw, p.Pitch, p.Turn, shadow)
	if f, ok := pl.byKey[key]; ok {
		return f
	}
	f := name + ".png"
	pl.byKey[key] = f
	pl.shots = append(pl.shots, shot{file: f, pose: p, shadow: shadow})
	return f
}

// addMotion adds a motion's frames, at most character.MaxFrames of them.
func (pl *plan) addMotion(name string, poses []rig.Pose, fps float64, loop, shadow bool) {
	if len(poses) > character.MaxFrames {
		step := float64(len(poses)) / character.MaxFrames
		kept := make([]rig.Pose, 0, character.MaxFrames)
		for i := 0; i < character.MaxFrames; i++ {
			kept = append(kept, poses[int(float64(i)*step)])
		}
		fps = fps / step
		poses = kept
	}
	fps = min(max(fps, character.MinFPS), character.MaxFPS)
	spec := motionSpec{FPS: fps, Loop: loop}
	for i, p := range poses {
		spec.Frames = append(spec.Frames, pl.add(fmt.Sprintf("%s-%d", name, i), p, shadow))
	}
	pl.motions[name] = spec
}

// makePlan chooses every picture: the emotions, a talk loop per emotion,
// the gaze, the skeleton's motions and the clips.
func makePlan(m *vrm.Model, r *rig.Rig, clips map[string]*vrm.Clip) (*plan, error) {
	pl := &plan{byKey: map[string]string{}, emotions: map[string]string{}, motions: map[string]motionSpec{}, talkBy: map[string]string{}, gaze: map[string]string{}}
	has := map[string]*vrm.Expression{}
	pl.known = map[string]bool{}
	for i := range m.Expressions {
		has[m.Expressions[i].Name] = &m.Expressions[i]
		pl.known[m.Expressions[i].Name] = true
	}
	emotions := emotionsOf(m)
	for _, e := range emotions {
		pl.emotions[e.id] = pl.add("emotion-"+e.id, face(e.expr, nil), true)
	}
	for _, e := range emotions {
		name := "talk"
		if e.id != "neutral" {
			name = "talk_" + e.id
			if x := has[e.expr]; x != nil && x.OverrideMouth == "block" {
				// The face shuts the mouth (VRM's overrideMouth): it
				// talks with the plain loop rather than not at all.
				pl.talkBy[e.id] = "talk"
				continue
			}
		}
		poses := make([]rig.Pose, len(talkMouth))
		for i, t := range talkMouth {
			w := map[string]float32{}
			if t.viseme != "" {
				w[t.viseme] = t.weight
			}
			poses[i] = face(e.expr, w)
		}
		pl.addMotion(name, poses, talkFPS, true, true)
		pl.talkBy[e.id] = name
	}
	pl.gaze[character.GazeLeft] = pl.add("gaze-left", rig.Pose{Yaw: -gazeYaw}, true)
	pl.gaze[character.GazeRight] = pl.add("gaze-right", rig.Pose{Yaw: gazeYaw}, true)

	for _, mo := range r.Motions() {
		if !character.ValidID(mo.Name) || len(mo.Poses) == 0 || mo.Name == "talk" {
			continue
		}
		pl.addMotion(mo.Name, mo.Poses, mo.FPS, mo.Loop, shadowFor(mo.Name))
		if mo.Name == "walk" {
			switch {
			case mo.Faces < 0:
				pl.faces = character.FacingLeft
			case mo.Faces > 0:
				pl.faces = character.FacingRight
			}
		}
	}
	if _, ok := pl.motions["idle"]; !ok {
		pl.addMotion("idle", breath(), 4, true, true)
	}
	for _, id := range character.RequiredMotions {
		if _, ok := pl.motions[id]; !ok {
			// A model the rig cannot move stands for the motion.
			pl.addMotion(id, []rig.Pose{{}}, 1, true, shadowFor(id))
		}
	}
	for _, name := range sortedKeys(clips) {
		mo, err := r.Bake(name, clips[name], clipFPS)
		if err != nil {
			return nil, fmt.Errorf("motion %s: %w", name, err)
		}
		if len(mo.Poses) == 0 {
			return nil, fmt.Errorf("motion %s: the clip has no frames", name)
		}
		fps := mo.FPS
		if fps <= 0 {
			fps = clipFPS
		}
		pl.addMotion(name, mo.Poses, fps, mo.Loop, true)
	}
	return pl, nil
}

// shadowFor says whether a motion stands on the ground: sitting on a
// window's edge, falling and being held do not.
func shadowFor(motion string) bool {
	switch motion {
	case character.MotionSitEdge, "fall", character.MotionDrag:
		return false
	}
	return true
}

// face is the standing pose with expression expr at full weight ("" for
// none) and the extra weights.
func face(expr string, extra map[string]float32) rig.Pose {
	w := map[string]float32{}
	if expr != "" {
		w[expr] = 1
	}
	for k, v := range extra {
		w[k] = v
	}
	if len(w) == 0 {
		return rig.Pose{}
	}
	return rig.Pose{Expressions: w}
}

// breath is the idle loop of a model whose rig makes none: the figure
// rises and falls a little, and blinks once.
func breath() []rig.Pose {
	const n = 8
	poses := make([]rig.Pose, n)
	for i := range poses {
		poses[i].Hips = vrm.Vec3{0, 0.004 * float32(math.Sin(2*math.Pi*float64(i)/n)), 0}
		if i == 5 {
			poses[i].Expressions = map[string]float32{"blink": 1}
		}
	}
	return poses
}

// emotion is an emotion of the pack: its id and the model's expression
// that shows it ("" for neutral).
type emotion struct{ id, expr string }

// emotionsOf lists the pack's emotions: the base ones and the model's own
// expressions, with ids a pack allows.
func emotionsOf(m *vrm.Model) []emotion {
	out := []emotion{{"neutral", ""}}
	taken := map[string]bool{"neutral": true}
	for _, e := range baseEmotions[1:] {
		out = append(out, emotion{e, e})
		taken[e] = true
	}
	var custom []emotion
	for _, x := range m.Expressions {
		if x.Preset || presetNames[x.Name] || presetNames[strings.ToLower(x.Name)] {
			continue
		}
		id := strings.Trim(notID.ReplaceAllString(strings.ToLower(x.Name), "_"), "-_")
		if len(id) > 48 {
			id = id[:48]
		}
		if !character.ValidID(id) || taken[id] {
			continue
		}
		taken[id] = true
		custom = append(custom, emotion{id, x.Name})
	}
	sort.Slice(custom, func(i, j int) bool { return custom[i].id < custom[j].id })
	if len(custom) > maxCustomEmotions {
		custom = custom[:maxCustomEmotions]
	}
	return append(out, custom...)
}

// poseBones and poseWeights print a pose's maps in key order, for the
// key a pose is drawn once under.
func poseBones(b map[string]vrm.Quat) string {
	var sb strings.Builder
	for _, k := range sortedKeys(b) {
		fmt.Fprintf(&sb, "%s=%v;", k, b[k])
	}
	return sb.String()
}

func poseWeights(w map[string]float32) string {
	var sb strings.Builder
	for _, k := range sortedKeys(w) {
		if w[k] != 0 {
			fmt.Fprintf(&sb, "%s=%v;", k, w[k])
		}
	}
	return sb.String()
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
