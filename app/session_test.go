package app

import (
	"encoding/json"
	"errors"
	"log/slog"
	"testing"

	"yui/app/settings"
	"yui/tools/address"
)

// The app's directory tells address_character who is running.
func TestAddressDirectory(t *testing.T) {
	y := &yui{log: slog.New(slog.DiscardHandler), cfg: Config{Demo: true}}
	self := settings.Preset{ID: "a", Name: "Yui"}
	all := []settings.Preset{self, {ID: "b", Name: "Mochi"}}
	for _, c := range []struct{ args, want string }{
		{`{"character":"yui","text":"hi"}`, "error: a character cannot address itself"},
		{`{"character":"Kiri","text":"hi"}`, `error: no character named "Kiri"`},
		{`{"character":"mochi","text":"hi"}`, "error: Mochi is not running"},
	} {
		if got := address.Call(self.Name, directory{y: y, all: all}, json.RawMessage(c.args)); got != c.want {
			t.Errorf("address(%s) = %q, want %q", c.args, got, c.want)
		}
	}
	tool := y.addressTool(self, all)
	if tool.Name != "address_character" || tool.Description != "Say something to another character on this desktop. Running now: Mochi" {
		t.Errorf("tool = %q %q", tool.Name, tool.Description)
	}
}

func TestOverride(t *testing.T) {
	y := &yui{cfg: Config{ChatAPI: "push", ChatBaseURL: "http://127.0.0.1:9", Model: "m", Key: "k"}}
	p := settings.Preset{ChatAPI: "responses", ChatBaseURL: "http://x", Model: "old"}
	y.override(&p)
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
