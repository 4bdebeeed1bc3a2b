package app

import (
	"log/slog"
	"slices"
	"testing"

	"yui/pet/settings"
	"yui/tools/body"
	"yui/tools/desktop/desktoptest"
	"yui/tools/look"
)

func TestMainDeclaresLookAndBodyActionOnlyWithTheDesktopLayer(t *testing.T) {
	store, _, err := settings.Open(t.TempDir(), settings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(store.Close)
	active := store.Get().Presets[0]
	other, err := store.AddPreset("Mochi")
	if err != nil {
		t.Fatal(err)
	}
	y := &yui{log: slog.New(slog.DiscardHandler), store: store}
	y.browserPath = "/usr/bin/chromium"
	declared := func(p settings.Preset, withDesktop bool) []string {
		s := &session{y: y, log: y.log, scores: &memScores{score: settings.RelationDefault}}
		s.setPreset(p)
		if withDesktop {
			d := desktoptest.NewFake()
			s.actor = body.New(body.Options{Desktop: d})
			s.look = look.New(look.Options{Actor: s.actor, Desktop: d, Permission: screenPermission{s}})
		}
		set := s.newToolset()
		defer set.Close()
		var names []string
		for _, tool := range set.Tools() {
			names = append(names, tool.Name)
		}
		return names
	}
	for _, c := range []struct {
		name    string
		p       settings.Preset
		desktop bool
		want    []string
	}{
		// The presets talk Chat Completions: remember, forget, remind and cancel_reminder last.
		{"main", active, true, []string{"rate_relation", "address_character", "body_action", "look", "remember", "forget", "remind", "cancel_reminder"}},
		{"main without a desktop layer", active, false, []string{"rate_relation", "address_character", "remember", "forget", "remind", "cancel_reminder"}},
		{"another pet", other, true, []string{"rate_relation", "address_character", "remember", "forget", "remind", "cancel_reminder"}},
	} {
		if got := declared(c.p, c.desktop); !slices.Equal(got, c.want) {
			t.Errorf("%s declares %v, want %v", c.name, got, c.want)
		}
	}
	// The browser switch on, with a browser found: every pet declares it.
	if err := store.Update(func(st *settings.Settings) error { st.BrowserTool = true; return nil }); err != nil {
		t.Fatal(err)
	}
	if got := declared(other, true); !slices.Equal(got, []string{"rate_relation", "address_character", "browser", "remember", "forget", "remind", "cancel_reminder"}) {
		t.Errorf("with the browser switched on, another pet declares %v", got)
	}
	y.browserPath = ""
	if got := declared(active, true); slices.Contains(got, "browser") {
		t.Errorf("with no browser found, main declares %v", got)
	}
}

func TestScreenLookAnswerIsSaved(t *testing.T) {
	store, _, err := settings.Open(t.TempDir(), settings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(store.Close)
	y := &yui{log: slog.New(slog.DiscardHandler), store: store}
	p := screenPermission{&session{y: y}}
	if got := p.ScreenLook(); got != look.Unanswered {
		t.Fatalf("fresh settings: %v, want Unanswered", got)
	}
	y.setScreenLook(settings.ScreenLookAllowed)
	if store.Get().ScreenLook != settings.ScreenLookAllowed || p.ScreenLook() != look.Allowed {
		t.Fatalf("after Allow: stored %q, answer %v", store.Get().ScreenLook, p.ScreenLook())
	}
	y.setScreenLook(settings.ScreenLookRefused)
	if p.ScreenLook() != look.Refused {
		t.Fatalf("after Not now: %v", p.ScreenLook())
	}

	// --demo saves nothing: the answer lasts for the run.
	demo := &yui{log: y.log, store: store, src: &demoSource{preset: demoPreset("ws://127.0.0.1:9")}}
	dp := screenPermission{&session{y: demo}}
	if dp.ScreenLook() != look.Unanswered {
		t.Fatalf("demo: %v, want Unanswered", dp.ScreenLook())
	}
	demo.setScreenLook(settings.ScreenLookAllowed)
	if dp.ScreenLook() != look.Allowed || store.Get().ScreenLook != settings.ScreenLookRefused {
		t.Fatalf("demo after Allow: %v, stored %q", dp.ScreenLook(), store.Get().ScreenLook)
	}
}
