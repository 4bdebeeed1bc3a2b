package app

import (
	"errors"
	"fmt"
	"io/fs"
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

// factStores opens each preset's store once. The zero value is ready.
type factStores struct {
	mu sync.Mutex
	m  map[string]*facts.Store
}

// facts is preset id's fact store, opened on first use; the demo pet's
// is kept for the run only.
func (y *yui) facts(id string) *facts.Store {
	y.factStores.mu.Lock()
	defer y.factStores.mu.Unlock()
	if s, ok := y.factStores.m[id]; ok {
		return s
	}
	if y.factStores.m == nil {
		y.factStores.m = map[string]*facts.Store{}
	}
	var files facts.Files
	if !y.cfg.Demo && y.configDir != "" {
		files = factsFile{dir: y.configDir, id: id}
	}
	s := facts.Open(files, nil, y.log.With("preset", id, "component", "memory"))
	y.factStores.m[id] = s
	return s
}

// dropFacts forgets a deleted preset's store and removes its file.
func (y *yui) dropFacts(id string) {
	y.factStores.mu.Lock()
	delete(y.factStores.m, id)
	y.factStores.mu.Unlock()
	if y.configDir == "" {
		return
	}
	if err := os.Remove(factsFile{dir: y.configDir, id: id}.path()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		y.log.Warn("preset_forget", "preset", id, "err", err.Error())
	}
}

// remembers reports whether the session's connection is a request
// transport, which declares remember and forget; push keeps its own memory.
func (s *session) remembers() bool { return s.cfg().ChatAPI != settings.ChatAPIPush }

// factTools fills the remember and forget handlers of a request
// transport's toolset.
func (s *session) factTools() (remember, forget transport.ToolHandler) {
	st := s.y.facts(s.cfg().ID)
	return facts.RememberTool(st).Handler, facts.ForgetTool(st).Handler
}

// facts is the request transports' Options.Facts: the preset's facts
// after the card; nil (no interface) over push, which ignores it.
func (s *session) facts() transport.Facts {
	if !s.remembers() {
		return nil
	}
	return s.y.facts(s.cfg().ID)
}

// Facts is preset id's fact store, for the settings window's Facts page.
func (y *yui) Facts(id string) *facts.Store { return y.facts(id) }
