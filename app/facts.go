package app

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"yui/pet/settings"
	"yui/tools/facts"
	"yui/transport"
)

// Long-term memory (tools/facts): one fact store per preset, shared by
// its pet's connections and the settings window's Memory page, so that
// an edit on the page reaches the next request.

// factsFile keeps a preset's facts beside its conversation memory:
// <config dir>/memory/<preset id>.facts.json, written atomically, mode 0600.
type factsFile struct {
	dir, id string
}

func (f factsFile) path() string { return filepath.Join(f.dir, "memory", f.id+".facts.json") }

func (f factsFile) Load() ([]byte, error) { return os.ReadFile(f.path()) }

func (f factsFile) Save(data []byte) error {
	if err := os.MkdirAll(filepath.Dir(f.path()), 0o700); err != nil {
		return fmt.Errorf("facts %s: %w", f.id, err)
	}
	if err := settings.WriteFileAtomic(f.path(), data, 0o600); err != nil {
		return fmt.Errorf("facts %s: %w", f.id, err)
	}
	return nil
}

func (f factsFile) KeepAside() (string, error) {
	kept := fmt.Sprintf("%s.corrupt-%d", f.path(), time.Now().Unix())
	return kept, os.Rename(f.path(), kept)
}

// factStores opens each preset's store once; it is the settings window's
// Memory page (settingswindow.Memory).
type factStores struct {
	// dir is the config directory the facts files are under; "" keeps
	// no files. runOnly keeps the facts for the run only (the demo).
	dir     string
	runOnly bool
	log     *slog.Logger

	mu sync.Mutex
	m  map[string]*facts.Store
}

// Facts is preset id's fact store, opened on first use.
func (f *factStores) Facts(id string) *facts.Store {
	f.mu.Lock()
	defer f.mu.Unlock()
	if s, ok := f.m[id]; ok {
		return s
	}
	if f.m == nil {
		f.m = map[string]*facts.Store{}
	}
	var files facts.Files
	if !f.runOnly && f.dir != "" {
		files = factsFile{dir: f.dir, id: id}
	}
	log := f.log
	if log == nil {
		log = slog.New(slog.DiscardHandler) // a yui built by hand in a test
	}
	s := facts.Open(files, nil, log.With("preset", id, "component", "memory"))
	f.m[id] = s
	return s
}

// drop forgets a deleted preset's store and removes its file.
func (f *factStores) drop(id string) {
	f.mu.Lock()
	delete(f.m, id)
	f.mu.Unlock()
	if f.dir == "" {
		return
	}
	if err := os.Remove(factsFile{dir: f.dir, id: id}.path()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		f.log.Warn("preset_forget", "preset", id, "err", err.Error())
	}
}

// remembers reports whether the session's connection is a request
// transport, which declares remember and forget; push keeps its own memory.
func (s *session) remembers() bool { return s.cfg().ChatAPI != settings.ChatAPIPush }

// factTools fills the remember and forget handlers of a request
// transport's toolset.
func (s *session) factTools() (remember, forget transport.ToolHandler) {
	st := s.y.facts.Facts(s.cfg().ID)
	return facts.RememberTool(st).Handler, facts.ForgetTool(st).Handler
}

// facts is the request transports' Options.Facts: the preset's facts
// after the card; nil (no interface) over push, which ignores it.
func (s *session) facts() transport.Facts {
	if !s.remembers() {
		return nil
	}
	return s.y.facts.Facts(s.cfg().ID)
}
