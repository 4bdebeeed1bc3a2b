package life

import (
	"time"

	"yui/pet/settings"
)

// The talk cap, quiet hours and the holds (docs/product.md §11).

// capReason is why a capped kind may not start now: quiet hours, then
// the talk cap; ReasonNone when it may.
func (s *Scheduler) capReason(now time.Time, l settings.Life) Reason {
	if inQuietHours(now.In(s.o.Location), l.QuietHours) {
		return ReasonQuietHours
	}
	s.pruneStarted(now)
	if len(s.st.started) >= l.Talk.PerHour() {
		return ReasonCap
	}
	return ReasonNone
}

// pruneStarted forgets capped turns older than CapWindow.
func (s *Scheduler) pruneStarted(now time.Time) {
	keep := s.st.started[:0]
	for _, t := range s.st.started {
		if now.Sub(t) < CapWindow {
			keep = append(keep, t)
		}
	}
	s.st.started = keep
}

// holdReason is why no turn of her own may start now: the pet's gate,
// then the user being away (returning says whether the turn is the one
// that marks their return, which away does not hold).
func (s *Scheduler) holdReason(returning bool) Reason {
	if r := s.o.Gate(); r != ReasonNone {
		return r
	}
	if s.st.input.away && !returning {
		return ReasonAway
	}
	return ReasonNone
}

// inQuietHours reports whether local time t falls in quiet ("HH:MM-HH:MM"
// or ""); hours running over midnight wrap.
func inQuietHours(t time.Time, quiet string) bool {
	from, to, err := settings.ParseQuietHours(quiet)
	if err != nil || from < 0 {
		return false
	}
	h, m, _ := t.Clock()
	at := time.Duration(h)*time.Hour + time.Duration(m)*time.Minute
	if from < to {
		return at >= from && at < to
	}
	return at >= from || at < to
}

// tryCapped starts a turn of a capped kind now, or logs why not; run is held.
func (s *Scheduler) tryCapped(now time.Time, l settings.Life, t Turn, returning bool) bool {
	r := s.capReason(now, l)
	if r == ReasonNone {
		r = s.holdReason(returning)
	}
	if r != ReasonNone {
		s.skipped(t.Kind, r)
		return false
	}
	if !s.start(t) {
		s.skipped(t.Kind, ReasonBusy)
		return false
	}
	s.st.started = append(s.st.started, now)
	return true
}

// AllowCheckIn is asked by the idle check-in (pet.CheckInGate)
// when it is about to start: the check-in counts toward the talk cap and
// keeps quiet hours. A true answer counts it and logs life_turn.
func (s *Scheduler) AllowCheckIn() bool {
	if s.closed.Load() {
		return false
	}
	s.run.Lock()
	defer s.run.Unlock()
	now := s.o.Clock.Now()
	if r := s.capReason(now, s.o.Life()); r != ReasonNone {
		s.skipped(KindCheckIn, r)
		return false
	}
	if s.st.input.away {
		s.skipped(KindCheckIn, ReasonAway)
		return false
	}
	s.st.started = append(s.st.started, now)
	s.o.Log.Info("life_turn", "trigger", string(KindCheckIn))
	return true
}
