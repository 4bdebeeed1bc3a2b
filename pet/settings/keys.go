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

// secret is one value of the settings the keyring may hold: a key of a
// preset, or a header or env value of an MCP server (docs/product.md §12:
// which of those are secret cannot be known, so all are). Its owner's
// "keyring" object in the file names its entry under field.
type secret struct {
	preset string // the preset's id, or "" for an MCP server's value
	server string // the MCP server's name
	field  string // "key", "speech.key", "voice.key"; "header/<Name>", "env/<NAME>"
}

// entry is the keyring entry that holds k: "<preset id>/key",
// "mcp/<server>/header/<Name>", "mcp/<server>/env/<NAME>".
func (k secret) entry() string {
	if k.preset != "" {
		return entryName(k.preset, k.field)
	}
	return "mcp/" + k.server + "/" + k.field
}

// logArgs name k's owner for a log line (never its value).
func (k secret) logArgs() []any {
	if k.preset != "" {
		return []any{"preset", k.preset, "field", k.field}
	}
	return []any{"server", k.server, "field", k.field}
}

// mcpValues returns the map of m that a secret field ("header/…",
// "env/…") names, and the name in it; ok is false for another field.
func mcpValues(m *MCPServer, field string) (values *map[string]string, name string, ok bool) {
	kind, name, _ := strings.Cut(field, "/")
	switch {
	case name == "":
		return nil, "", false
	case kind == "header":
		return &m.Headers, name, true
	case kind == "env":
		return &m.Env, name, true
	}
	return nil, "", false
}

// get returns k's value in st ("" when its owner is gone).
func (k secret) get(st *Settings) string {
	if k.preset != "" {
		if p, ok := st.Preset(k.preset); ok {
			return *keyOf(p, k.field)
		}
		return ""
	}
	m := st.MCPServers[k.server]
	if values, name, ok := mcpValues(&m, k.field); ok {
		return (*values)[name]
	}
	return ""
}

// set sets k's value in st; an MCP header or env name it lacked is added.
// An owner gone is left gone.
func (k secret) set(st *Settings, v string) {
	if k.preset != "" {
		if p, ok := st.Preset(k.preset); ok {
			*keyOf(p, k.field) = v
		}
		return
	}
	m, have := st.MCPServers[k.server]
	values, name, ok := mcpValues(&m, k.field)
	if !have || !ok {
		return
	}
	if *values == nil {
		*values = map[string]string{}
	}
	(*values)[name] = v
	st.MCPServers[k.server] = m
}

// name records in st's file form that entry holds k.
func (k secret) name(st *Settings, entry string) {
	add := func(refs *map[string]string) {
		if *refs == nil {
			*refs = map[string]string{}
		}
		(*refs)[k.field] = entry
	}
	if p, ok := st.Preset(k.preset); ok && k.preset != "" {
		add(&p.Keyring)
		return
	}
	if m, ok := st.MCPServers[k.server]; ok {
		add(&m.Keyring)
		st.MCPServers[k.server] = m
	}
}

// secretsOf lists every place for a secret st has: the three keys of each
// preset, each header and env name of each MCP server.
func secretsOf(st *Settings) []secret {
	var out []secret
	for _, p := range st.Presets {
		for _, field := range keyFields {
			out = append(out, secret{preset: p.ID, field: field})
		}
	}
	for _, server := range sortedKeys(st.MCPServers) {
		m := st.MCPServers[server]
		for _, h := range sortedKeys(m.Headers) {
			out = append(out, secret{server: server, field: "header/" + h})
		}
		for _, e := range sortedKeys(m.Env) {
			out = append(out, secret{server: server, field: "env/" + e})
		}
	}
	return out
}

// namedRefs returns the entries st's "keyring" objects name, by secret,
// and empties those objects (they are of the file only).
func namedRefs(st *Settings) map[secret]string {
	refs := map[secret]string{}
	for i := range st.Presets {
		p := &st.Presets[i]
		for field, entry := range p.Keyring {
			if slices.Contains(keyFields, field) && entry != "" {
				refs[secret{preset: p.ID, field: field}] = entry
			}
		}
		p.Keyring = nil
	}
	for server, m := range st.MCPServers {
		for field, entry := range m.Keyring {
			if _, _, ok := mcpValues(&m, field); ok && entry != "" {
				refs[secret{server: server, field: field}] = entry
			}
		}
		m.Keyring = nil
		st.MCPServers[server] = m
	}
	return refs
}

// keys is the store's knowledge of the keyring.
type keys struct {
	mu   sync.Mutex
	ring Keyring // nil: the keys stay in the file
	why  string  // why ring is nil
	// held maps an entry to the secret the keyring is known to hold.
	held map[string]string
	// unread maps a secret to the entry the file names for it when the
	// keyring did not give it at start: the file keeps naming it.
	unread map[secret]string
	dirty  bool // a secret is in the file that the keyring could take
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

// fileForm returns st as the settings file holds it: each secret the
// keyring holds replaced by the name of its entry (in its preset's or MCP
// server's "keyring" object; an MCP header or env name stays, with ""). A
// secret the keyring does not hold yet stays in the file, so nothing is
// lost when the keyring refuses it.
func (s *Store) fileForm(st Settings) Settings {
	s.keys.mu.Lock()
	defer s.keys.mu.Unlock()
	f := st.Clone()
	namedRefs(&f)
	now := map[string]string{} // entry → the secret the settings hold
	for _, k := range secretsOf(&f) {
		v, entry := k.get(&f), k.entry()
		if v != "" {
			now[entry] = v
		}
		switch {
		case v != "" && s.keys.held[entry] == v:
			k.set(&f, "")
		case v == "" && s.keys.unread[k] != "":
			entry = s.keys.unread[k]
		default:
			if v != "" && s.keys.ring != nil {
				s.keys.dirty = true
			}
			continue
		}
		k.name(&f, entry)
	}
	// A secret cleared or changed, or its owner deleted: its old entry goes.
	for entry, v := range s.keys.held {
		if now[entry] != v && s.keys.ring != nil {
			s.keys.dirty = true
		}
	}
	return f
}

// takeRefs moves the entry names a decoded file gives for its secrets out
// of st into unread, where they wait for UseKeyring (and the file keeps
// naming them until then). A value also written in the file wins: the
// user put it there by hand.
func (s *Store) takeRefs(st *Settings) {
	s.keys.mu.Lock()
	defer s.keys.mu.Unlock()
	for k, entry := range namedRefs(st) {
		if k.get(st) == "" {
			k.set(st, "") // an MCP name the file lost keeps its place
			s.keys.unread[k] = entry
		}
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
	order := slices.SortedFunc(maps.Keys(unread), func(a, b secret) int { return strings.Compare(a.entry(), b.entry()) })
	for _, k := range order {
		if ring == nil {
			s.log.Load().Warn("key_unread", append(k.logArgs(), "entry", unread[k], "err", why)...)
			continue
		}
		s.readSecret(ring, k, unread[k])
	}
	if ring != nil {
		s.moveKeys()
	}
}

// readSecret reads k from entry of ring into the settings, unless the
// settings got a value for it meanwhile.
func (s *Store) readSecret(ring Keyring, k secret, entry string) {
	v, err := ring.Get(entry)
	if err != nil {
		s.log.Load().Warn("key_unread", append(k.logArgs(), "entry", entry, "err", err.Error())...)
		return
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.mu.Lock()
	if k.get(&s.cur) == "" {
		k.set(&s.cur, v)
	}
	s.mu.Unlock()
	s.keys.mu.Lock()
	delete(s.keys.unread, k)
	if entry == k.entry() {
		s.keys.held[entry] = v
	}
	s.keys.mu.Unlock()
}

// moveKeys puts into the keyring every secret (key, MCP header or env
// value) the settings hold that it does not hold yet, removes the entries
// of those that are gone, then rewrites the settings file without the
// secrets it took. A refusal leaves that key
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
	for _, k := range secretsOf(&cur) {
		if v := k.get(&cur); v != "" {
			want[k.entry()] = v
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

// withoutKeys returns a settings file with its presets' keys and its MCP
// servers' header and env values blanked, for the copy an upgrade keeps:
// they stay in the current file until the keyring takes them, and a copy
// must not keep them in clear after that. A file of another shape is
// returned as it is.
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
	servers, _ := obj["mcp_servers"].(map[string]any)
	for _, m := range servers {
		for _, field := range []string{"headers", "env"} {
			values := asObject(asObject(m)[field])
			for name := range values {
				values[name] = ""
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
