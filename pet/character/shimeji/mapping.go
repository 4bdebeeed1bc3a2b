package shimeji

import (
	"fmt"
	"time"

	"yui/pet/character"
)

// Tick is Shimeji's clock: durations are in ticks and velocities in
// pixels a tick.
const Tick = 40 * time.Millisecond

// maxTicks caps a pose's duration (character.MaxFrameTime).
const maxTicks = int(character.MaxFrameTime / Tick)

// maxSide is the largest image side a set may have.
const maxSide = character.MaxImageSide

// source names the set's actions a motion is taken from, in order of
// preference, in both dialects.
type source struct {
	motion   string
	loop     bool
	optional bool // left out when the set lacks it: the app falls back
	from     []string
}

// mapping is what maps to what (docs/character/README.md states it).
// Stand is required; a motion none of whose actions the set has stands.
var mapping = []source{
	{"idle", true, false, []string{"Stand", "立つ"}},
	{"walk", true, false, []string{"Walk", "歩く"}},
	{"sit", true, false, []string{"Sit", "座る"}},
	{character.MotionSitEdge, true, true, []string{"SitAndDangleLegs", "足をぶらぶらさせる", "SitWithLegsDown", "足を下ろして座る"}},
	{"fall", true, false, []string{"Falling", "落ちる"}},
	{character.MotionLand, false, true, []string{"Bouncing", "跳ねる"}},
	{character.MotionDrag, true, true, []string{"Resisting", "抵抗する", "Pinched", "つままれる"}},
	{"thinking", true, false, []string{"SitAndLookUp", "座って見上げる", "Sit", "座る"}},
	{"talk", true, false, []string{"Talk", "話す", "Bouncing", "跳ねる"}},
	// Further motions a set usually has, for cues and the gallery.
	{"run", true, true, []string{"Run", "走る"}},
	{"dash", true, true, []string{"Dash", "猛ダッシュ"}},
	{"jump", true, true, []string{"Jumping", "ジャンプ"}},
	{"trip", false, true, []string{"Tripping", "転ぶ"}},
	{"spin_head", false, true, []string{"SitAndSpinHeadAction", "座って首が回る"}},
}

// sleepyFrom is the pose of the sleepy emotion; every other emotion
// stands (a set has no faces).
var sleepyFrom = []string{"Sprawl", "寝そべる"}

// emotions a pack made from a set offers: the default character's.
var emotions = []string{"neutral", "happy", "sad", "angry", "surprised", "thinking", "confused", "embarrassed", "curious", "sleepy"}

// chosen is a motion with the poses it is made of.
type chosen struct {
	motion string
	loop   bool
	action string
	poses  []Pose
}

// choose picks each motion's action. It fails when the set has no Stand
// or a chosen action declares an animation with no poses.
func choose(actions []Action) ([]chosen, []Pose, error) {
	byName := make(map[string]Action, len(actions))
	for _, a := range actions {
		byName[a.Name] = a
	}
	pick := func(names []string) (Action, bool, error) {
		for _, n := range names {
			a, ok := byName[n]
			if !ok || !a.HasAnimation {
				continue
			}
			if len(a.Poses) == 0 {
				return a, false, fmt.Errorf("action %s has no poses", n)
			}
			return a, true, nil
		}
		return Action{}, false, nil
	}
	var out []chosen
	var stand Action
	for i, s := range mapping {
		a, ok, err := pick(s.from)
		if err != nil {
			return nil, nil, err
		}
		if i == 0 {
			if !ok {
				return nil, nil, fmt.Errorf("no Stand (立つ) action with poses: a set needs one")
			}
			stand = a
		}
		if !ok {
			if s.optional {
				continue
			}
			a = stand
		}
		out = append(out, chosen{motion: s.motion, loop: s.loop, action: a.Name, poses: a.Poses})
	}
	sleepy := stand.Poses[:1]
	if a, ok, err := pick(sleepyFrom); err != nil {
		return nil, nil, err
	} else if ok {
		sleepy = a.Poses[:1]
	}
	return out, sleepy, nil
}

// walkSpeed is the walk's pace in image pixels a second: its poses'
// horizontal speed, weighted by their durations.
func walkSpeed(poses []Pose) float64 {
	var dist, ticks float64
	for _, p := range poses {
		v := p.Velocity[0]
		if v < 0 {
			v = -v
		}
		dist += v * float64(p.Ticks)
		ticks += float64(p.Ticks)
	}
	if ticks == 0 {
		return 0
	}
	return dist / ticks * float64(time.Second/Tick)
}
