package life

import (
	"time"

	"yui/transport"
)

// state is what the scheduler knows; all of it is under Scheduler.run.
type state struct {
	input   inputState
	started []time.Time // capped turns started in the last CapWindow
	pending []due       // schedules, reminders and events waiting to run
	events  map[string][]time.Time
	minute  time.Time // the last local minute whose schedules were looked at
	watch   watchState
	firing  map[int]bool // reminders already taken into pending
}

// inputState follows the user's input and the active window (Observe).
type inputState struct {
	seen       bool      // a sample came
	lastInput  time.Time // when the user last touched keyboard or pointer
	idleKnown  bool      // the desktop layer tells the idle time
	away       bool      // idle for at least the away threshold
	awaySince  time.Time // the last input before going away
	activeDay  string    // the day (starting DayStart) of the last input seen
	window     Window    // the active window of the last sample
	haveWindow bool
}

// watchState is the screen watch's last run.
type watchState struct {
	last time.Time // the last screen watch (or the start)
	hash uint64    // the screen it saw
	seen bool      // hash holds a screen
}

// due is a schedule, reminder or event waiting to run.
type due struct {
	kind     Kind
	at       time.Time // when it fell due
	trigger  func(lateMinutes int) transport.Trigger
	reminder int  // the reminder's id; 0 for the others
	logged   bool // its life_skipped was written
}

func newState(now time.Time, loc *time.Location) state {
	return state{
		events: map[string][]time.Time{},
		minute: now.In(loc).Truncate(time.Minute),
		watch:  watchState{last: now},
		firing: map[int]bool{},
	}
}

// Window is the active window as the desktop layer tells it.
type Window struct {
	ID    uint64
	App   string
	Title string
}

// Sample is one reading of the desktop layer: how long the user has not
// touched keyboard or pointer, and the active window.
type Sample struct {
	Idle      time.Duration
	IdleKnown bool
	Window    Window
	HasWindow bool
}
