package life

import (
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"yui/pet/settings"
	"yui/transport"
	"yui/transport/clientctx"
)

// Schedules, reminders and events: what the user asked for. The talk cap
// and quiet hours do not hold them; the holds do, and they wait, in the
// order they fell due, until a turn can start, at most LateLimit.

// onTick looks at what fell due and runs what can run.
func (s *Scheduler) onTick() {
	s.run.Lock()
	defer s.run.Unlock()
	now := s.o.Clock.Now()
	l := s.o.Life()
	s.collectSchedules(now, l)
	s.collectReminders(now)
	if !s.runPending(now) {
		s.screenWatch(now, l)
	}
}

// maxCatchUp bounds how many minutes a late tick looks back for schedules
// (a machine that slept): LateLimit's worth.
const maxCatchUp = int(LateLimit / time.Minute)

// collectSchedules queues the schedules of every minute since the last tick.
func (s *Scheduler) collectSchedules(now time.Time, l settings.Life) {
	cur := now.In(s.o.Location).Truncate(time.Minute)
	for n := 0; s.st.minute.Before(cur) && n < maxCatchUp; n++ {
		s.st.minute = s.st.minute.Add(time.Minute)
		m := s.st.minute
		for _, sc := range l.Schedules {
			at, err := settings.ParseClock(sc.At)
			if err != nil || !sc.Days.On(m.Weekday()) || sinceMidnight(m) != at {
				continue
			}
			note := sc.Note
			s.st.pending = append(s.st.pending, due{kind: KindSchedule, at: m,
				trigger: func(int) transport.Trigger { return clientctx.TriggerSchedule(note) }})
		}
	}
	s.st.minute = cur
}

func sinceMidnight(t time.Time) time.Duration {
	h, m, _ := t.Clock()
	return time.Duration(h)*time.Hour + time.Duration(m)*time.Minute
}

// collectReminders queues the reminders that fell due (also those due
// while the app was not running: they run late).
func (s *Scheduler) collectReminders(now time.Time) {
	if s.o.Reminders == nil {
		return
	}
	for _, r := range s.o.Reminders.Reminders() {
		if r.At.After(now) || s.st.firing[r.ID] {
			continue
		}
		s.st.firing[r.ID] = true
		text := r.Text
		s.st.pending = append(s.st.pending, due{kind: KindReminder, at: r.At, reminder: r.ID,
			trigger: func(late int) transport.Trigger { return clientctx.TriggerReminder(text, late) }})
	}
}

// runPending starts the first waiting item when a turn can start, drops
// those past LateLimit, and reports whether it started one.
func (s *Scheduler) runPending(now time.Time) bool {
	keep := s.st.pending[:0]
	started := false
	for i, d := range s.st.pending {
		late := now.Sub(d.at)
		switch {
		case late > LateLimit:
			s.skipped(d.kind, ReasonLate, "late_min", int(late/time.Minute))
			s.done(d)
			continue
		case started:
			keep = append(keep, d)
			continue
		}
		if r := s.holdReason(false); r != ReasonNone {
			if !d.logged {
				s.skipped(d.kind, r)
				s.st.pending[i].logged, d.logged = true, true
			}
			keep = append(keep, d)
			continue
		}
		min := max(int(late/time.Minute), 0)
		attrs := []any{}
		if min > 0 {
			attrs = append(attrs, "late_min", min)
		}
		if !s.start(Turn{Kind: d.kind, Trigger: d.trigger(min)}, attrs...) {
			keep = append(keep, d)
			continue
		}
		started = true
		s.done(d)
	}
	clear(s.st.pending[len(keep):])
	s.st.pending = keep
	return started
}

// done forgets a reminder that ran or was dropped.
func (s *Scheduler) done(d due) {
	if d.kind != KindReminder || s.o.Reminders == nil {
		return
	}
	if err := s.o.Reminders.RemoveReminder(d.reminder); err != nil && !errors.Is(err, settings.ErrNoReminder) {
		s.o.Log.Warn("life_reminder_remove", "id", d.reminder, "err", err.Error())
	}
	delete(s.st.firing, d.reminder)
}

// Errors of Event.
var (
	ErrEventsFull = fmt.Errorf("life: %d events are already waiting", MaxEvents)
	ErrSourceCap  = fmt.Errorf("life: a source may send at most %d events an hour", EventsPerSource)
	ErrEmptyEvent = errors.New("life: the event has no text")
	DefaultSource = "cli"
)

// Event hands an event from another program to the preset: it waits
// with the schedules and reminders until a turn can start.
func (s *Scheduler) Event(source, text string) error {
	if strings.TrimSpace(text) == "" {
		return ErrEmptyEvent
	}
	if strings.TrimSpace(source) == "" {
		source = DefaultSource
	}
	s.run.Lock()
	defer s.run.Unlock()
	now := s.o.Clock.Now()
	recent := s.st.events[source][:0]
	for _, t := range s.st.events[source] {
		if now.Sub(t) < CapWindow {
			recent = append(recent, t)
		}
	}
	s.st.events[source] = recent
	if len(recent) >= EventsPerSource {
		s.skipped(KindEvent, ReasonCap, "source", source)
		return ErrSourceCap
	}
	waiting := 0
	for _, d := range s.st.pending {
		if d.kind == KindEvent {
			waiting++
		}
	}
	if waiting >= MaxEvents {
		s.skipped(KindEvent, ReasonBusy, "source", source)
		return ErrEventsFull
	}
	s.st.events[source] = append(recent, now)
	s.st.pending = append(s.st.pending, due{kind: KindEvent, at: now,
		trigger: func(int) transport.Trigger { return clientctx.TriggerEvent(source, text) }})
	s.runPending(now)
	return nil
}

// screenWatch runs a screen watch when one is due and the screen changed
// since the last one; run is held (so the capture is too: no UI event
// waits for run).
func (s *Scheduler) screenWatch(now time.Time, l settings.Life) {
	every := time.Duration(l.ScreenWatchMinutes) * time.Minute
	if every <= 0 || s.o.Screen == nil || now.Sub(s.st.watch.last) < every {
		return
	}
	s.st.watch.last = now
	if !s.o.ScreenAllowed() {
		return
	}
	if s.st.input.haveWindow && Matches(l.PrivateTitles, s.st.input.window.Title) {
		s.skipped(KindScreenWatch, ReasonPrivate)
		return
	}
	r := s.capReason(now, l)
	if r == ReasonNone {
		r = s.holdReason(false)
	}
	if r != ReasonNone {
		s.skipped(KindScreenWatch, r)
		return
	}
	shot, err := s.o.Screen.Shot()
	if err != nil {
		if errors.Is(err, ErrPrivate) {
			s.skipped(KindScreenWatch, ReasonPrivate)
			return
		}
		s.o.Log.Warn("life_screen_watch", "err", err.Error())
		return
	}
	h := fnv.New64a()
	h.Write(shot.Image.Data)
	sum := h.Sum64()
	if s.st.watch.seen && sum == s.st.watch.hash {
		s.o.Log.Debug("life_screen_unchanged")
		return
	}
	s.st.watch.hash, s.st.watch.seen = sum, true
	if s.start(Turn{Kind: KindScreenWatch, Trigger: clientctx.TriggerScreenWatch, Screenshot: shot}) {
		s.st.started = append(s.st.started, now)
	} else {
		s.skipped(KindScreenWatch, ReasonBusy)
	}
}

// ErrPrivate is what a Screen returns while a private window is active:
// no screenshot is taken.
var ErrPrivate = errors.New("life: a private window is on the screen")
