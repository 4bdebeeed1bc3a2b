package app

import (
	"encoding/json"
	"errors"
	"log/slog"
	"testing"

	"yui/pet/settings"
	"yui/tools/address"
	"yui/transport"
)

// The app's directory tells address_character who is running.
func TestAddressDirectory(t *testing.T) {
	store, _, err := settings.Open(t.TempDir(), settings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(store.Close)
	self := store.Get().Presets[0]
	if _, err := store.AddPreset("Mochi"); err != nil {
		t.Fatal(err)
	}
	y := &yui{log: slog.New(slog.DiscardHandler), store: store}
	for _, c := range []struct{ args, want string }{
		{`{"character":"yui","text":"hi"}`, "error: a character cannot address itself"},
		{`{"character":"Kiri","text":"hi"}`, `error: no character named "Kiri"`},
		{`{"character":"mochi","text":"hi"}`, "error: Mochi is not running"},
	} {
		if got := address.Call(self.Name, directory{y: y}, json.RawMessage(c.args)); got != c.want {
			t.Errorf("address(%s) = %q, want %q", c.args, got, c.want)
		}
	}
	tool := y.addressTool(self)
	if tool.Name != "address_character" || tool.Description != "Say something to another character on this desktop. Running now: Mochi" {
		t.Errorf("tool = %q %q", tool.Name, tool.Description)
	}
}

func TestRestartFor(t *testing.T) {
	base := settings.Preset{ID: "a", Name: "Yui", Character: "yui", ChatAPI: "push", ChatBaseURL: "ws://127.0.0.1:1/ws", Key: "k", Poke: true,
		Learned: settings.Learned{Positions: map[string]settings.Position{}, Relation: 50}}
	for _, c := range []struct {
		name string
		edit func(*settings.Preset)
		want restart
	}{
		{"position saved", func(p *settings.Preset) { p.Positions["x"] = settings.Position{X: 1} }, restartNone},
		{"relation moved", func(p *settings.Preset) { p.Relation = 60 }, restartNone},
		{"key", func(p *settings.Preset) { p.Key = "k2" }, restartConn},
		{"endpoint", func(p *settings.Preset) { p.ChatBaseURL = "ws://127.0.0.1:2/ws" }, restartConn},
		{"protocol", func(p *settings.Preset) { p.ChatAPI = "responses" }, restartConn},
		{"card", func(p *settings.Preset) { p.Card = "You are Yui." }, restartConn},
		{"name", func(p *settings.Preset) { p.Name = "Mika" }, restartSession},
		{"character", func(p *settings.Preset) { p.Character = "mine" }, restartSession},
		{"poke", func(p *settings.Preset) { p.Poke = false }, restartSession},
		{"screen toggle shown", func(p *settings.Preset) { p.ScreenOnTurn = "toggle" }, restartSession},
		{"screen on every turn", func(p *settings.Preset) { p.ScreenOnTurn = "always" }, restartConn},
	} {
		next := base.Clone()
		c.edit(&next)
		if got := restartFor(base, next); got != c.want {
			t.Errorf("%s: restart %d, want %d", c.name, got, c.want)
		}
	}
}

func TestSecondInstanceAsksTheFirst(t *testing.T) {
	dir := t.TempDir()
	first, err := claimInstance(dir)
	if err != nil {
		t.Fatal(err)
	}
	shown := make(chan struct{}, 1)
	first.serve(func() { shown <- struct{}{} })
	if _, err := claimInstance(dir); !errors.Is(err, ErrAlreadyRunning) {
		t.Fatalf("second claim: %v, want ErrAlreadyRunning", err)
	}
	select {
	case <-shown:
	default:
		t.Fatal("the first instance was not asked to show its pets")
	}
	first.Close()
	again, err := claimInstance(dir)
	if err != nil {
		t.Fatalf("claim after the first closed: %v", err)
	}
	again.Close()
}

func TestOverride(t *testing.T) {
	y := &yui{cfg: Config{ChatAPI: "push", ChatBaseURL: "http://127.0.0.1:9", Model: "m", Key: "k"}}
	p := settings.Preset{ChatAPI: "responses", ChatBaseURL: "http://x", Model: "old"}
	y.cfg.override(&p)
	if p.ChatAPI != "push" || p.ChatBaseURL != "http://127.0.0.1:9" || p.Model != "m" || p.Key != "k" {
		t.Fatalf("override: %+v", p)
	}
}

func TestRefusedNotice(t *testing.T) {
	for _, c := range []struct{ err, want string }{
		{`character "mine" refused: load pack mine: "motions" has no "idle" (required: idle, thinking, talk, walk, sit, fall); using the default character`,
			`Your character "mine" could not be used, so the default one stays: "motions" has no "idle" (required: idle, thinking, talk, walk, sit, fall).`},
		{`character "mine": no pack at /c/characters/mine; using the default character`,
			`Your character "mine" could not be used, so the default one stays: no pack at /c/characters/mine.`},
		{`character "mine" refused: load pack: character.json: unexpected end of JSON input; using the default character`,
			`Your character "mine" could not be used, so the default one stays: character.json: unexpected end of JSON input.`},
	} {
		if got := refusedNotice("mine", errors.New(c.err)); got != c.want {
			t.Errorf("refusedNotice(%q)\n got %q\nwant %q", c.err, got, c.want)
		}
	}
}

// A backend that cannot be reached, a refused key and unusable settings
// open the settings window; a connection that was ready and drops (the
// chaos soak found a dropped request taking the composer's focus) does not.
func TestOpensSettings(t *testing.T) {
	for _, c := range []struct {
		st        transport.ConnState
		everReady bool
		want      bool
	}{
		{transport.StateOffline, false, true},
		{transport.StateOffline, true, false},
		{transport.StateReconnecting, false, true},
		{transport.StateReconnecting, true, false},
		{transport.StateKeyRejected, true, true},
		{transport.StateKeyRejected, false, true},
		{transport.StateInvalid, true, true},
		{transport.StateReady, true, false},
		{transport.StateConnecting, false, false},
	} {
		if got := opensSettings(c.st, c.everReady); got != c.want {
			t.Errorf("opensSettings(%v, ever ready %v) = %v, want %v", c.st, c.everReady, got, c.want)
		}
	}
}
