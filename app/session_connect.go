package app

import (
	"fmt"
	"time"

	"fyne.io/fyne/v2"

	"yui/pet"
	"yui/pet/settings"
	"yui/transport"
	"yui/transport/clock"
	"yui/transport/dial"
	"yui/windows/i18n"
)

// A session's connection: made, replaced and closed, and the views it
// sends to the pet window.

// connect starts a new connection, replacing (and closing, off the
// calling goroutine) the one running.
func (s *session) connect() error {
	if fields := s.cfg().KeysInClear(); len(fields) > 0 {
		// The settings window shows this too; the log keeps it for a
		// preset the user set up long ago.
		s.log.Warn("key_in_clear", "fields", fields, "msg", "a key is sent unencrypted to a host that is not loopback")
	}
	set := s.newToolset()
	t, err := dial.New(dial.API(s.cfg().ChatAPI), s.transportOptions(set.Tools()))
	if err != nil {
		set.Close()
		return fmt.Errorf("app: preset %q: %w", s.cfg().Name, err)
	}
	c := &conn{t: t, tools: set, speech: s.y.audio.speechOut(s.speechSettings(), s.log)}
	greet := s.cfg().Greeting && !s.greeted
	s.greeted = true
	c.ctl = pet.New(c.speech.petOptions(pet.Options{
		Transport: t,
		// The controller reads ids and counts, not pixels, and the lines
		// of the language in use.
		Pack:        s.pack.Outline().InLanguage(string(i18n.Current())),
		Clock:       clock.Real{},
		Logger:      s.log,
		OnChange:    func(v pet.View) { s.onView(c, v) },
		Transcript:  s.hist,
		Greeting:    greet,
		CheckIn:     time.Duration(s.cfg().CheckInMinutes) * time.Minute,
		CheckInGate: s.life, // the talk cap (life.go)
		Place:       s.place,
		Screenshot:  s.screenshot,
	}))
	if s.y.quiet.Hides(s.win.BodyState().Rect) {
		c.ctl.SetQuiet(true) // a new connection keeps do-not-disturb
	}
	if a := s.y.away; a != nil && a.Away() {
		c.ctl.SetSleepy(true)
	}
	s.everReady.Store(false) // a new endpoint has to prove itself
	old := s.cur.Swap(c)
	s.closeConn(old, nil)
	s.win.SetView(c.ctl.View())
	go c.ctl.Run()
	t.Start()
	c.voice = s.startVoice(c.ctl) // voice input (voice.go)
	s.log.Info("session_start", "name", s.cfg().Name, "chat_api", s.cfg().ChatAPI, "chat_base_url", s.cfg().ChatBaseURL, "character", s.pack.ID)
	return nil
}

// closeConn closes c in the background: a transport may take a moment to
// say goodbye, and the UI must not wait for it. Shutdown waits for it.
// then, when set, runs once it is closed.
func (s *session) closeConn(c *conn, then func()) {
	if c == nil {
		if then != nil {
			then()
		}
		return
	}
	s.y.closing.Add(1)
	go func() {
		defer s.y.closing.Done()
		c.voice.stop() // before the controller it speaks to
		c.ctl.Close()
		c.speech.close() // after the controller, whose queue plays on it
		if err := c.t.Close(); err != nil {
			s.log.Warn("transport_close", "err", err.Error())
		}
		c.tools.Close() // after the transport that calls the tools
		if then != nil {
			then()
		}
	}()
}

// speechSettings are the preset's speech settings with its character
// pack's defaults where the preset leaves them open: the pack's voice for
// the engine when the preset names none, its rate when the preset's is
// the normal 1.
func (s *session) speechSettings() settings.Speech {
	sp := s.cfg().Speech
	if sp.Voice == "" {
		sp.Voice = s.pack.Speech.Suggest(sp.Engine, sp.Model) // pet/character/voices.go
	}
	if r := s.pack.Speech.Rate; r != 0 && sp.Rate == 1 {
		sp.Rate = r
	}
	return sp
}

// onView draws a new view of connection c (views of a connection already
// replaced are dropped), tells the windows watching, and reacts to a
// backend that cannot be reached: the pill already says so; the settings
// window opens on the preset once.
func (s *session) onView(c *conn, v pet.View) {
	if s.cur.Load() != c || s.y.quitting.Load() {
		return // a replaced connection, or the UI is gone
	}
	s.win.SetView(v)
	s.views.Publish(v)
	s.y.release.poke()
	if v.Pill.ConnState == transport.StateReady {
		s.everReady.Store(true)
		if s.y.first.welcoming() {
			s.y.first.stopRescan() // set up: the welcome page's work is done
		}
	}
	if opensSettings(v.Pill.ConnState, s.everReady.Load()) && !s.y.first.welcoming() {
		if s.settingsHit.CompareAndSwap(false, true) {
			s.log.Warn("backend_unreachable", "state", v.Pill.ConnState.String(), "pill", v.Pill.Conn)
			id := s.cfg().ID
			fyne.Do(func() { s.y.openSettings(id) })
		}
	}
}

// opensSettings reports whether a connection state opens the settings
// window on the preset (once per connection): the backend cannot be
// reached, refused the key, or the settings cannot work. A connection
// that was ready once and then dropped — a push socket reconnecting, a
// request whose server closed on it — says so in the pill only: the
// backend proved itself, the next attempt may well work, and a window
// opening over the pet would take the focus from the composer the user
// is typing in. A refused key or unusable settings always open it: only
// the user can fix those.
func opensSettings(st transport.ConnState, everReady bool) bool {
	switch st {
	case transport.StateKeyRejected, transport.StateInvalid:
		return true
	case transport.StateReconnecting, transport.StateOffline:
		return !everReady
	}
	return false
}
