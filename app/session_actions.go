package app

import (
	"context"

	"yui/pet"
	"yui/pet/transcript"
	"yui/transport"
)

// The pet window's actions and the windows' Session.

func (s *session) ctl() *pet.Controller {
	if c := s.cur.Load(); c != nil {
		return c.ctl
	}
	return nil
}

// SendText sends a typed turn. A turn that may carry a screenshot is sent
// off the UI thread: the capture takes a moment. Meanwhile the session is
// Busy, and a Stop pressed before the turn was sent stops it once it is:
// the user stopped what they had sent.
func (s *session) SendText(text string, attachments []transport.Image) {
	c := s.ctl()
	if c == nil {
		return
	}
	if s.look != nil && s.cfg().ScreenOnTurn != "never" {
		stops := s.stops.Load()
		s.preparing.Add(1)
		s.y.closing.Add(1) // shutdown waits for it
		go func() {
			defer s.y.closing.Done()
			defer s.preparing.Add(-1)
			c.SendText(text, attachments)
			if s.stops.Load() != stops {
				c.Stop()
			}
		}()
		return
	}
	c.SendText(text, attachments)
}

// Busy reports whether a typed turn is being prepared or sent, or a turn
// runs: the composer's button is a stop button then (PetActions).
func (s *session) Busy() bool {
	if s.preparing.Load() > 0 {
		return true
	}
	c := s.ctl()
	return c != nil && c.Busy()
}

// userDragged is the user starting to drag the pet: the running body
// action ends.
func (s *session) userDragged() {
	if s.actor != nil {
		s.actor.UserDragged()
	}
}

// dropped is the user letting go of the pet: with gravity on, it falls
// onto the window under it or to the bottom of the work area. Reading the
// desktop is a round trip, and the fall takes a moment: off the UI thread.
func (s *session) dropped() {
	a := s.actor
	if a == nil || !s.cfg().Gravity {
		return
	}
	s.y.closing.Add(1) // shutdown waits for it
	go func() {
		defer s.y.closing.Done()
		a.Land(context.Background())
	}()
}

// relayout tells the body tool that the monitors changed; reading them is
// a round trip to the display server, kept off the UI thread.
func (s *session) relayout() {
	if a := s.actor; a != nil {
		s.y.closing.Add(1) // shutdown waits for it
		go func() {
			defer s.y.closing.Done()
			if err := a.Refresh(); err != nil {
				s.log.Warn("body_monitors", "err", err.Error())
			}
		}()
	}
}

// place is the pet's place for the character line.
func (s *session) place() string {
	if s.actor == nil {
		return ""
	}
	return s.actor.Place()
}

func (s *session) Poke() {
	if c := s.ctl(); c != nil {
		c.Poke()
	}
}

func (s *session) Pat() {
	if c := s.ctl(); c != nil {
		c.Pat()
	}
}

func (s *session) Stop() {
	s.stops.Add(1)
	if c := s.ctl(); c != nil {
		c.Stop()
	}
}

func (s *session) Reset() {
	if c := s.ctl(); c != nil {
		s.log.Info("reset_requested")
		c.Reset()
	}
}

func (s *session) Reconnect() {
	if c := s.cur.Load(); c != nil {
		c.t.Reconnect()
	}
}

func (s *session) View() pet.View {
	if c := s.ctl(); c != nil {
		return c.View()
	}
	return pet.View{}
}

func (s *session) WatchView(fn func(pet.View)) func() { return s.views.Subscribe(fn) }

func (s *session) Transcript() *transcript.Log { return s.hist }
