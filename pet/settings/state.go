package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"time"

	"yui/transport"
)

// StateDir is the directory of the state files inside the store directory:
// one file per preset, <preset id>.json, holding what the app learned
// about it (Learned and its delegation history).
const StateDir = "state"

// StateDelay is how long the store gathers changes of learned state before
// it writes them: a drag's end, a burst of delegation frames or a run of
// relation changes each cost one write, within a second.
const StateDelay = 500 * time.Millisecond

// stateVersion is the state file version this build writes.
const stateVersion = 1

// Learned is what the app learns about a preset, as opposed to what the
// user sets: every other field of Preset but its identity (id, chat_id) is
// the user's (see Config). A new learned field goes here and nowhere else.
type Learned struct {
	// Positions is the pet's saved position per monitor-layout key.
	Positions map[string]Position `json:"positions"`
	// Relation is the relation score, 0–100.
	Relation int `json:"relation"`
	// Reminders are the pending reminders (reminders.go).
	Reminders
}

func (l Learned) clone() Learned {
	c := l
	c.Positions = maps.Clone(l.Positions)
	c.Reminders = l.Reminders.clone()
	if c.Positions == nil {
		c.Positions = map[string]Position{}
	}
	return c
}

// Config returns the part of p the user sets: p without its identity
// (id, chat_id), what the app learned, and the fields this version does
// not know. The settings window edits it; a running preset whose Config
// changed reconnects.
func (p Preset) Config() Preset {
	c := p.Clone()
	c.ID, c.ChatID = "", ""
	c.Learned = Learned{}
	c.Keyring, c.Extra = nil, nil
	return c
}

// WithConfig returns p with the user's part taken from edited (see Config):
// p's identity, learned state and unknown fields stay.
func (p Preset) WithConfig(edited Preset) Preset {
	c := edited.Config()
	c.ID, c.ChatID = p.ID, p.ChatID
	c.Learned = p.Learned.clone()
	c.Extra = maps.Clone(p.Extra)
	return c
}

// stateFile is the form of a preset's state file.
type stateFile struct {
	Version int `json:"version"`
	Learned
	DelegationHistory []transport.Delegation `json:"delegation_history"`
}

// statePath returns the state file of preset id. Ids are made as
// p-<hex>, but a hand-written file may hold any string: it is escaped so
// that no id names a file outside the state directory.
func (s *Store) statePath(id string) string {
	return filepath.Join(s.dir, StateDir, url.PathEscape(id)+".json")
}

// readState fills every preset's learned state and delegation history from
// its state file. A missing file leaves the defaults; one that cannot be
// read is renamed aside (<id>.json.corrupt-<unix time>) and reported.
func (s *Store) readState(st *Settings, now func() time.Time) []string {
	var notes []string
	for i := range st.Presets {
		p := &st.Presets[i]
		path := s.statePath(p.ID)
		data, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		var f stateFile
		if err == nil {
			err = decodeState(data, &f)
		}
		if err != nil {
			kept := fmt.Sprintf("%s.corrupt-%d", path, now().Unix())
			if rerr := os.Rename(path, kept); rerr != nil {
				kept = path
			}
			notes = append(notes, fmt.Sprintf("What Yui learned about %q could not be read (%v); it was kept as %s.", p.Name, err, filepath.Base(kept)))
			continue
		}
		p.Learned = f.Learned.clone()
		p.Relation = clamp(p.Relation)
		if len(f.DelegationHistory) > 0 {
			st.DelegationHistory[p.ID] = f.DelegationHistory
		}
	}
	return notes
}

// decodeState parses a state file over the defaults.
func decodeState(data []byte, f *stateFile) error {
	*f = stateFile{Learned: defaultPreset().Learned}
	if err := json.Unmarshal(data, f); err != nil {
		return fmt.Errorf("parsing: %w", err)
	}
	if f.Version > stateVersion {
		return fmt.Errorf("version %d is newer than this Yui understands", f.Version)
	}
	return nil
}

// encodeState returns the state file of preset p.
func encodeState(p Preset, history []transport.Delegation) ([]byte, error) {
	f := stateFile{Version: stateVersion, Learned: p.Learned.clone(), DelegationHistory: history}
	if f.DelegationHistory == nil {
		f.DelegationHistory = []transport.Delegation{}
	}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("settings: encoding the state of %s: %w", p.ID, err)
	}
	return append(data, '\n'), nil
}

// learnedChanged returns the ids of presets whose learned state or
// delegation history differs between old and next, and of presets removed.
func learnedChanged(old, next Settings) []string {
	var ids []string
	for _, p := range next.Presets {
		o, ok := old.Preset(p.ID)
		if !ok || !equalLearned(o.Learned, p.Learned) ||
			!slices.Equal(old.DelegationHistory[p.ID], next.DelegationHistory[p.ID]) {
			ids = append(ids, p.ID)
		}
	}
	for _, p := range old.Presets {
		if _, ok := next.Preset(p.ID); !ok {
			ids = append(ids, p.ID)
		}
	}
	return ids
}

func equalLearned(a, b Learned) bool {
	if a.Relation != b.Relation || len(a.Positions) != len(b.Positions) || !a.Reminders.equal(b.Reminders) {
		return false
	}
	for k, v := range a.Positions {
		if w, ok := b.Positions[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// markState records that the state of presets ids must be written, and
// arms the write StateDelay from now unless one is armed already.
func (s *Store) markState(ids []string) {
	if len(ids) == 0 {
		return
	}
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	for _, id := range ids {
		s.dirty[id] = true
	}
	s.arm()
}

// arm arms the delayed FlushState unless it is armed or the store closed.
// stateMu is held.
func (s *Store) arm() {
	if s.timer != nil || s.closed {
		return
	}
	s.timer = s.clock.AfterFunc(StateDelay, func() {
		s.stateMu.Lock()
		s.timer = nil
		s.stateMu.Unlock()
		s.FlushState()
	})
}

// FlushState writes the state files that changed since the last write, now,
// on the calling goroutine (the timer's, or Close's), and moves new keys
// into the keyring (keys.go). A preset that no longer exists has its state
// file removed. A failed write is logged and tried again with the next
// change.
func (s *Store) FlushState() {
	s.flushMu.Lock()
	defer s.flushMu.Unlock()
	s.stateMu.Lock()
	ids := make([]string, 0, len(s.dirty))
	for id := range s.dirty {
		ids = append(ids, id)
	}
	clear(s.dirty)
	s.stateMu.Unlock()
	slices.Sort(ids)
	s.keys.mu.Lock()
	moveKeys := s.keys.dirty
	s.keys.mu.Unlock()
	if moveKeys {
		s.moveKeys()
	}
	cur := s.Get()
	for _, id := range ids {
		if err := s.writeState(cur, id); err != nil {
			s.log.Load().Warn("state_save_failed", "preset", id, "err", err.Error())
			s.stateMu.Lock()
			s.dirty[id] = true
			s.stateMu.Unlock()
		}
	}
}

func (s *Store) writeState(cur Settings, id string) error {
	path := s.statePath(id)
	p, ok := cur.Preset(id)
	if !ok {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("settings: removing the state of %s: %w", id, err)
		}
		return nil
	}
	data, err := encodeState(*p, cur.DelegationHistory[id])
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("settings: creating the state directory: %w", err)
	}
	if err := s.writeFile(path, data, 0o600); err != nil {
		return fmt.Errorf("settings: saving the state of %s: %w", id, err)
	}
	return nil
}

// Close writes the pending state at once and stops the delayed writes.
// The store still answers reads and updates after it; their state is then
// written by the next FlushState.
func (s *Store) Close() {
	s.stateMu.Lock()
	s.closed = true
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	s.stateMu.Unlock()
	s.FlushState()
}

// SavePosition records preset id's window position for a monitor layout.
// It only changes the settings in memory (and tells no subscriber: no
// window shows positions); the state file is written StateDelay later, off
// the caller's goroutine, so a drag's end on the UI goroutine never waits
// for the disk.
func (s *Store) SavePosition(id, layout string, x, y int) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.mu.Lock()
	p, ok := s.cur.Preset(id)
	if !ok {
		s.mu.Unlock()
		return fmt.Errorf("settings: saving a position of %s: %w", id, ErrNoPreset)
	}
	pos := Position{X: x, Y: y}
	if old, had := p.Positions[layout]; had && old == pos {
		s.mu.Unlock()
		return nil
	}
	if p.Positions == nil {
		p.Positions = map[string]Position{}
	}
	p.Positions[layout] = pos // readers hold copies (Get clones under mu)
	s.mu.Unlock()
	s.markState([]string{id})
	return nil
}

// DelegationStore returns the delegation history store of preset id
// (transport.Options.Delegations).
func (s *Store) DelegationStore(presetID string) transport.DelegationStore {
	return delegationStore{s: s, id: presetID}
}

type delegationStore struct {
	s  *Store
	id string
}

// LoadDelegations returns the preset's history (a copy).
func (d delegationStore) LoadDelegations() []transport.Delegation {
	d.s.mu.RLock()
	defer d.s.mu.RUnlock()
	return slices.Clone(d.s.cur.DelegationHistory[d.id])
}

// SaveDelegations replaces the preset's history; its state file is written
// within StateDelay (a burst of frames is one write).
func (d delegationStore) SaveDelegations(history []transport.Delegation) error {
	return d.s.Update(func(st *Settings) error {
		if _, ok := st.Preset(d.id); !ok {
			return fmt.Errorf("settings: saving delegation history of %s: %w", d.id, ErrNoPreset)
		}
		st.DelegationHistory[d.id] = slices.Clone(history)
		return nil
	})
}

// Relation returns the relation score store of preset id (the
// tools/relation Scores interface).
func (s *Store) Relation(presetID string) RelationScore {
	return RelationScore{s: s, id: presetID}
}

// RelationScore reads and changes one preset's relation score.
type RelationScore struct {
	s  *Store
	id string
}

// Score returns the current score (RelationDefault when the preset is gone).
func (r RelationScore) Score() int {
	p, ok := r.s.Preset(r.id)
	if !ok {
		return RelationDefault
	}
	return p.Relation
}

// AddScore adds delta to the score, clamped to 0–100, and returns the new
// score; its state file is written within StateDelay.
func (r RelationScore) AddScore(delta int) (int, error) {
	var score int
	err := r.s.UpdatePreset(r.id, func(p *Preset) error {
		score = clamp(p.Relation + delta)
		p.Relation = score
		return nil
	})
	if err != nil {
		return 0, err
	}
	return score, nil
}
