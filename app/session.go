package app

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"

	"yui/pet"
	"yui/pet/character"
	"yui/pet/life"
	"yui/pet/settings"
	"yui/pet/transcript"
	"yui/tools/body"
	"yui/tools/desktop"
	"yui/tools/look"
	"yui/tools/relation"
	"yui/tools/toolset"
	"yui/transport"
	"yui/transport/clock"
	"yui/transport/dial"
	"yui/transport/outbox"
	"yui/windows/i18n"
	"yui/windows/petwindow"
)

// session is one running preset: its pet window and transcript, which
// live as long as the session, and its connection (transport and pet
// controller), which is replaced when an edit changes how it connects.
// It is the windows' Session and the pet window's actions.
type session struct {
	y       *yui
	preset  atomic.Pointer[settings.Preset] // as running: with this run's overrides
	log     *slog.Logger
	pack    *character.Pack
	packKey packKey // the shared scaled pack's entry (packs.go)
	win     *petwindow.PetWindow
	hist    *transcript.Log
	stores  presetStores // what the app learns about the preset (source.go)
	scores  relation.Scores
	actor   *body.Actor // the body tool over win; nil without a desktop layer (tools.go)
	look    *look.Look  // the look tool; nil with actor

	// life starts the turns she starts on her own, with lifeCfg, the
	// life settings as last saved (life.go).
	life    *life.Scheduler
	lifeCfg atomic.Pointer[settings.Life]

	// packNotice tells the user why their character pack was refused
	// ("" when it was not); shown once in the pet.
	packNotice string
	// quick is the pack being loaded whose first frame the window shows
	// until scalePack has the rest; nil for a pack another pet had ready.
	quick *character.Quick

	cur         atomic.Pointer[conn]
	settingsHit atomic.Bool // the settings window opened for a connection problem
	everReady   atomic.Bool // the connection was ready once
	greeted     bool        // the first connection carried the greeting
	deleted     atomic.Bool // the preset was deleted: its files go when it closes
	quietHid    bool        // do-not-disturb hid the pet (UI thread only)

	views outbox.Fanout[pet.View] // the message and settings windows watching

	// preparing counts the typed turns SendText is still preparing off
	// the UI thread (the screenshot they carry), and stops counts the
	// stop's presses: a stop pressed while a turn is prepared stops it
	// once it is sent.
	preparing atomic.Int32
	stops     atomic.Int64
}

// conn is one connection of a session, with the speech output its
// preset's speech settings make.
type conn struct {
	t      transport.Transport
	ctl    *pet.Controller
	speech *speechOut  // speech output (speech.go)
	voice  *voiceInput // voice input (voice.go); nil when off
	tools  *toolset.Set
}

// newSession builds a session's window and transcript; start connects it.
func (y *yui) newSession(p settings.Preset, index int) (*session, error) {
	s := &session{y: y, log: y.log.With("preset", p.ID)}
	s.setPreset(p)
	// A character another pet shows already comes scaled from it.
	// Otherwise the window starts from the pack's first frame, and the
	// rest of its images decode while it shows (scalePack).
	pack, packErr := y.packs.running(p.Character), error(nil)
	if pack == nil {
		s.quick, packErr = y.loads.quick(y.configDir, p.Character) // preload.go
		pack = s.quick.First
	}
	s.pack = pack
	if packErr != nil {
		s.log.Warn("character_refused", "character", p.Character, "err", packErr.Error())
		s.packNotice = refusedNotice(p.Character, packErr)
	}
	s.stores = y.source().stores(p)
	s.scores = s.stores.scores
	s.hist = transcript.Open(transcript.Options{Storage: s.stores.history, Logger: s.log})

	win, err := petwindow.New(y.app, petwindow.Options{
		Name:         p.Name,
		Pack:         pack,
		Actions:      s,
		Host:         petHost{s: s, presetID: p.ID}, // pethost.go
		Poke:         p.Poke,
		Index:        index,
		Shortcut:     p.ID == y.activeID(),
		Positions:    s.stores.positions,
		Gaze:         p.Gaze && !y.reducedMotion,
		X:            desktop.XConn(y.desk), // one X connection per process
		ScreenToggle: p.ScreenOnTurn == "toggle" && y.desk != nil,
		Logger:       s.log,
	})
	if err != nil {
		s.hist.Close()
		return nil, fmt.Errorf("app: preset %q: %w", p.Name, err)
	}
	s.win = win
	if pace := y.idlePace(); pace > 1 {
		win.SetIdlePace(pace)
	}
	s.startBody()
	s.startLife() // life.go
	return s, nil
}

// cfg is the preset as running; setPreset replaces it (an edit that
// reconnects). Transports read it from their goroutines.
func (s *session) cfg() settings.Preset { return *s.preset.Load() }

func (s *session) setPreset(p settings.Preset) { s.preset.Store(&p) }

// scalePack keeps, now that the window shows and knows the size it draws
// the character at, only images of that size: the pack's full-size (2x)
// images can go. Pets showing the same character share them (packs.go).
// Scaling decodes and encodes every image: it runs off the UI goroutine,
// which stays free for the user's first clicks, and the window draws the
// full-size images meanwhile. UI thread.
func (s *session) scalePack() {
	w, h := s.win.CharacterPixels()
	full, quick := s.pack, s.quick
	s.quick = nil
	s.y.closing.Add(1) // shutdown waits for it
	go func() {
		defer s.y.closing.Done()
		var late string
		if quick != nil {
			full, late = s.restOf(quick)
		}
		scaled, key := s.y.packs.scaled(full, w, h)
		fyne.Do(func() {
			// Closed meanwhile, or the app is quitting: once Fyne's loop
			// ended, fyne.Do runs here and the window must not be touched.
			if s.y.quitting.Load() || s.y.roster.get(s.cfg().ID) != s {
				s.y.packs.release(key)
				return
			}
			s.pack, s.packKey = scaled, key
			s.win.SetPack(scaled)
			if late != "" {
				s.win.SetNotice(late)
			}
			// Decoding and scaling left the full-size images behind:
			// they go back to the system once the pets are quiet.
			s.y.release.poke()
		})
	}()
}

// restOf decodes the rest of quick's images. An image whose data breaks
// past a valid header is found only here, after the window showed the
// pack's first frame: the default character then stands in, drawn in the
// refused one's place, and notice says why, as a refusal at start does.
func (s *session) restOf(quick *character.Quick) (full *character.Pack, notice string) {
	full, err := quick.Rest()
	if err == nil {
		return full, ""
	}
	id := s.cfg().Character
	err = character.Refused(id, err)
	s.log.Warn("character_refused", "character", id, "err", err.Error())
	return character.Default(), refusedNotice(id, err)
}

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

// refusedNotice is what the pet says when the character pack id was
// refused: that the default character stays, and why (err is
// character.Select's error, whose wrapping is left out).
func refusedNotice(id string, err error) string {
	reason := err.Error()
	for _, p := range []string{
		fmt.Sprintf("character %q refused: ", id),
		fmt.Sprintf("character %q: ", id),
		fmt.Sprintf("load pack %s: ", id),
		fmt.Sprintf("load pack %q: ", id),
		"load pack: ",
	} {
		reason = strings.TrimPrefix(reason, p)
	}
	reason = strings.TrimSuffix(reason, "; using the default character")
	return fmt.Sprintf("Your character %q could not be used, so the default one stays: %s.", id, strings.TrimSuffix(reason, "."))
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

// close stops the session: its connection (waited for), its transcript
// (saved) and its window. It runs on the UI thread.
func (s *session) close() {
	s.life.Close() // no turn of her own starts on a closing session
	c := s.cur.Swap(nil)
	if s.y.quitting.Load() {
		s.win.Dispose() // the app closed its windows when it stopped
	} else {
		s.win.Close()
	}
	s.closeConn(c, func() {
		if s.actor != nil {
			s.actor.Close() // after the tools that run it
		}
		// The transcript saves last: the closing connection may still
		// have written to it. A deleted preset's files go after that.
		s.hist.Close()
		s.y.packs.release(s.packKey)
		if s.deleted.Load() {
			s.y.forget(s.cfg().ID)
		}
	})
}
