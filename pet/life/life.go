// Package life decides when Yui starts a turn on her own (docs/product.md
// §11, docs/protocol/client-context.md "Turns Yui starts on her own"):
// the first input of the day, the user's return, a switch to a watched
// application, a screen watch, the preset's schedules, reminders and
// events other programs send. It holds them to the talk cap and quiet
// hours, and holds every one of them back while the pet cannot take a turn.
//
// It is headless: time comes from the injected clock (transport/clock),
// input activity from Observe (the app samples the desktop layer once a
// second, off the UI goroutine), and what it decides leaves through
// Options.Start. It never imports Fyne.
//
// # Concurrency
//
// One mutex, run, orders everything that decides: a sample, a tick, an
// event, a check-in asking for leave. It is held while a turn starts and
// while a screen watch captures, so two of them never start two turns at
// once; no UI event and no Close waits for it (Close only stops the
// ticker).
package life

import (
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"yui/pet/settings"
	"yui/transport"
	"yui/transport/clock"
)

// Kind is the kind of a turn Yui starts on her own, as the records name it.
type Kind string

const (
	KindFirstActivity Kind = "first_activity"
	KindBackFromAway  Kind = "back_from_away"
	KindAppSwitch     Kind = "app_switch"
	KindScreenWatch   Kind = "screen_watch"
	KindCheckIn       Kind = "check_in"
	KindSchedule      Kind = "schedule"
	KindReminder      Kind = "reminder"
	KindEvent         Kind = "event"
)

// Capped reports whether the kind counts toward the talk cap and keeps
// quiet hours; schedules, reminders and events are what the user asked
// for and do not.
func (k Kind) Capped() bool {
	switch k {
	case KindFirstActivity, KindBackFromAway, KindAppSwitch, KindScreenWatch, KindCheckIn:
		return true
	}
	return false
}

// Reason is why a turn that was due did not start (life_skipped).
type Reason string

const (
	ReasonNone       Reason = ""
	ReasonCap        Reason = "cap"
	ReasonQuietHours Reason = "quiet_hours"
	ReasonBusy       Reason = "busy"
	ReasonHidden     Reason = "hidden"
	ReasonAway       Reason = "away"
	ReasonOffline    Reason = "offline"
	ReasonPrivate    Reason = "private"
	ReasonLate       Reason = "late"
)

// Timings of docs/product.md §11.
const (
	// Tick is how often due schedules, reminders and events are looked at.
	Tick = time.Second
	// LateLimit is how late a reminder or schedule may still run.
	LateLimit = 12 * time.Hour
	// CapWindow is the talk cap's sliding window.
	CapWindow = time.Hour
	// DayStart is when a day starts for "first activity today".
	DayStart = 5 * time.Hour
	// AwayDefault is how long without input counts as away when
	// back_from_away_minutes is 0 (off).
	AwayDefault = 5 * time.Minute
	// MaxEvents is how many events wait per preset.
	MaxEvents = 10
	// EventsPerSource is how many events one source may send in CapWindow.
	EventsPerSource = 12
)

// Turn is a turn to start: its kind, its trigger line and, for a screen
// watch, its screenshot.
type Turn struct {
	Kind       Kind
	Trigger    transport.Trigger
	Screenshot *transport.Screenshot
}

// Reminders are a preset's pending reminders (pet/settings.ReminderStore).
type Reminders interface {
	Reminders() []settings.Reminder
	RemoveReminder(id int) error
}

// Screen captures the screen for a screen watch. Shot is slow and is
// called off every lock but run; it returns an error when nothing may be
// captured (a private window: ErrPrivate from its caller's side).
type Screen interface {
	Shot() (*transport.Screenshot, error)
}

// Options wire a Scheduler. Life, Gate and Start are required.
type Options struct {
	Clock    clock.Clock    // nil is the wall clock
	Log      *slog.Logger   // nil discards
	Location *time.Location // nil is time.Local
	// Life is the preset's life settings, read at each decision so that
	// an edit applies at once.
	Life func() settings.Life
	// Gate says why the pet cannot take a turn now: ReasonBusy (a turn
	// runs, the composer holds text or focus, voice listens or
	// transcribes), ReasonHidden, ReasonOffline, or ReasonNone. It must be
	// quick (no round trip).
	Gate func() Reason
	// ScreenAllowed reports whether the user allowed screen look; a screen
	// watch needs it. Nil is never.
	ScreenAllowed func() bool
	Screen        Screen    // nil: no screen watch
	Reminders     Reminders // nil: no reminders
	// Start starts the turn; false when it could not (the pet went away).
	Start func(Turn) bool
}

// Scheduler is one preset's life.
type Scheduler struct {
	o      Options
	closed atomic.Bool

	tickMu sync.Mutex // guards tick against Close
	tick   clock.Slot

	run sync.Mutex // orders decisions (package doc); guards st
	st  state
}

// New starts a scheduler; Close stops it.
func New(o Options) *Scheduler {
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Location == nil {
		o.Location = time.Local
	}
	if o.ScreenAllowed == nil {
		o.ScreenAllowed = func() bool { return false }
	}
	s := &Scheduler{o: o}
	now := o.Clock.Now()
	s.st = newState(now, o.Location)
	s.armTick()
	return s
}

// armTick arms the next tick.
func (s *Scheduler) armTick() {
	s.tickMu.Lock()
	defer s.tickMu.Unlock()
	if s.closed.Load() {
		return
	}
	s.tick.Arm(s.o.Clock, Tick, func(gen int) {
		s.tickMu.Lock()
		current := s.tick.Current(gen)
		s.tickMu.Unlock()
		if !current || s.closed.Load() {
			return
		}
		s.onTick()
		s.armTick()
	})
}

// Close stops the scheduler; a decision under way finishes, and nothing
// starts after it. Idempotent.
func (s *Scheduler) Close() {
	s.closed.Store(true)
	s.tickMu.Lock()
	s.tick.Stop()
	s.tickMu.Unlock()
}

// start starts t (run is held) and logs life_turn.
func (s *Scheduler) start(t Turn, attrs ...any) bool {
	if s.closed.Load() || !s.o.Start(t) {
		return false
	}
	s.o.Log.Info("life_turn", append([]any{"trigger", string(t.Kind)}, attrs...)...)
	return true
}

// skipped logs life_skipped.
func (s *Scheduler) skipped(k Kind, r Reason, attrs ...any) {
	s.o.Log.Info("life_skipped", append([]any{"trigger", string(k), "reason", string(r)}, attrs...)...)
}
