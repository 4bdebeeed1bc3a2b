package settings

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
)

// Keyring holds the presets' keys apart from the settings file (the
// system keyring, pet/secrets). Its calls may block for a while; the store
// makes them at Open and on its own goroutine, never on the caller's.
type Keyring interface {
	// Get returns the secret of entry.
	Get(entry string) (string, error)
	// Set stores secret as entry, replacing what it held.
	Set(entry, secret string) error
	// Delete removes entry; one already gone is no error.
	Delete(entry string) error
}

// Where the keys are (Store.KeysWhere).
type KeysPlace string

const (
	// KeysInKeyring: every key is in the system keyring; settings.json
	// names the entries.
	KeysInKeyring KeysPlace = "keyring"
	// KeysInFile: no keyring answers; the keys are in settings.json.
	KeysInFile KeysPlace = "file"
)

// keyFields are the key fields of a preset, as the file names them.
var keyFields = []string{"key", "speech.key", "voice.key"}

// keyOf returns the key field of p named field.
func keyOf(p *Preset, field string) *string {
	switch field {
	case "speech.key":
		return &p.Speech.Key
	case "voice.key":
		return &p.Voice.Key
	}
	return &p.Key
}

// entryName is the keyring entry that holds field of preset id.
func entryName(id, field string) string { return id + "/" + field }

// keys is the store's knowledge of the keyring.
type keys struct {
	mu   sync.Mutex
	ring Keyring // nil: the keys stay in the file
	why  string  // why ring is nil
	// held maps an entry to the secret the keyring is known to hold.
	held map[string]string
	// unread maps "<preset id>/<field>" to the entry the file names for a
	// key the keyring did not give at start: the file keeps naming it.
	unread map[string]string
	dirty  bool // a key is in the file that the keyring could take
}

// KeysWhere says where the keys are kept, and why in the file when they are.
func (s *Store) KeysWhere() (KeysPlace, string) {
	s.keys.mu.Lock()
	defer s.keys.mu.Unlock()
	if s.keys.ring == nil {
		return KeysInFile, s.keys.why
	}
	return KeysInKeyring, ""
}

// fileForm returns st as the settings file holds it: each key the keyring
// holds replaced by the name of its entry (in the preset's "keyring"
// object). A key the keyring does not hold yet stays in the file, so
// nothing is lost when the keyring refuses it.
func (s *Store) fileForm(st Settings) Settings {
	s.keys.mu.Lock()
	defer s.keys.mu.Unlock()
	f := st.Clone()
	now := map[string]string{} // entry → the key the settings hold
	for i := range f.Presets {
		p := &f.Presets[i]
		p.Keyring = nil
		for _, field := range keyFields {
			k := keyOf(p, field)
			entry := entryName(p.ID, field)
			if *k != "" {
				now[entry] = *k
			}
			switch {
			case *k != "" && s.keys.held[entry] == *k:
				*k = ""
			case *k == "" && s.keys.unread[p.ID+"/"+field] != "":
				entry = s.keys.unread[p.ID+"/"+field]
			default:
				if *k != "" && s.keys.ring != nil {
					s.keys.dirty = true
				}
				continue
			}
			if p.Keyring == nil {
				p.Keyring = map[string]string{}
			}
			p.Keyring[field] = entry
		}
	}
	// A key cleared or changed, or a preset deleted: its old entry goes.
	for entry, v := range s.keys.held {
		if now[entry] != v && s.keys.ring != nil {
			s.keys.dirty = true
		}
	}
	return f
}

// takeRefs moves the entry names a decoded file gives for its keys out of
// st into unread, where they wait for UseKeyring (and the file keeps
// naming them until then). A key also written in the file wins: the user
// put it there by hand.
func (s *Store) takeRefs(st *Settings) {
	s.keys.mu.Lock()
	defer s.keys.mu.Unlock()
	for i := range st.Presets {
		p := &st.Presets[i]
		for field, entry := range p.Keyring {
			if slices.Contains(keyFields, field) && entry != "" && *keyOf(p, field) == "" {
				s.keys.unread[p.ID+"/"+field] = entry
			}
		}
		p.Keyring = nil
	}
}

// UseKeyring makes ring the home of the keys (nil: none answers, for the
// reason why): the keys the file names entries for are read from it, the
// keys still in the file are moved into it, and the file is rewritten
// without them. The app calls it once, after Open, off the UI goroutine:
// keyring calls may block until their timeout.
func (s *Store) UseKeyring(ring Keyring, why string) {
	s.keys.mu.Lock()
	s.keys.ring, s.keys.why = ring, why
	unread := maps.Clone(s.keys.unread)
	s.keys.mu.Unlock()
	if ring == nil {
		for _, ref := range slices.Sorted(maps.Keys(unread)) {
			id, field, _ := strings.Cut(ref, "/")
			s.log.Load().Warn("key_unread", "preset", id, "field", field, "entry", unread[ref], "err", why)
		}
		return
	}
	for _, ref := range slices.Sorted(maps.Keys(unread)) {
		id, field, _ := strings.Cut(ref, "/")
		entry := unread[ref]
		v, err := ring.Get(entry)
		if err != nil {
			s.log.Load().Warn("key_unread", "preset", id, "field", field, "entry", entry, "err", err.Error())
			continue
		}
		s.writeMu.Lock()
		s.mu.Lock()
		if p, ok := s.cur.Preset(id); ok && *keyOf(p, field) == "" {
			*keyOf(p, field) = v
		}
		s.mu.Unlock()
		s.keys.mu.Lock()
		delete(s.keys.unread, ref)
		if entry == entryName(id, field) {
			s.keys.held[entry] = v
		}
		s.keys.mu.Unlock()
		s.writeMu.Unlock()
	}
	s.moveKeys()
}

// moveKeys puts into the keyring every key the settings hold that it does
// not hold yet, removes the entries of keys that are gone, then rewrites
// the settings file without the keys it took. A refusal leaves that key
// (and those after it) in the file; a keyring that stops answering keeps
// every key in the file from then on. It runs at Open and on the store's
// own goroutine.
func (s *Store) moveKeys() {
	s.keys.mu.Lock()
	ring := s.keys.ring
	s.keys.dirty = false
	s.keys.mu.Unlock()
	if ring == nil {
		return
	}
	cur := s.Get()
	want := map[string]string{}
	for i := range cur.Presets {
		p := &cur.Presets[i]
		for _, field := range keyFields {
			if k := *keyOf(p, field); k != "" {
				want[entryName(p.ID, field)] = k
			}
		}
	}
	moved, failed := 0, error(nil)
	for _, entry := range slices.Sorted(maps.Keys(want)) {
		s.keys.mu.Lock()
		have, ok := s.keys.held[entry]
		s.keys.mu.Unlock()
		if ok && have == want[entry] {
			continue
		}
		if err := ring.Set(entry, want[entry]); err != nil {
			failed = err
			break
		}
		s.keys.mu.Lock()
		s.keys.held[entry] = want[entry]
		s.keys.mu.Unlock()
		moved++
	}
	if failed == nil {
		s.keys.mu.Lock()
		var gone []string
		for entry := range s.keys.held {
			if _, ok := want[entry]; !ok {
				gone = append(gone, entry)
			}
		}
		s.keys.mu.Unlock()
		for _, entry := range gone {
			if err := ring.Delete(entry); err != nil {
				failed = err
				break
			}
			s.keys.mu.Lock()
			delete(s.keys.held, entry)
			s.keys.mu.Unlock()
		}
	}
	if failed != nil {
		s.log.Load().Warn("keys_stored", "where", string(KeysInFile), "err", failed.Error())
		s.keys.mu.Lock()
		s.keys.ring, s.keys.why = nil, fmt.Sprintf("the keyring refused a key (%v)", failed)
		s.keys.mu.Unlock()
	}
	if moved == 0 && failed == nil {
		return
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if err := s.save(s.Get()); err != nil {
		s.log.Load().Warn("keys_save_failed", "err", err.Error())
		return
	}
	if moved > 0 {
		s.log.Load().Info("keys_moved", "entries", moved)
	}
}

// KeysNote is the line the settings window shows about where the keys are.
func (s *Store) KeysNote() string {
	where, why := s.KeysWhere()
	if where == KeysInKeyring {
		return "Keys are kept in the system keyring; settings.json only names their entries."
	}
	if why == "" {
		why = "no keyring answers"
	}
	return "Keys are kept in settings.json, readable only by you (" + why + ")."
}

// withoutKeys returns a settings file with its presets' keys blanked, for
// the copy an upgrade keeps: the keys stay in the current file until the
// keyring takes them, and a copy must not keep them in clear after that.
// A file of another shape is returned as it is.
func withoutKeys(data []byte) []byte {
	var obj map[string]any
	if json.Unmarshal(data, &obj) != nil {
		return data
	}
	presets, _ := obj["presets"].([]any)
	for _, p := range presets {
		m, _ := p.(map[string]any)
		for _, sub := range []map[string]any{m, asObject(m["speech"]), asObject(m["voice"])} {
			if _, ok := sub["key"]; ok {
				sub["key"] = ""
			}
		}
	}
	out, err := json.MarshalIndent(obj, "", "  ")
	if err != nil {
		return data
	}
	return append(out, '\n')
}

func asObject(v any) map[string]any { m, _ := v.(map[string]any); return m }
