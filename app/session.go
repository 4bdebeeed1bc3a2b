package app

import (
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"

	"fyne.io/fyne/v2"

	"yui/app/settings"
	"yui/pet"
	"yui/pet/character"
	"yui/tools/address"
	"yui/tools/imagefit"
	"yui/tools/relation"
	"yui/transport"
	"yui/transport/chatcompletions"
	"yui/transport/clock"
	"yui/transport/push"
	"yui/transport/responses"
	"yui/windows"
)

// session is one running preset: its transport, pet controller and pet
// window (the controller is made once the window is shown). The transport's events drive the controller, whose views the
// window draws; the window's actions go back to the controller.
type session struct {
	y      *yui
	preset settings.Preset
	log    *slog.Logger
	pack   *character.Pack
	t      transport.Transport
	ctl    *pet.Controller
	win    *windows.PetWindow
	voice  *voiceInput // voice input (voice.go); nil when off

	// packNotice tells the user why their character pack was refused
	// ("" when it was not); the app shows it once in the pet (Run).
	packNotice string

	ctlPtr      atomic.Pointer[pet.Controller]
	settingsHit atomic.Bool // the settings window opened for a connection problem
	everReady   atomic.Bool // the connection was ready once
}

// startSessions starts one session per preset. Every pet declares
// rate_relation and address_character; the latter's description names the
// other characters.
func (y *yui) startSessions(presets []settings.Preset) error {
	for i, p := range presets {
		s, err := y.newSession(p, presets, i)
		if err != nil {
			return err
		}
		y.mu.Lock()
		y.sessions = append(y.sessions, s)
		y.mu.Unlock()
	}
	for _, s := range y.sessions {
		// The window knows the size it draws the character at once it is
		// shown: the pet keeps only images of that size, so the pack's
		// full-size (2x) images can go.
		s.win.Show()
		w, h := s.win.CharacterPixels()
		s.pack = windows.ScaledPack(s.pack, w, h)
		s.win.SetPack(s.pack)
		s.ctl = pet.New(pet.Options{
			Transport: s.t,
			Pack:      s.pack,
			Clock:     clock.Real{},
			Logger:    s.log,
			OnChange:  s.onView,
		})
		s.ctlPtr.Store(s.ctl)
		s.win.SetView(s.ctl.View())
		s.startVoice() // voice input (voice.go)
	}
	for _, s := range y.sessions {
		go s.ctl.Run()
		s.t.Start()
		if s.preset.Greeting {
			s.ctl.Greeting()
		}
	}
	return nil
}

func (y *yui) newSession(p settings.Preset, all []settings.Preset, index int) (*session, error) {
	s := &session{y: y, preset: p, log: y.log.With("preset", p.ID)}
	pack, packErr := character.Select(y.configDir, p.Character)
	s.pack = pack
	if packErr != nil {
		s.log.Warn("character_refused", "character", p.Character, "err", packErr.Error())
		s.packNotice = refusedNotice(p.Character, packErr)
	}

	var scores relation.Scores = y.store.Relation(p.ID)
	var deleg transport.DelegationStore = y.store.DelegationStore(p.ID)
	var positions windows.PositionStore = storePositions{store: y.store, id: p.ID, log: s.log}
	if y.cfg.Demo {
		scores = &memScores{score: settings.RelationDefault}
		deleg = nil
		positions = &memPositions{}
	}
	opts := transport.Options{
		ChatBaseURL:     p.ChatBaseURL,
		Key:             p.Key,
		ChatID:          p.ChatID,
		Model:           p.Model,
		ReasoningEffort: p.ReasoningEffort,
		Card:            p.Card,
		Vocabulary:      pack.Vocabulary(),
		Tools: []transport.Tool{
			relation.New(scores, func(c relation.Change) {
				s.log.Info("relation_change", "score", c.Score, "delta", c.Delta)
			}),
			y.addressTool(p, all),
		},
		FitImages:   imagefit.Fit,
		Probe:       true,
		Delegations: deleg,
		SpeechOwed: func() bool {
			if c := s.ctlPtr.Load(); c != nil {
				return c.SpeechOwed()
			}
			return false
		},
		Clock:  clock.Real{},
		Logger: s.log,
	}
	t, err := newTransport(p.ChatAPI, opts)
	if err != nil {
		return nil, fmt.Errorf("app: preset %q: %w", p.Name, err)
	}
	s.t = t

	win, err := windows.NewPetWindow(y.app, windows.PetOptions{
		Name:       p.Name,
		Pack:       pack,
		Actions:    s,
		Poke:       p.Poke,
		Index:      index,
		Shortcut:   y.cfg.Demo || p.ID == y.store.Get().ActivePreset,
		Positions:  positions,
		OnMessages: func() { y.openMessages(p.ID) },
		OnSettings: func() { y.openSettings(p.ID) },
		OnReconnect: func() {
			s.log.Info("reconnect_requested")
			t.Reconnect()
		},
		OnQuit: y.quit,
		Logger: s.log,
	})
	if err != nil {
		t.Close()
		return nil, fmt.Errorf("app: preset %q: %w", p.Name, err)
	}
	s.win = win
	s.log.Info("session_start", "name", p.Name, "chat_api", p.ChatAPI, "chat_base_url", p.ChatBaseURL, "character", pack.ID)
	return s, nil
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

// newTransport builds the transport of a chat_api.
func newTransport(api string, opts transport.Options) (transport.Transport, error) {
	switch api {
	case settings.ChatAPIPush:
		c, err := push.New(opts)
		if err != nil {
			return nil, err
		}
		return c, nil
	case settings.ChatAPIChatCompletions, "":
		return chatcompletions.New(opts)
	case settings.ChatAPIResponses:
		return responses.New(opts)
	}
	return nil, fmt.Errorf("unknown chat_api %q (push, chat_completions or responses)", api)
}

// onView draws a new view and reacts to a backend that cannot be reached:
// the pill already says so; the settings window opens on the preset once.
func (s *session) onView(v pet.View) {
	s.win.SetView(v)
	if v.Pill.ConnState == transport.StateReady {
		s.everReady.Store(true)
	}
	switch v.Pill.ConnState {
	// A push socket that never reached ready waits to retry: the backend
	// cannot be reached as surely as a request that failed to connect.
	case transport.StateReconnecting:
		if s.everReady.Load() {
			break
		}
		fallthrough
	case transport.StateOffline, transport.StateKeyRejected, transport.StateInvalid:
		if s.settingsHit.CompareAndSwap(false, true) {
			s.log.Warn("backend_unreachable", "state", v.Pill.ConnState.String(), "pill", v.Pill.Conn)
			fyne.Do(func() { s.y.openSettings(s.preset.ID) })
		}
	}
}

// SendText, Poke and Stop are the pet window's actions.
func (s *session) SendText(text string, attachments []transport.Image) {
	if c := s.ctlPtr.Load(); c != nil {
		c.SendText(text, attachments)
	}
}

func (s *session) Poke() {
	if c := s.ctlPtr.Load(); c != nil {
		c.Poke()
	}
}

func (s *session) Stop() {
	if c := s.ctlPtr.Load(); c != nil {
		c.Stop()
	}
}

// close stops the session: the controller, then the transport, then the
// window's native resources.
func (s *session) close() {
	s.stopVoice() // voice input (voice.go)
	if s.ctl != nil {
		s.ctl.Close()
	}
	if err := s.t.Close(); err != nil {
		s.log.Warn("transport_close", "err", err.Error())
	}
	s.win.Close()
}

// closeSessions closes every session.
func (y *yui) closeSessions() {
	y.mu.Lock()
	ss := y.sessions
	y.sessions = nil
	y.mu.Unlock()
	for _, s := range ss {
		s.close()
	}
}

// sessionNamed returns the running session of the preset named name
// (case-insensitive), or the name of a preset by that name that is not
// running ("" when there is none).
func (y *yui) sessionNamed(name string, all []settings.Preset) (s *session, known string) {
	y.mu.Lock()
	defer y.mu.Unlock()
	for _, ss := range y.sessions {
		if strings.EqualFold(ss.preset.Name, name) {
			return ss, ss.preset.Name
		}
	}
	for _, p := range all {
		if strings.EqualFold(p.Name, name) {
			return nil, p.Name
		}
	}
	if !y.cfg.Demo {
		for _, p := range y.store.Get().Presets {
			if strings.EqualFold(p.Name, name) {
				return nil, p.Name
			}
		}
	}
	return nil, ""
}

// addressTool is address_character for preset self; its description names
// the other characters of this run.
func (y *yui) addressTool(self settings.Preset, all []settings.Preset) transport.Tool {
	var others []string
	for _, p := range all {
		if p.ID != self.ID {
			others = append(others, p.Name)
		}
	}
	return address.New(self.Name, others, directory{y: y, all: all})
}

// directory finds characters for address_character: the running sessions,
// then the presets of this run and of the settings that are not running.
type directory struct {
	y   *yui
	all []settings.Preset
}

func (d directory) Find(name string) (string, func(from, text string)) {
	target, known := d.y.sessionNamed(name, d.all)
	if target == nil {
		return known, nil
	}
	c := target.ctlPtr.Load()
	if c == nil {
		return known, nil
	}
	return known, func(from, text string) {
		c.Address(from, text)
		d.y.log.Info("address_character", "from", from, "to", target.preset.ID)
	}
}

// storePositions keeps a pet's position in its preset (settings positions).
type storePositions struct {
	store *settings.Store
	id    string
	log   *slog.Logger
}

func (p storePositions) LoadPosition(layout string) (int, int, bool) {
	pr, ok := p.store.Preset(p.id)
	if !ok {
		return 0, 0, false
	}
	pos, ok := pr.Positions[layout]
	return pos.X, pos.Y, ok
}

func (p storePositions) SavePosition(layout string, x, y int) {
	err := p.store.UpdatePreset(p.id, func(pr *settings.Preset) error {
		if pr.Positions == nil {
			pr.Positions = make(map[string]settings.Position)
		}
		pr.Positions[layout] = settings.Position{X: x, Y: y}
		return nil
	})
	if err != nil {
		p.log.Warn("position_save", "err", err.Error())
	}
}

// memPositions keeps the demo pet's position for the run only.
type memPositions struct {
	mu sync.Mutex
	m  map[string][2]int
}

func (p *memPositions) LoadPosition(layout string) (int, int, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	v, ok := p.m[layout]
	return v[0], v[1], ok
}

func (p *memPositions) SavePosition(layout string, x, y int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m == nil {
		p.m = make(map[string][2]int)
	}
	p.m[layout] = [2]int{x, y}
}

// memScores is the demo pet's relation score, kept for the run only.
type memScores struct {
	mu    sync.Mutex
	score int
}

func (m *memScores) Score() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.score
}

func (m *memScores) AddScore(delta int) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.score = min(max(m.score+delta, relation.Min), relation.Max)
	return m.score, nil
}
