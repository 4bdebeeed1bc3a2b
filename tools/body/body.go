// Package body is the body_action client tool (docs/protocol/client-tools.md): a
// headless planner and executor that moves the pet window over the desktop
// through the Body seam the pet window implements, and follows the window
// the pet sits on through the desktop layer. The look tool reads the pet's
// perch and the perch targets from here.
//
// Coordinates in tool arguments and results are monitor pixels measured
// from the top-left corner of the monitor they name, and a position is the
// pet window's top-left corner, as look body reports it.
package body

import (
	"image"
	"time"
)

// Tool constants of docs/protocol/client-tools.md and docs/protocol/push-transport.md's limits.
const (
	Name        = "body_action"
	Description = "Move the character on the desktop"
	Wait        = 15 * time.Second
)

// Parameters is the tool's JSON schema, exactly as docs/protocol/client-tools.md gives it.
const Parameters = `{ "type": "object",
    "properties": { "action": { "type": "string", "enum": ["sit_on_window", "perch", "walk_to", "move_to", "go_home", "hide", "show"] },
                    "app": { "type": "string", "description": "sit_on_window: the application or window title to sit on" },
                    "target_id": { "type": "string", "description": "perch: an id from look perch_targets" },
                    "monitor": { "type": "integer" }, "x": { "type": "integer" }, "y": { "type": "integer" } },
    "required": ["action"], "additionalProperties": false }`

// Action is one value of the action field.
type Action string

const (
	SitOnWindow Action = "sit_on_window"
	Perch       Action = "perch"
	WalkTo      Action = "walk_to"
	MoveTo      Action = "move_to"
	GoHome      Action = "go_home"
	Hide        Action = "hide"
	Show        Action = "show"
)

// Motion is a motion id of the character pack (docs/product.md §4 requires these).
type Motion string

const (
	Idle Motion = "idle"
	Walk Motion = "walk" // walking, and the hop of a jump
	Sit  Motion = "sit"
	Fall Motion = "fall"
)

// ErrDragged is the result of an action a user drag cancelled.
const ErrDragged = "error: the user moved the character"

// State is the pet window as it is now.
type State struct {
	// Rect is the window's bounds in desktop pixels.
	Rect    image.Rectangle
	Visible bool
	// Emotion and Motion are the ids on screen (look body's emotion_id
	// and motion_id).
	Emotion, Motion string
}

// Body is the pet window as the body tool drives it. The pet window
// implements it; every method returns at once and never calls back into
// the Actor (the Actor calls them under its lock). They are called from
// any goroutine (a tool call's, the clock's timers, the desktop layer's
// watch), so the window hands the work to its UI thread. The Actor owns timing:
// it gives a move its duration and waits for it on its clock, so the
// window animates while the tool's result waits for the same span.
type Body interface {
	// State returns the window's current state.
	State() State
	// MoveTo starts moving the window so that its top-left corner reaches
	// to after d (at once when d is 0), showing motion on the way and
	// keeping it after arriving until the next MoveTo or Play. A call
	// during a move replaces it, starting from wherever the window is.
	MoveTo(to image.Point, d time.Duration, motion Motion)
	// Play shows motion where the window stands.
	Play(motion Motion)
	// SetVisible shows or hides the window.
	SetVisible(visible bool)
}

// Movement pace. A walk takes distance/WalkSpeed, a jump a short hop
// whatever the distance, a fall distance/FallSpeed; each within bounds, so
// the longest walk across a wide desktop still ends well inside the 15 s
// client wait.
const (
	WalkSpeed = 300  // px per second
	FallSpeed = 1500 // px per second
	MinWalk   = 200 * time.Millisecond
	MaxWalk   = 8 * time.Second
	MinJump   = 400 * time.Millisecond
	MaxJump   = 1500 * time.Millisecond
	JumpPerPx = time.Second / 3000 // a longer jump lasts a little longer
	MinFall   = 150 * time.Millisecond
	MaxFall   = time.Second
)

// walkTimeAt is a walk's time at speed pixels a second.
func walkTimeAt(dist int, speed float64) time.Duration {
	if dist == 0 || speed <= 0 {
		return 0
	}
	return min(max(time.Duration(float64(dist)/speed*float64(time.Second)), MinWalk), MaxWalk)
}

// walkTime is a walk's time at the character's own pace.
func (a *Actor) walkTime(dist int) time.Duration {
	speed := float64(WalkSpeed)
	if a.o.WalkSpeed != nil {
		if s := a.o.WalkSpeed(); s > 0 {
			speed = s
		}
	}
	return walkTimeAt(dist, speed)
}

func jumpTime(dist int) time.Duration {
	if dist == 0 {
		return 0
	}
	return min(max(MinJump+time.Duration(dist)*JumpPerPx, MinJump), MaxJump)
}

func fallTime(dist int) time.Duration {
	if dist == 0 {
		return 0
	}
	return min(max(time.Duration(dist)*time.Second/FallSpeed, MinFall), MaxFall)
}
