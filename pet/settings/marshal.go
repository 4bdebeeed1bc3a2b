package settings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"yui/transport"
)

// The settings file's JSON: decoded over the defaults, with the fields this
// version does not know kept and written back after the known ones.

// UnmarshalJSON decodes a settings object over the defaults, keeping
// unknown fields in Extra.
func (s *Settings) UnmarshalJSON(data []byte) error {
	type plain Settings
	v := plain(defaultSettings())
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	extra, err := unknownFields(data, reflect.TypeFor[plain]())
	if err != nil {
		return err
	}
	v.Extra = extra
	if v.DelegationHistory == nil {
		v.DelegationHistory = map[string][]transport.Delegation{}
	}
	*s = Settings(v)
	return nil
}

// MarshalJSON encodes the settings with their unknown fields after the known ones.
func (s Settings) MarshalJSON() ([]byte, error) {
	type plain Settings
	b, err := json.Marshal(plain(s))
	if err != nil {
		return nil, err
	}
	return appendFields(b, s.Extra)
}

// UnmarshalJSON decodes a preset over the preset defaults (so a missing
// poke reads as true), keeping unknown fields in Extra. Learned starts
// with its defaults (relation 50); the store fills it from the state file.
func (p *Preset) UnmarshalJSON(data []byte) error {
	type plain Preset
	v := plain(defaultPreset())
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	extra, err := unknownFields(data, reflect.TypeFor[plain]())
	if err != nil {
		return err
	}
	v.Extra = extra
	*p = Preset(v)
	return nil
}

// MarshalJSON encodes the preset with its unknown fields after the known ones.
func (p Preset) MarshalJSON() ([]byte, error) {
	type plain Preset
	b, err := json.Marshal(plain(p))
	if err != nil {
		return nil, err
	}
	return appendFields(b, p.Extra)
}

// unknownFields returns the members of the JSON object data that match no
// json field of struct type t (matching case-insensitively, as
// encoding/json does). It returns nil when there are none.
func unknownFields(data []byte, t reflect.Type) (map[string]json.RawMessage, error) {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, err
	}
	var known []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		known = append(known, name)
	}
	var extra map[string]json.RawMessage
	for k, v := range all {
		if slices.ContainsFunc(known, func(n string) bool { return strings.EqualFold(n, k) }) {
			continue
		}
		if extra == nil {
			extra = map[string]json.RawMessage{}
		}
		extra[k] = v
	}
	return extra, nil
}

// appendFields appends extra members, sorted by name, to the encoded
// non-empty JSON object obj.
func appendFields(obj []byte, extra map[string]json.RawMessage) ([]byte, error) {
	if len(extra) == 0 {
		return obj, nil
	}
	var buf bytes.Buffer
	buf.Write(obj[:len(obj)-1]) // drop the closing brace
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		name, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		val := extra[k]
		if !json.Valid(val) {
			return nil, fmt.Errorf("settings: unknown field %q holds invalid JSON", k)
		}
		buf.WriteByte(',')
		buf.Write(name)
		buf.WriteByte(':')
		buf.Write(val)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}
