package settings

import (
	"reflect"
	"slices"
)

// Change is one saved change of the settings, as subscribers see it.
type Change struct {
	// Old and New are the settings before and after (copies).
	Old, New Settings
	// Presets lists the ids of presets added, removed or edited, in the
	// order of New (removed ones last). A moved pet (positions) is no
	// change: no window shows positions, and a drag must not wake them all.
	Presets []string
	// Global is true when a setting outside the presets changed (active
	// preset, permissions, start at login, speakers, log level, ...).
	Global bool
}

// PresetChanged reports whether preset id was added, removed or edited.
func (c Change) PresetChanged(id string) bool { return slices.Contains(c.Presets, id) }

func newChange(old, next Settings) Change {
	c := Change{Old: old, New: next.Clone()}
	for _, p := range next.Presets {
		if o, ok := old.Preset(p.ID); !ok || !reflect.DeepEqual(unplaced(*o), unplaced(p)) {
			c.Presets = append(c.Presets, p.ID)
		}
	}
	for _, p := range old.Presets {
		if _, ok := next.Preset(p.ID); !ok {
			c.Presets = append(c.Presets, p.ID)
		}
	}
	// Anything outside the presets is global: the active preset, the
	// permissions, start at login, the speakers, the log level, the
	// delegation history and fields this version does not know.
	og, ng := old, next
	og.Presets, ng.Presets = nil, nil
	c.Global = !reflect.DeepEqual(og, ng)
	return c
}

// unplaced is p without its positions.
func unplaced(p Preset) Preset {
	p.Positions = nil
	return p
}

// Subscribe calls fn with every saved change from now on, in save order,
// never two at a time, and outside the store's locks: fn may read and
// update the store (its own update reaches it after it returns). The
// returned cancel stops the calls; a call already under way finishes.
func (s *Store) Subscribe(fn func(Change)) (cancel func()) {
	return s.subs.Subscribe(fn)
}
