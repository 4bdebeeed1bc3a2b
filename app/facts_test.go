package app

import (
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"yui/pet/settings"
	"yui/tools/facts"
)

func memorySession(t *testing.T, api string) (*yui, *session) {
	t.Helper()
	dir := t.TempDir()
	store, _, err := settings.Open(dir, settings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	y := &yui{log: log, store: store, configDir: dir}
	y.facts.dir, y.facts.log = dir, log
	s := &session{y: y, log: log, scores: &memScores{score: settings.RelationDefault}}
	p := store.Get().Presets[0]
	p.ChatAPI = api
	s.setPreset(p)
	return y, s
}

func toolNames(s *session) []string {
	set := s.newToolset()
	defer set.Close()
	var names []string
	for _, tl := range set.Tools() {
		names = append(names, tl.Name)
	}
	return names
}

// remember and forget are declared over the request transports, never
// over push; the request transports get the facts for every request.
func TestMemoryToolsOnlyOverRequestTransports(t *testing.T) {
	for _, c := range []struct {
		api  string
		want bool
	}{{settings.ChatAPIPush, false}, {settings.ChatAPIChatCompletions, true}, {settings.ChatAPIResponses, true}} {
		_, s := memorySession(t, c.api)
		names := toolNames(s)
		if got := slices.Contains(names, facts.RememberName) && slices.Contains(names, facts.ForgetName); got != c.want {
			t.Errorf("%s: tools %v", c.api, names)
		}
		if slices.Contains(names, facts.RememberName) != slices.Contains(names, facts.ForgetName) {
			t.Errorf("%s: one of remember and forget: %v", c.api, names)
		}
		if got := s.facts() != nil; got != c.want {
			t.Errorf("%s: Recall set %v", c.api, got)
		}
	}
}

// The pet's tools and the Memory page share one store: an edit on the
// page is in the next request's prompt, and it is kept in
// memory/<id>.facts.json with mode 0600; deleting the preset removes it.
func TestMemoryPageAndToolsShareTheStore(t *testing.T) {
	y, s := memorySession(t, settings.ChatAPIChatCompletions)
	id := s.cfg().ID
	st := y.facts.Facts(id)
	fid, _, err := st.Remember("Has a cat named Miso", facts.AboutUser)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Edit(fid, "Has two cats", facts.AboutUser); err != nil {
		t.Fatal(err)
	}
	prompt := s.facts().Prompt(1000, func(x string) int { return len(x) / 4 })
	if !strings.Contains(prompt, "Has two cats") || strings.Contains(prompt, "Miso") {
		t.Fatalf("prompt: %q", prompt)
	}
	path := filepath.Join(y.configDir, "memory", id+".facts.json")
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("facts file: %v, %v", fi, err)
	}
	y.facts.drop(id)
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the facts file outlived its preset: %v", err)
	}
}
