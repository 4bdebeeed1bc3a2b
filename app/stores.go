package app

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"yui/pet/settings"
	"yui/tools/relation"
)

// storePositions keeps a pet's position in its preset's state. The pet
// window calls SavePosition on the UI goroutine at a drag's end: the store
// only notes it there and writes the state file later, on its own.
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
	if err := p.store.SavePosition(p.id, layout, x, y); err != nil {
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

// historyFile keeps a preset's message history beside the settings:
// <config dir>/history/<preset id>.json, written atomically, mode 0600.
type historyFile struct {
	dir, id string
}

func (h historyFile) path() string { return filepath.Join(h.dir, "history", h.id+".json") }

func (h historyFile) Load() ([]byte, error) { return os.ReadFile(h.path()) }

func (h historyFile) Save(data []byte) error {
	if err := os.MkdirAll(filepath.Dir(h.path()), 0o700); err != nil {
		return fmt.Errorf("history %s: %w", h.id, err)
	}
	if err := settings.WriteFileAtomic(h.path(), data, 0o600); err != nil {
		return fmt.Errorf("history %s: %w", h.id, err)
	}
	return nil
}

func (h historyFile) KeepAside() (string, error) {
	kept := fmt.Sprintf("%s.corrupt-%d", h.path(), time.Now().Unix())
	return kept, os.Rename(h.path(), kept)
}
