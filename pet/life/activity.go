package life

import (
	"time"

	"yui/pet/settings"
	"yui/transport/clientctx"
)

// inputJitter is how far the last input time computed from two samples
// may drift without new input (each sample's idle time is read a moment
// after its clock reading).
const inputJitter = 250 * time.Millisecond

// Observe takes one sample of the desktop layer: the app calls it about
// once a second, off the UI goroutine. It starts first activity today,
// back from away and app switch turns.
func (s *Scheduler) Observe(smp Sample) {
	if s.closed.Load() {
		return
	}
	s.run.Lock()
	defer s.run.Unlock()
	now := s.o.Clock.Now()
	l := s.o.Life()
	if smp.IdleKnown {
		s.observeInput(now, l, smp.Idle)
	}
	if smp.HasWindow {
		s.observeWindow(now, l, smp.Window)
	}
}

// awayAfter is how long without input counts as away.
func awayAfter(l settings.Life) time.Duration {
	if l.BackFromAwayMinutes > 0 {
		return time.Duration(l.BackFromAwayMinutes) * time.Minute
	}
	return AwayDefault
}

// observeInput follows the idle time; run is held.
func (s *Scheduler) observeInput(now time.Time, l settings.Life, idle time.Duration) {
	in := &s.st.input
	last := now.Add(-idle)
	first := !in.seen
	fresh := in.seen && last.After(in.lastInput.Add(inputJitter))
	in.seen, in.idleKnown = true, true
	if first || fresh {
		in.lastInput = last
	}
	if idle >= awayAfter(l) && !in.away {
		in.away, in.awaySince = true, last
	}
	if !fresh {
		return
	}
	wasAway, since := in.away, in.awaySince
	in.away = false
	day := dayOf(last.In(s.o.Location))
	if day != in.activeDay {
		in.activeDay = day
		if l.FirstActivity {
			// The first input of the day also marks a return: one turn, not two.
			s.tryCapped(now, l, Turn{Kind: KindFirstActivity, Trigger: clientctx.TriggerFirstActivity}, true)
			return
		}
	}
	if wasAway && l.BackFromAwayMinutes > 0 {
		gone := last.Sub(since)
		if gone >= time.Duration(l.BackFromAwayMinutes)*time.Minute {
			min := int(gone / time.Minute)
			s.tryCapped(now, l, Turn{Kind: KindBackFromAway, Trigger: clientctx.TriggerBackFromAway(min)}, true)
		}
	}
}

// dayOf names the day local time t falls in; a day starts at DayStart.
func dayOf(t time.Time) string { return t.Add(-DayStart).Format(time.DateOnly) }

// observeWindow follows the active window; run is held.
func (s *Scheduler) observeWindow(now time.Time, l settings.Life, w Window) {
	in := &s.st.input
	changed := in.haveWindow && w.ID != in.window.ID
	in.window, in.haveWindow = w, true
	if !changed || !(Matches(l.WatchApps, w.App) || Matches(l.WatchApps, w.Title)) {
		return
	}
	if Matches(l.PrivateTitles, w.Title) {
		s.skipped(KindAppSwitch, ReasonPrivate)
		return
	}
	name := w.App
	if name == "" {
		name = w.Title
	}
	s.tryCapped(now, l, Turn{Kind: KindAppSwitch, Trigger: clientctx.TriggerAppSwitch(name)}, false)
}
