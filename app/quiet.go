package app

import "fyne.io/fyne/v2"

// quietChanged applies do-not-disturb, on everywhere while the user
// switched it on, and on a monitor while a fullscreen window covers it:
// the pets there hide and start no greeting or check-in, the pets on
// another monitor stay; when it ends the pets it hid come back and what
// waited goes. Replies that arrive meanwhile are in the message window.
// UI thread.
func (y *yui) quietChanged(on bool) {
	y.log.Info("do_not_disturb", "on", on, "manual", y.quiet.Manual())
	for _, s := range y.roster.all() {
		st := s.win.BodyState()
		here := on && y.quiet.Hides(st.Rect)
		if c := s.ctl(); c != nil {
			c.SetQuiet(here)
		}
		switch {
		case here && st.Visible:
			s.win.Hide()
			s.quietHid = true
		case !here && s.quietHid:
			s.win.Show()
			s.quietHid = false
		}
	}
	y.tray.refresh()
}

// awayChanged is the user leaving the keyboard a while, or coming back:
// the characters turn sleepy, and wake. Any goroutine.
func (y *yui) awayChanged(away bool) {
	y.log.Info("user_away", "away", away)
	for _, s := range y.roster.all() {
		if c := s.ctl(); c != nil {
			c.SetSleepy(away)
		}
	}
	fyne.Do(func() {
		pace := y.idlePace()
		for _, s := range y.roster.all() {
			s.win.SetIdlePace(pace)
		}
	})
}

// Idle paces: how much slower than its own rate the idle cycle plays
// while the user is away, and on a desktop that asks for reduced motion.
// Breathing and blinking still show, slowly.
const (
	awayIdlePace    = 3
	reducedIdlePace = 2
)

// idlePace is the idle cycle's pace now: slowest of what applies.
func (y *yui) idlePace() float64 {
	pace := 1.0
	if y.reducedMotion {
		pace = reducedIdlePace
	}
	if a := y.away; a != nil && a.Away() {
		pace = max(pace, awayIdlePace)
	}
	return pace
}
