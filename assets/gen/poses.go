package main

import "math"

// emotion is one emotion image.
type emotion struct {
	id   string
	pose pose
}

// motion is one animation.
type motion struct {
	id     string
	file   string // file name prefix
	fps    float64
	loop   bool
	frames []pose
}

// emotions are the pack's emotion poses, each drawn from the neutral
// base pose by what it changes.
func emotions() []emotion {
	return []emotion{
		{"neutral", basePose()},
		{"happy", happyPose()},
		{"sad", sadPose()},
		{"angry", angryPose()},
		{"surprised", surprisedPose()},
		{"curious", curiousPose()},
		{"sleepy", sleepyPose()},
		{"embarrassed", embarrassedPose()},
		{"thinking", thinkingPose(0)},
		{"confused", confusedPose()},
	}
}

// happyPose grins with happy eyes and blushes, arms up, sparkles in the air.
func happyPose() pose {
	p := basePose()
	p.face.eyes = eyeHappy
	p.face.mouth = mouthGrin
	p.face.blush = 0.8
	p.armL, p.armR = arm{angle: 1.95}, arm{angle: 1.95}
	p.sy, p.sx = 1.02, 0.99
	p.sway = -0.12
	p.airExtras = append(p.airExtras, sparkleExtra)
	return p
}

// sadPose droops: lids and brows tilted down, a frown, low arms and a tear.
func sadPose() pose {
	p := basePose()
	p.face.openL, p.face.openR = 0.8, 0.8
	p.face.lidTiltL, p.face.lidTiltR = -0.35, -0.35
	p.face.browL = brow{on: true, tilt: -0.45, raise: 2}
	p.face.browR = p.face.browL
	p.face.mouth = mouthFrown
	p.face.lookY = 4
	p.face.blush = 0.35
	p.armL, p.armR = arm{angle: 0.35}, arm{angle: 0.35}
	p.sy, p.sx = 0.97, 1.02
	p.sway = 0.45
	p.bodyExtras = append(p.bodyExtras, tearExtra)
	return p
}

// angryPose glares under lowered brows and pouts, with an anger mark in the air.
func angryPose() pose {
	p := basePose()
	p.face.openL, p.face.openR = 0.72, 0.72
	p.face.lidTiltL, p.face.lidTiltR = 0.45, 0.45
	p.face.browL = brow{on: true, tilt: 0.55, raise: -6}
	p.face.browR = p.face.browL
	p.face.mouth = mouthPout
	p.face.blush = 0.7
	p.armL, p.armR = arm{angle: 1.25}, arm{angle: 1.25}
	p.sx, p.sy = 1.0, 0.98
	p.airExtras = append(p.airExtras, angerExtra)
	return p
}

// surprisedPose opens its eyes and mouth wide, brows and arms up, stretched tall.
func surprisedPose() pose {
	p := basePose()
	p.face.eyeScale = 1.15
	p.face.browL = brow{on: true, tilt: -0.1, raise: 12}
	p.face.browR = p.face.browL
	p.face.mouth = mouthO
	p.face.mouthOpen = 0.8
	p.armL, p.armR = arm{angle: 2.0}, arm{angle: 2.0}
	p.sx, p.sy = 0.97, 1.05
	p.sway = -0.2
	p.airExtras = append(p.airExtras, surpriseExtra)
	return p
}

// curiousPose leans and looks aside with a brow raised and a small "o".
func curiousPose() pose {
	p := basePose()
	p.tilt = -0.16
	p.face.lookX, p.face.lookY = -6, -3
	p.face.eyeScale = 1.08
	p.face.browL = brow{on: true, tilt: -0.2, raise: 12}
	p.face.browR = brow{on: true, tilt: -0.05, raise: 4}
	p.face.mouth = mouthO
	p.face.mouthOpen = 0.25
	p.face.mouthDX = -4
	p.armR = arm{angle: 1.2}
	p.sway = 0.25
	return p
}

// sleepyPose closes its eyes and settles low, with a "zzz" in the air.
func sleepyPose() pose {
	p := basePose()
	p.face.eyes = eyeClosed
	p.face.mouth = mouthO
	p.face.mouthOpen = 0
	p.face.blush = 0.45
	p.sx, p.sy = 1.04, 0.95
	p.armL, p.armR = arm{angle: 0.4}, arm{angle: 0.4}
	p.sway = -0.5
	p.airExtras = append(p.airExtras, zzzExtra)
	return p
}

// embarrassedPose squints and blushes hard, with a wavy mouth and a drop of sweat.
func embarrassedPose() pose {
	p := basePose()
	p.face.eyes = eyeSquint
	p.face.mouth = mouthWavy
	p.face.blush = 0.95
	p.face.blushLines = true
	p.armL, p.armR = arm{angle: 0.3}, arm{angle: 0.3}
	p.sx, p.sy = 1.02, 0.97
	p.sway = 0.2
	p.bodyExtras = append(p.bodyExtras, sweatExtra)
	return p
}

// confusedPose looks with uneven eyes and brows under a question mark, sweating.
func confusedPose() pose {
	p := basePose()
	p.tilt = 0.1
	p.face.eyeScale = 0.78
	p.face.eyeScaleR = 1.12
	p.face.browL = brow{on: true, tilt: 0.35, raise: -8}
	p.face.browR = brow{on: true, tilt: -0.25, raise: 10}
	p.face.mouth = mouthWavy
	p.face.blush = 0.45
	p.sway = -0.3
	p.airExtras = append(p.airExtras, questionExtra)
	p.bodyExtras = append(p.bodyExtras, sweatExtra)
	return p
}

func thinkingPose(dots int) pose {
	p := basePose()
	p.face.lookX, p.face.lookY = 7, -9
	p.face.mouth = mouthFlat
	p.face.mouthDX = 8
	p.face.browL = brow{on: true, tilt: -0.1, raise: 6}
	p.face.browR = brow{on: true, tilt: 0.15, raise: 2}
	p.armR = arm{angle: 2.1}
	p.sway = 0.15
	p.dots = dots
	return p
}

// motions are the pack's motions, each a list of frames.
func motions() []motion {
	return []motion{
		{id: "idle", file: "idle", fps: 2, loop: true, frames: idleFrames()},
		{id: "thinking", file: "think", fps: 3, loop: true, frames: thinkFrames()},
		{id: "talk", file: "talk", fps: 8, loop: true, frames: talkFrames()},
		{id: "walk", file: "walk", fps: 10, loop: true, frames: walkFrames()},
		{id: "sit", file: "sit", fps: 2, loop: true, frames: sitFrames()},
		{id: "fall", file: "fall", fps: 8, loop: true, frames: fallFrames()},
	}
}

// idleFrames breathe once over eight frames, blinking on the seventh.
func idleFrames() []pose {
	var idle []pose
	for i := 0; i < 8; i++ {
		b := math.Sin(2 * math.Pi * float64(i) / 8)
		p := basePose()
		p.sy = 1 + 0.018*b
		p.sx = 1 - 0.01*b
		p.sway = 0.06 * math.Sin(2*math.Pi*float64(i)/8+1)
		p.armL.angle = restArm + 0.08*b
		p.armR.angle = restArm + 0.08*b
		if i == 6 {
			p.face.eyes = eyeClosed
		}
		idle = append(idle, p)
	}
	return idle
}

// thinkFrames count the thinking dots up, the sprout swaying.
func thinkFrames() []pose {
	var think []pose
	for i := 0; i < 4; i++ {
		p := thinkingPose(i)
		p.sway = 0.15 + 0.05*float64(i%2)
		think = append(think, p)
	}
	return think
}

// talkFrames open and close the mouth, the body and arms following it.
func talkFrames() []pose {
	var talk []pose
	for i, o := range []float64{0, 0.55, 1, 0.45} {
		p := basePose()
		p.face.mouth = mouthTalk
		p.face.mouthOpen = o
		p.sy = 1 + 0.015*o
		p.sx = 1 - 0.008*o
		p.armL.angle = restArm + 0.35*o
		p.armR.angle = restArm + 0.2*float64(i%2)
		talk = append(talk, p)
	}
	return talk
}

// walkFrames are one hop: squash, lift off, top, land.
func walkFrames() []pose {
	var walk []pose
	for _, f := range []struct{ sx, sy, lift, arm, sway float64 }{
		{1.08, 0.87, 0, 0.45, 0.25},
		{0.92, 1.1, 12, 1.1, -0.05},
		{0.96, 1.05, 40, 1.45, -0.25},
		{1, 1, 48, 1.6, -0.3},
		{0.95, 1.07, 28, 1.25, -0.1},
		{1.05, 0.94, 0, 0.8, 0.2},
	} {
		p := basePose()
		p.sx, p.sy, p.lift = f.sx, f.sy, f.lift
		p.armL.angle, p.armR.angle = f.arm, f.arm
		p.sway = f.sway
		if f.lift > 0 {
			p.face.mouth = mouthCat
		}
		walk = append(walk, p)
	}
	return walk
}

// sitFrames settle flat, blushing.
func sitFrames() []pose {
	var sit []pose
	for i := 0; i < 2; i++ {
		p := basePose()
		p.flat = 1
		p.sx, p.sy = 1.08, 0.9-0.012*float64(i)
		p.face.mouth = mouthCat
		p.face.blush = 0.65
		p.armL, p.armR = arm{angle: 0.3}, arm{angle: 0.3}
		p.sway = 0.1 + 0.08*float64(i)
		sit = append(sit, p)
	}
	return sit
}

// fallFrames stretch in surprise, arms up, air rushing past.
func fallFrames() []pose {
	var fall []pose
	for i := 0; i < 2; i++ {
		p := basePose()
		p.sx, p.sy = 0.86, 1.16
		p.shadow = 0
		p.face.eyeScale = 1.12
		p.face.browL = brow{on: true, tilt: -0.3, raise: 12}
		p.face.browR = p.face.browL
		p.face.mouth = mouthO
		p.face.mouthOpen = 1
		p.armL, p.armR = arm{angle: 2.0 + 0.25*float64(i), lift: 34}, arm{angle: 2.25 - 0.25*float64(i), lift: 34}
		p.airExtras = append(p.airExtras, speedLines(i))
		p.sway = -0.5 + 0.3*float64(i)
		fall = append(fall, p)
	}
	return fall
}

// speedLines are the streaks of air rushing past a falling Yui.
func speedLines(frame int) func(*drawer) {
	return func(d *drawer) {
		for i, l := range []struct{ x, y, n float64 }{{-150, 150, 60}, {-120, 60, 40}, {150, 110, 56}, {124, 30, 36}} {
			y := l.y + float64((frame+i)%2)*14
			d.c.fill(stroke([]pt{{cx + l.x, y}, {cx + l.x, y + l.n}}, constWidth(6)), d.pal.outline)
		}
	}
}

// gazes are the neutral face looking towards the pointer, by direction.
func gazes() map[string]pose {
	left, right := basePose(), basePose()
	left.face.lookX, right.face.lookX = -8, 8
	return map[string]pose{"left": left, "right": right}
}
