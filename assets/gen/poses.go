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

func emotions() []emotion {
	neutral := basePose()

	happy := basePose()
	happy.face.eyes = eyeHappy
	happy.face.mouth = mouthGrin
	happy.face.blush = 0.8
	happy.armL, happy.armR = arm{angle: 1.95}, arm{angle: 1.95}
	happy.sy, happy.sx = 1.02, 0.99
	happy.sway = -0.12
	happy.airExtras = append(happy.airExtras, sparkleExtra)

	sad := basePose()
	sad.face.openL, sad.face.openR = 0.8, 0.8
	sad.face.lidTiltL, sad.face.lidTiltR = -0.35, -0.35
	sad.face.browL = brow{on: true, tilt: -0.45, raise: 2}
	sad.face.browR = sad.face.browL
	sad.face.mouth = mouthFrown
	sad.face.lookY = 4
	sad.face.blush = 0.35
	sad.armL, sad.armR = arm{angle: 0.35}, arm{angle: 0.35}
	sad.sy, sad.sx = 0.97, 1.02
	sad.sway = 0.45
	sad.bodyExtras = append(sad.bodyExtras, tearExtra)

	angry := basePose()
	angry.face.openL, angry.face.openR = 0.72, 0.72
	angry.face.lidTiltL, angry.face.lidTiltR = 0.45, 0.45
	angry.face.browL = brow{on: true, tilt: 0.55, raise: -6}
	angry.face.browR = angry.face.browL
	angry.face.mouth = mouthPout
	angry.face.blush = 0.7
	angry.armL, angry.armR = arm{angle: 1.25}, arm{angle: 1.25}
	angry.sx, angry.sy = 1.0, 0.98
	angry.airExtras = append(angry.airExtras, angerExtra)

	surprised := basePose()
	surprised.face.eyeScale = 1.15
	surprised.face.browL = brow{on: true, tilt: -0.1, raise: 12}
	surprised.face.browR = surprised.face.browL
	surprised.face.mouth = mouthO
	surprised.face.mouthOpen = 0.8
	surprised.armL, surprised.armR = arm{angle: 2.0}, arm{angle: 2.0}
	surprised.sx, surprised.sy = 0.97, 1.05
	surprised.sway = -0.2
	surprised.airExtras = append(surprised.airExtras, surpriseExtra)

	curious := basePose()
	curious.tilt = -0.16
	curious.face.lookX, curious.face.lookY = -6, -3
	curious.face.eyeScale = 1.08
	curious.face.browL = brow{on: true, tilt: -0.2, raise: 12}
	curious.face.browR = brow{on: true, tilt: -0.05, raise: 4}
	curious.face.mouth = mouthO
	curious.face.mouthOpen = 0.25
	curious.face.mouthDX = -4
	curious.armR = arm{angle: 1.2}
	curious.sway = 0.25

	sleepy := basePose()
	sleepy.face.eyes = eyeClosed
	sleepy.face.mouth = mouthO
	sleepy.face.mouthOpen = 0
	sleepy.face.blush = 0.45
	sleepy.sx, sleepy.sy = 1.04, 0.95
	sleepy.armL, sleepy.armR = arm{angle: 0.4}, arm{angle: 0.4}
	sleepy.sway = -0.5
	sleepy.airExtras = append(sleepy.airExtras, zzzExtra)

	embarrassed := basePose()
	embarrassed.face.eyes = eyeSquint
	embarrassed.face.mouth = mouthWavy
	embarrassed.face.blush = 0.95
	embarrassed.face.blushLines = true
	embarrassed.armL, embarrassed.armR = arm{angle: 0.3}, arm{angle: 0.3}
	embarrassed.sx, embarrassed.sy = 1.02, 0.97
	embarrassed.sway = 0.2
	embarrassed.bodyExtras = append(embarrassed.bodyExtras, sweatExtra)

	thinking := thinkingPose(0)

	confused := basePose()
	confused.tilt = 0.1
	confused.face.eyeScale = 0.78
	confused.face.eyeScaleR = 1.12
	confused.face.browL = brow{on: true, tilt: 0.35, raise: -8}
	confused.face.browR = brow{on: true, tilt: -0.25, raise: 10}
	confused.face.mouth = mouthWavy
	confused.face.blush = 0.45
	confused.sway = -0.3
	confused.airExtras = append(confused.airExtras, questionExtra)
	confused.bodyExtras = append(confused.bodyExtras, sweatExtra)

	return []emotion{
		{"neutral", neutral},
		{"happy", happy},
		{"sad", sad},
		{"angry", angry},
		{"surprised", surprised},
		{"curious", curious},
		{"sleepy", sleepy},
		{"embarrassed", embarrassed},
		{"thinking", thinking},
		{"confused", confused},
	}
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

func motions() []motion {
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

	var think []pose
	for i := 0; i < 4; i++ {
		p := thinkingPose(i)
		p.sway = 0.15 + 0.05*float64(i%2)
		think = append(think, p)
	}

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

	return []motion{
		{id: "idle", file: "idle", fps: 2, loop: true, frames: idle},
		{id: "thinking", file: "think", fps: 3, loop: true, frames: think},
		{id: "talk", file: "talk", fps: 8, loop: true, frames: talk},
		{id: "walk", file: "walk", fps: 10, loop: true, frames: walk},
		{id: "sit", file: "sit", fps: 2, loop: true, frames: sit},
		{id: "fall", file: "fall", fps: 8, loop: true, frames: fall},
	}
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
