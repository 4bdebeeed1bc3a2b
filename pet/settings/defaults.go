package settings

import (
	"encoding/hex"
	"fmt"
	"io"

	"yui/transport"
)

// The settings of a first start and of a new preset, and their random ids.

// Default returns the settings of a first start: one preset named Yui,
// active. rand supplies the preset's id and chat_id.
func Default(rand io.Reader) (Settings, error) {
	p, err := NewPreset(rand, DefaultPresetName)
	if err != nil {
		return Settings{}, err
	}
	s := defaultSettings()
	s.Presets = []Preset{p}
	s.ActivePreset = p.ID
	return s, nil
}

// defaultSettings is the global part of Default, also the base a file is
// decoded over so that missing fields read as their defaults.
func defaultSettings() Settings {
	return Settings{
		Version:           CurrentVersion,
		ScreenLook:        ScreenLookUnset,
		LogLevel:          DefaultLogLevel,
		DelegationHistory: map[string][]transport.Delegation{},
	}
}

// NewPreset returns a new preset with the defaults of docs/product.md §2, the
// given name, and a fresh id and chat_id read from rand.
func NewPreset(rand io.Reader, name string) (Preset, error) {
	p := defaultPreset()
	p.Name = name
	var err error
	if p.ID, err = NewPresetID(rand); err != nil {
		return Preset{}, err
	}
	if p.ChatID, err = NewChatID(rand); err != nil {
		return Preset{}, err
	}
	return p, nil
}

// defaultPreset is a preset with every default but no id or chat_id.
func defaultPreset() Preset {
	return Preset{
		Enabled:      true,
		Character:    DefaultCharacter,
		ChatAPI:      DefaultChatAPI,
		ChatBaseURL:  DefaultChatBaseURL,
		Speech:       Speech{Engine: "system", Rate: 1, Volume: 1},
		Voice:        Voice{Mode: "off", Engine: "openai"},
		ScreenOnTurn: "toggle",
		Poke:         true,
		Gravity:      true,
		Gaze:         true,
		Life:         DefaultLife(),
		Learned:      Learned{Positions: map[string]Position{}, Relation: RelationDefault},
	}
}

// NewChatID returns "yui-" plus 8 random hex digits read from rand.
func NewChatID(rand io.Reader) (string, error) { return randomID(rand, "yui-") }

// NewPresetID returns a new preset id: "p-" plus 8 random hex digits.
func NewPresetID(rand io.Reader) (string, error) { return randomID(rand, "p-") }

func randomID(rand io.Reader, prefix string) (string, error) {
	var b [4]byte
	if _, err := io.ReadFull(rand, b[:]); err != nil {
		return "", fmt.Errorf("settings: reading random id: %w", err)
	}
	return prefix + hex.EncodeToString(b[:]), nil
}
