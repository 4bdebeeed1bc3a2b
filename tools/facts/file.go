package facts

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The facts file and the user's exports: reading them forgivingly, writing
// them whole.

// Decode reads a facts file or an exported list: the file's object, or a
// bare array of facts. Facts with no text are left out, texts are cut to
// MaxFactLen, ids that are missing or repeat get new ones, and past
// MaxFacts the least recently used go. It returns the facts and the next
// free id.
func Decode(data []byte) ([]Fact, int64, error) {
	if len(data) > maxFileBytes {
		return nil, 0, fmt.Errorf("%d bytes, over the %d byte bound", len(data), maxFileBytes)
	}
	var f file
	trimmed := strings.TrimSpace(string(data))
	if strings.HasPrefix(trimmed, "[") {
		if err := json.Unmarshal(data, &f.Facts); err != nil {
			return nil, 0, fmt.Errorf("not a list of facts: %w", err)
		}
	} else {
		if err := json.Unmarshal(data, &f); err != nil {
			return nil, 0, fmt.Errorf("not a facts file: %w", err)
		}
		if f.Version > fileVersion {
			return nil, 0, fmt.Errorf("facts file version %d, newer than %d", f.Version, fileVersion)
		}
	}
	next := min(max(f.NextID, 1), maxID)
	seen := map[int64]bool{}
	out := make([]Fact, 0, len(f.Facts))
	for _, x := range f.Facts {
		x.Text = clean(x.Text)
		if x.Text == "" {
			continue
		}
		x.Text = cut(x.Text)
		if a, ok := ParseAbout(string(x.About)); ok {
			x.About = a
		} else {
			x.About = AboutUser
		}
		x.Uses = max(x.Uses, 0)
		if x.ID > maxID {
			x.ID = 0 // gets a new one below
		}
		next = max(next, x.ID+1)
		out = append(out, x)
	}
	for i := range out {
		if out[i].ID <= 0 || seen[out[i].ID] {
			out[i].ID = next
			next++
		}
		seen[out[i].ID] = true
	}
	return evict(out), next, nil
}

// Export is the facts as a JSON file the user keeps.
func (s *Store) Export() ([]byte, error) {
	s.mu.Lock()
	f := file{Version: fileVersion, NextID: s.nextID, Facts: s.ordered()}
	s.mu.Unlock()
	return json.MarshalIndent(f, "", "  ")
}

// Import adds the facts of an exported file (or a list of facts) to the
// kept ones: a fact already kept (same normalised text) is not added
// again, imported facts get new ids. It returns how many were added.
func (s *Store) Import(data []byte) (int, error) {
	facts, _, err := Decode(data)
	if err != nil {
		return 0, fmt.Errorf("import: %w", err)
	}
	now := s.clk.Now()
	s.mu.Lock()
	have := map[string]bool{}
	for _, f := range s.facts {
		have[Normal(f.Text)] = true
	}
	added := 0
	for _, f := range facts {
		n := Normal(f.Text)
		if have[n] {
			continue
		}
		have[n] = true
		f.ID = s.nextID
		s.nextID++
		if f.Created.IsZero() {
			f.Created = now
		}
		s.facts = append(s.facts, f)
		added++
	}
	s.facts = evict(s.facts)
	s.mu.Unlock()
	s.log.Info("memory_imported", "facts", added)
	return added, s.save("import")
}
