// Package settings is Yui's settings store (docs/product.md §2): the presets and
// the global settings the user sets, kept in one versioned JSON file
// written atomically with mode 0600, and what the app learns while it runs
// (each pet's positions per monitor layout, its relation score, its
// delegation history) kept apart in one state file per preset (state.go),
// written off the caller's goroutine and coalesced. Keys go to the system
// keyring when the app gives the store one (keys.go); settings.json then
// names their entries.
//
// The settings file looks like this (version 2):
//
//	{
//	  "version": 2,
//	  "active_preset": "p-3f9a0c12",
//	  "presets": [
//	    {
//	      "id": "p-3f9a0c12",
//	      "name": "Yui",
//	      "enabled": true,
//	      "character": "yui",
//	      "chat_api": "chat_completions",
//	      "chat_base_url": "http://127.0.0.1:11434/v1",
//	      "key": "",
//	      "model": "",
//	      "reasoning_effort": "",
//	      "card": "",
//	      "context_window": 0,
//	      "chat_id": "yui-0b7e44d1",
//	      "speech": {"engine": "system", "voice": "", "base_url": "", "key": "", "model": "", "rate": 1, "volume": 1, "command": "", "command_rate": 0},
//	      "voice": {"mode": "off", "engine": "openai", "base_url": "", "key": "", "model": "", "language": "", "command": ""},
//	      "screen_on_turn": "toggle",
//	      "greeting": false,
//	      "poke": true,
//	      "check_in_minutes": 0
//	    }
//	  ],
//	  "screen_look": "unset",
//	  "browser_tool": false,
//	  "browser_local": false,
//	  "log_level": "info"
//	}
//
// Version 1 files also held each preset's "positions" and "relation" and a
// top-level "delegation_history"; Open moves them into the state files.
//
// Fields the file holds that this version does not know, at the top level
// and inside presets, are kept and written back unchanged.
package settings

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"slices"

	"yui/transport"
)

// CurrentVersion is the settings file version this build writes.
const CurrentVersion = 2

// Chat APIs of a preset.
const (
	ChatAPIPush            = "push"
	ChatAPIChatCompletions = "chat_completions"
	ChatAPIResponses       = "responses"
)

// Screen-look permission states (Settings.ScreenLook).
const (
	ScreenLookUnset   = "unset"
	ScreenLookAllowed = "allowed"
	ScreenLookRefused = "refused"
)

// Relation score bounds (docs/protocol/client-tools.md rate_relation).
const (
	RelationMin     = 0
	RelationMax     = 100
	RelationDefault = 50
)

// Defaults of a new preset (docs/product.md §2).
const (
	DefaultPresetName  = "Yui"
	DefaultCharacter   = "yui"
	DefaultChatAPI     = ChatAPIChatCompletions
	DefaultChatBaseURL = "http://127.0.0.1:11434/v1"
	DefaultLogLevel    = "info"
)

// Settings is the whole settings file.
type Settings struct {
	Version int `json:"version"`
	// ActivePreset is the id of the preset whose pet window is main.
	ActivePreset string   `json:"active_preset"`
	Presets      []Preset `json:"presets"`
	// ScreenLook is the permission of look at screen: "unset", "allowed", "refused".
	ScreenLook string `json:"screen_look"`
	// BrowserTool switches the browser tool on.
	BrowserTool bool `json:"browser_tool"`
	// BrowserLocal lets the browser tool open pages on this computer and
	// the local network (off by default: public web only).
	BrowserLocal bool `json:"browser_local"`
	// StartAtLogin starts Yui when the user logs in (off by default).
	StartAtLogin bool `json:"start_at_login"`
	// LogLevel is "debug", "info", "warn" or "error".
	LogLevel string `json:"log_level"`
	// Speakers is the output device's name as the system lists it (yui
	// devices); "" is the default output.
	Speakers string `json:"speakers,omitempty"`
	// MCPServers and MCPPermissions are the user's MCP servers and their tools' permissions (mcp.go).
	MCPServers     map[string]MCPServer `json:"mcp_servers,omitempty"`
	MCPPermissions map[string]string    `json:"mcp_permissions,omitempty"`
	// Language overrides the system's language (language.go); "" follows it.
	Language Language `json:"language,omitempty"`
	// DelegationHistory is the push delegation history (docs/protocol/push-transport.md,
	// yui.delegation_history), keyed by preset id. Each preset talks to its
	// own backend chat, and the history merge marks a running item a list
	// leaves out as done; one shared history would let one preset's list
	// close another's items. The app learns it: it lives in the presets'
	// state files, not in settings.json.
	DelegationHistory map[string][]transport.Delegation `json:"-"`

	// Extra holds top-level fields this version does not know; they are
	// written back as they were.
	Extra map[string]json.RawMessage `json:"-"`
}

// Preset is one configured character+backend pair.
type Preset struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Enabled   bool   `json:"enabled"`
	Character string `json:"character"`
	// ChatAPI is "push", "chat_completions" or "responses".
	ChatAPI         string `json:"chat_api"`
	ChatBaseURL     string `json:"chat_base_url"`
	Key             string `json:"key"`
	Model           string `json:"model"`
	ReasoningEffort string `json:"reasoning_effort"`
	// Card is the persona text.
	Card string `json:"card"`
	// ContextWindow is the model's context in tokens, for the usage readout; 0 is unknown.
	ContextWindow int `json:"context_window"`
	// ChatID is "yui-" plus 8 random hex digits, made when the preset is created.
	ChatID string `json:"chat_id"`
	Speech Speech `json:"speech"`
	Voice  Voice  `json:"voice"`
	// ScreenOnTurn is "never", "toggle" or "always".
	ScreenOnTurn string `json:"screen_on_turn"`
	// Greeting starts a greeting turn after start.
	Greeting bool `json:"greeting"`
	// Poke makes a click on the pet start a turn.
	Poke bool `json:"poke"`
	// Gravity lets the pet fall when the user drops it: onto the window
	// under it, where it sits, or to the bottom of the work area.
	Gravity bool `json:"gravity"`
	// Gaze makes the eyes follow the pointer when it is near.
	Gaze bool `json:"gaze"`
	// CheckInMinutes starts a check-in turn after this many minutes
	// without a turn; 0 is off.
	CheckInMinutes int `json:"check_in_minutes"`
	// Life is the turns Yui starts on her own (life.go).
	Life Life `json:"life"`
	// MCP names the servers of mcp_servers the preset uses (mcp.go).
	MCP []string `json:"mcp,omitempty"`
	// Keyring names, in the file only, the keyring entry of each key the
	// system keyring holds ("key", "speech.key", "voice.key"); that key is
	// then "" in the file. In memory the keys are in their fields and
	// Keyring is nil (keys.go).
	Keyring map[string]string `json:"keyring,omitempty"`

	// Learned is what the app learns about the preset while it runs; it is
	// kept in the preset's state file, not in settings.json.
	Learned `json:"-"`

	// Extra holds preset fields this version does not know.
	Extra map[string]json.RawMessage `json:"-"`
}

// Speech is a preset's speech output (docs/product.md §6).
type Speech struct {
	// Engine is one of SpeechEngines (engines.go).
	Engine  string `json:"engine"`
	Voice   string `json:"voice"`
	BaseURL string `json:"base_url"`
	Key     string `json:"key"`
	Model   string `json:"model"`
	// Rate is a speed factor, 0.25–4; 1 is normal.
	Rate float64 `json:"rate"`
	// Volume is the pet's speech volume, 0–1; 1 plays the voice as synthesised.
	Volume float64 `json:"volume"`
	// Command is the command engine's program line (split as voice.command
	// is, run without a shell): it reads a sentence and writes audio.
	Command string `json:"command"`
	// CommandRate is the sample rate of the command's raw 16-bit mono PCM
	// output; 0 when it writes a WAV.
	CommandRate int `json:"command_rate"`
	// SpeechServer holds the gpt-sovits and piper fields (engines.go).
	SpeechServer
}

// Voice is a preset's voice input (docs/product.md §7).
type Voice struct {
	// Mode is "off", "push_to_talk", "hands_free" or "wake_word" (handsfree.go).
	Mode string `json:"mode"`
	// Engine is one of VoiceEngines (engines.go).
	Engine  string `json:"engine"`
	BaseURL string `json:"base_url"`
	Key     string `json:"key"`
	Model   string `json:"model"`
	// Language is the openai engine's language hint (ISO-639-1); "" lets the server detect it.
	Language string `json:"language"`
	// Command is the program of the command engine; it reads a WAV and prints text.
	Command string `json:"command"`
	// Device is the microphone's name as the system lists it (yui
	// devices); "" is the default microphone. A device that is missing
	// falls back to the default until it returns.
	Device string `json:"device,omitempty"`
	// Threshold is how many dB above the noise floor speech must rise to
	// count as voice (the Voice tab's sensitivity); 0 is the default, 8.
	Threshold float64 `json:"threshold,omitempty"`
	HandsFree
}

// Voice-activity thresholds a preset may set, in dB above the noise floor.
const (
	MinVoiceThreshold = 3
	MaxVoiceThreshold = 24
)

// Position is a saved pet window position.
type Position struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// Clone returns a deep copy of s.
func (s Settings) Clone() Settings {
	c := s
	c.Presets = make([]Preset, len(s.Presets))
	for i, p := range s.Presets {
		c.Presets[i] = p.Clone()
	}
	c.DelegationHistory = make(map[string][]transport.Delegation, len(s.DelegationHistory))
	for k, v := range s.DelegationHistory {
		c.DelegationHistory[k] = slices.Clone(v)
	}
	c.Extra = maps.Clone(s.Extra)
	c.MCPServers, c.MCPPermissions = cloneMCP(s)
	return c
}

// Clone returns a deep copy of p.
func (p Preset) Clone() Preset {
	c := p
	c.Learned = p.Learned.clone()
	c.Life = p.Life.clone()
	c.Keyring = maps.Clone(p.Keyring)
	c.Extra = maps.Clone(p.Extra)
	c.Voice.HandsFree = p.Voice.HandsFree.clone()
	c.MCP = slices.Clone(p.MCP)
	return c
}

// Preset returns the preset with the given id.
func (s *Settings) Preset(id string) (*Preset, bool) {
	for i := range s.Presets {
		if s.Presets[i].ID == id {
			return &s.Presets[i], true
		}
	}
	return nil, false
}

// Active returns the active preset (the first one when the active id is unknown).
func (s *Settings) Active() (*Preset, bool) {
	if p, ok := s.Preset(s.ActivePreset); ok {
		return p, true
	}
	if len(s.Presets) > 0 {
		return &s.Presets[0], true
	}
	return nil, false
}

// Secrets returns every non-empty key the settings hold (chat, speech and
// voice keys of all presets), for the log redactor.
func (s Settings) Secrets() []string {
	var out []string
	for _, p := range s.Presets {
		for _, k := range []string{p.Key, p.Speech.Key, p.Voice.Key} {
			if k != "" && !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return append(out, s.mcpSecrets()...)
}

// LogValue describes the preset for logs without any of its keys.
func (p Preset) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("id", p.ID),
		slog.String("name", p.Name),
		slog.String("chat_api", p.ChatAPI),
		slog.String("chat_base_url", p.ChatBaseURL),
		slog.Bool("has_key", p.Key != ""),
		slog.String("model", p.Model),
	)
}

// String describes the preset without any of its keys, so that printing a
// preset by mistake cannot leak one.
func (p Preset) String() string {
	return fmt.Sprintf("preset %q (%s, %s %s)", p.Name, p.ID, p.ChatAPI, p.ChatBaseURL)
}
