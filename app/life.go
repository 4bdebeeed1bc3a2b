package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"yui/pet/life"
	"yui/pet/settings"
	"yui/tools/desktop"
	"yui/tools/look"
	"yui/tools/remind"
	"yui/transport"
	"yui/transport/clock"
)

// Life (docs/product.md §11): each session has a life scheduler
// (pet/life), fed by one desktop sampler per process that reads the idle
// time and the active window once a second, off the UI goroutine. The
// scheduler starts its turns through the session's controller; the
// session says when none may start (lifeGate).

// lifeShotWait bounds a screen watch's capture.
const lifeShotWait = 5 * time.Second

// startActivity starts the process's desktop sampler, when there is a
// desktop layer, and returns what stops it.
func (y *yui) startActivity() (stop func()) {
	if y.desk == nil {
		return func() {}
	}
	a := desktop.NewActivity(y.desk, y.idle, nil, func(smp desktop.ActivitySample) {
		sample := life.Sample{Idle: smp.Idle, IdleKnown: smp.IdleKnown, HasWindow: smp.HasWindow,
			Window: life.Window{ID: uint64(smp.Window.ID), App: smp.Window.App, Title: smp.Window.Title}}
		for _, s := range y.roster.all() {
			if s.life != nil {
				s.life.Observe(sample)
			}
		}
	})
	return a.Close
}

// startLife gives the session its scheduler.
func (s *session) startLife() {
	l := s.cfg().Life
	s.lifeCfg.Store(&l)
	s.life = life.New(life.Options{
		Clock:         clock.Real{},
		Log:           s.log,
		Life:          s.lifeSettings,
		Gate:          s.lifeGate,
		ScreenAllowed: func() bool { return s.look != nil && s.y.screenLook() == settings.ScreenLookAllowed },
		Screen:        lifeScreen{s},
		Reminders:     s.y.store.ReminderStore(s.cfg().ID),
		Start: func(t life.Turn) bool {
			c := s.ctl()
			return c != nil && c.LifeTurn(t)
		},
	})
}

// lifeSettings is the preset's life object as last saved: an edit of it
// applies at once, with no reconnect (setLife).
func (s *session) lifeSettings() settings.Life { return *s.lifeCfg.Load() }

// setLife takes an edited life object.
func (s *session) setLife(l settings.Life) { s.lifeCfg.Store(&l) }

// lifeGate is why no turn of her own may start now: the composer is open
// or holds text (busy), the pet is hidden, or what the controller says.
func (s *session) lifeGate() life.Reason {
	c := s.ctl()
	switch {
	case c == nil:
		return life.ReasonOffline
	case s.win.Composing():
		return life.ReasonBusy
	case !s.win.BodyState().Visible:
		return life.ReasonHidden
	}
	return c.LifeGate()
}

// private reports whether a window title holds a word of the preset's
// private_titles: the look tool takes no screenshot then.
func (s *session) private(title string) bool {
	return life.Matches(s.lifeSettings().PrivateTitles, title)
}

// lifeScreen is the screen watch's capture: the look tool's screenshot
// of the pet's display, refused under a private window.
type lifeScreen struct{ s *session }

func (l lifeScreen) Shot() (*transport.Screenshot, error) {
	if l.s.look == nil {
		return nil, errors.New("no screen to look at")
	}
	ctx, cancel := context.WithTimeout(context.Background(), lifeShotWait)
	defer cancel()
	shot, err := l.s.look.Screenshot(ctx, -1)
	if errors.Is(err, look.ErrPrivate) {
		return nil, life.ErrPrivate
	}
	if err != nil {
		return nil, err
	}
	return &shot, nil
}

// reminderTools are the remind and cancel_reminder handlers of a request
// transport, over the preset's reminders in the learned state.
func (s *session) reminderTools() (remindH, cancelH transport.ToolHandler) {
	t := remind.New(reminderBook{s.y.store.ReminderStore(s.cfg().ID)}, nil, nil)
	return t.Remind, t.Cancel
}

// reminderBook is the settings store's reminders as remind.Book.
type reminderBook struct{ rs settings.ReminderStore }

func (b reminderBook) Add(text string, at time.Time) (int, error) {
	r, err := b.rs.AddReminder(text, at)
	return r.ID, err
}

func (b reminderBook) Cancel(id int) (bool, error) {
	err := b.rs.RemoveReminder(id)
	if errors.Is(err, settings.ErrNoReminder) {
		return false, nil
	}
	return err == nil, err
}

// lifeEvent hands an event from `yui event` to a running preset: preset
// id, or the active one when "".
func (y *yui) lifeEvent(presetID, source, text string) error {
	if presetID == "" {
		presetID = y.activeID()
	}
	s := y.roster.get(presetID)
	if s == nil || s.life == nil {
		return fmt.Errorf("no running preset %q", presetID)
	}
	if err := s.life.Event(source, text); err != nil {
		return err
	}
	s.log.Info("life_event", "source", source)
	return nil
}
