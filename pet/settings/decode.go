package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"yui/transport"
)

// Decoded is a settings file as Decode read it.
type Decoded struct {
	Settings Settings
	// Repairs lists the fixes made (see Repair).
	Repairs []Fix
	// Refused lists what was invalid and left out: whole presets, and
	// global fields put back to their defaults.
	Refused []Refusal
	// From is the version the file was written in; when it is older than
	// CurrentVersion, Settings holds the learned state the file held.
	From int
}

// Refusal is one preset or global field of a file that was left out, and why.
type Refusal struct {
	// PresetID and Name name the preset; both "" for a global field.
	PresetID, Name string
	// Fields are the invalid fields.
	Fields []FieldError
}

func (r Refusal) String() string {
	var why []string
	for _, f := range r.Fields {
		why = append(why, f.Field+" "+f.Reason())
	}
	if r.PresetID == "" {
		return "global settings: " + strings.Join(why, ", ")
	}
	return fmt.Sprintf("preset %q: %s", r.Name, strings.Join(why, ", "))
}

// Decode reads a settings file: it checks the version, migrates an older
// file, decodes it and repairs it (see Repair; rand supplies new ids). A
// file that parses keeps every valid preset: an invalid preset is left out
// and an invalid global field put back to its default, each listed in
// Refused with its reasons (a default preset stands in when none is left).
// A file from a newer version is a *NewerVersionError; one that does not
// parse is an error.
func Decode(data []byte, rand io.Reader) (Decoded, error) {
	var head struct {
		Version *int `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return Decoded{}, fmt.Errorf("settings: parsing: %w", err)
	}
	if head.Version == nil {
		return Decoded{}, errors.New("settings: parsing: no version field")
	}
	v := *head.Version
	switch {
	case v > CurrentVersion:
		return Decoded{}, &NewerVersionError{Version: v}
	case v < 1:
		return Decoded{}, fmt.Errorf("settings: parsing: bad version %d", v)
	case v < CurrentVersion:
		var err error
		if data, err = migrate(data, v); err != nil {
			return Decoded{}, err
		}
	}
	s, refused, err := decodeLenient(data, v < 2)
	if err != nil {
		return Decoded{}, fmt.Errorf("settings: parsing: %w", err)
	}
	fixes, err := s.Repair(rand)
	if err != nil {
		return Decoded{}, err
	}
	// Repair makes ids unique and the active preset real; what is left
	// invalid is refused field by field.
	if err := s.Validate(); err != nil {
		var ve *ValidationError
		if !errors.As(err, &ve) {
			return Decoded{}, err
		}
		refused = append(refused, s.refuseInvalid(ve)...)
		more, err := s.Repair(rand)
		if err != nil {
			return Decoded{}, err
		}
		fixes = append(fixes, more...)
		if err := s.Validate(); err != nil {
			return Decoded{}, err
		}
	}
	return Decoded{Settings: s, Repairs: fixes, Refused: refused, From: v}, nil
}

// decodeLenient decodes the file object member by member, so that one
// preset of the wrong shape (a string where a number goes) is refused
// alone instead of failing the whole file. With learned (a version 1
// file), the presets' positions and relation and the top-level delegation
// history are read into Learned and DelegationHistory.
func decodeLenient(data []byte, learned bool) (Settings, []Refusal, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return Settings{}, nil, err
	}
	var refused []Refusal
	var history map[string][]transport.Delegation
	if raw, ok := obj["delegation_history"]; ok && learned {
		if err := json.Unmarshal(raw, &history); err != nil {
			refused = append(refused, Refusal{Fields: []FieldError{fieldErr("", "delegation_history", invalid(CodeNotList))}})
			history = nil
		}
		delete(obj, "delegation_history")
	}
	var rawPresets []json.RawMessage
	if raw, ok := obj["presets"]; ok {
		if err := json.Unmarshal(raw, &rawPresets); err != nil {
			refused = append(refused, Refusal{Fields: []FieldError{fieldErr("", "presets", invalid(CodeNotList))}})
			rawPresets = nil
		}
		delete(obj, "presets")
	}
	var s Settings
	rest, err := json.Marshal(obj)
	if err != nil {
		return Settings{}, nil, err
	}
	if err := json.Unmarshal(rest, &s); err != nil {
		// A global field of the wrong type: keep the defaults for all of
		// them rather than guess which one.
		refused = append(refused, Refusal{Fields: []FieldError{fieldErr("", "settings", invalid(CodeWrongType, "Detail", err.Error()))}})
		s = defaultSettings()
		if raw, ok := obj["active_preset"]; ok {
			_ = json.Unmarshal(raw, &s.ActivePreset)
		}
	}
	if history != nil {
		s.DelegationHistory = history
	}
	for i, raw := range rawPresets {
		var p Preset
		rest, l, err := raw, Learned{}, error(nil)
		if learned {
			rest, l, err = splitLearned(raw)
		}
		if err == nil {
			err = json.Unmarshal(rest, &p)
			if learned {
				p.Learned = l
			}
		}
		if err != nil {
			var named struct {
				ID   string `json:"id"`
				Name string `json:"name"`
			}
			_ = json.Unmarshal(raw, &named)
			if named.Name == "" {
				named.Name = fmt.Sprintf("#%d", i+1)
			}
			refused = append(refused, Refusal{PresetID: named.ID, Name: named.Name,
				Fields: []FieldError{fieldErr(named.ID, "preset", invalid(CodeWrongType, "Detail", err.Error()))}})
			continue
		}
		s.Presets = append(s.Presets, p)
	}
	return s, refused, nil
}

// splitLearned takes a version 1 preset's learned fields out of its object.
func splitLearned(raw json.RawMessage) (json.RawMessage, Learned, error) {
	l := defaultPreset().Learned
	if err := json.Unmarshal(raw, &l); err != nil {
		return nil, l, err
	}
	if l.Positions == nil {
		l.Positions = map[string]Position{}
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, l, err
	}
	delete(obj, "positions")
	delete(obj, "relation")
	rest, err := json.Marshal(obj)
	return rest, l, err
}

// refuseInvalid leaves out the presets ve names and puts the global
// fields it names back to their defaults, and says so.
func (s *Settings) refuseInvalid(ve *ValidationError) []Refusal {
	var out []Refusal
	var global []FieldError
	def := defaultSettings()
	for _, f := range ve.For("") {
		switch f.Field {
		case "screen_look":
			s.ScreenLook = def.ScreenLook
		case "log_level":
			s.LogLevel = def.LogLevel
		case "language":
			s.Language = def.Language
		default:
			continue // version, presets, active_preset: Repair's
		}
		global = append(global, f)
	}
	if len(global) > 0 {
		out = append(out, Refusal{Fields: global})
	}
	kept := s.Presets[:0]
	for _, p := range s.Presets {
		if errs := ve.For(p.ID); p.ID != "" && len(errs) > 0 {
			out = append(out, Refusal{PresetID: p.ID, Name: p.Name, Fields: errs})
			delete(s.DelegationHistory, p.ID)
			continue
		}
		kept = append(kept, p)
	}
	s.Presets = kept
	return out
}

// migrate brings a version-from file up to CurrentVersion one step at a
// time, working on the raw JSON object so that each step sees the file as
// its version wrote it. A later version adds a case "from N to N+1" here.
// Version 2 moved what the app learns out of the file: the step leaves
// those fields for decodeLenient, which reads them into the state.
func migrate(data []byte, from int) ([]byte, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return nil, fmt.Errorf("settings: migrating: %w", err)
	}
	// Steps go here, as "if from == N { …; from = N+1 }", oldest first.
	if from == 1 {
		from = 2
	}
	if from < CurrentVersion {
		return nil, fmt.Errorf("settings: no migration from version %d", from)
	}
	obj["version"] = json.RawMessage(fmt.Sprint(CurrentVersion))
	out, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("settings: migrating: %w", err)
	}
	return out, nil
}
