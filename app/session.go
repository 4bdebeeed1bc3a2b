package app

import (
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"

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
	"yui/transport/outbox"
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
