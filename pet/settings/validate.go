package settings

import (
	"fmt"
	"io"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// FieldError is one invalid field, named as in the file, so that the
// settings editor can show the reason at the field.
type FieldError struct {
	// PresetID is the preset the field belongs to; "" for a global field.
	PresetID string
	// Field is the JSON name, dotted inside speech and voice ("speech.rate").
	Field string
	// Code says what is wrong; the windows translate it with Args.
	Code Code
	// Args are the named arguments of the code's text.
	Args map[string]any
}

// Reason is what is wrong, in English (for the log).
func (e FieldError) Reason() string { return English(e.Code, e.Args) }

func (e FieldError) Error() string {
	if e.PresetID != "" {
		return fmt.Sprintf("preset %s: %s: %s", e.PresetID, e.Field, e.Reason())
	}
	return e.Field + ": " + e.Reason()
}

// ValidationError lists every invalid field of a settings value.
type ValidationError struct {
	Fields []FieldError
}

func (e *ValidationError) Error() string {
	msgs := make([]string, len(e.Fields))
	for i, f := range e.Fields {
		msgs[i] = f.Error()
	}
	return "settings: invalid: " + strings.Join(msgs, "; ")
}

// For returns the errors of one preset's fields ("" for global fields).
func (e *ValidationError) For(presetID string) []FieldError {
	var out []FieldError
	for _, f := range e.Fields {
		if f.PresetID == presetID {
			out = append(out, f)
		}
	}
	return out
}

// NewerVersionError is the error of a file written by a newer Yui.
type NewerVersionError struct {
	Version int
}

func (e *NewerVersionError) Error() string {
	return fmt.Sprintf("settings: file version %d is newer than this Yui understands (%d)", e.Version, CurrentVersion)
}

// Validate reports every field that cannot work, or nil. It does not
// repair anything; see Repair.
func (s *Settings) Validate() error {
	var errs []FieldError
	if s.Version != CurrentVersion {
		errs = append(errs, fieldErr("", "version", invalid(CodeVersion, "Version", CurrentVersion)))
	}
	if len(s.Presets) == 0 {
		errs = append(errs, fieldErr("", "presets", invalid(CodeNoPresets)))
	}
	if _, ok := s.Preset(s.ActivePreset); !ok {
		errs = append(errs, fieldErr("", "active_preset", invalid(CodeNoSuchPreset)))
	}
	if !slices.Contains([]string{ScreenLookUnset, ScreenLookAllowed, ScreenLookRefused}, s.ScreenLook) {
		errs = append(errs, fieldErr("", "screen_look", oneOf(ScreenLookUnset, ScreenLookAllowed, ScreenLookRefused)))
	}
	if _, err := ParseLogLevel(s.LogLevel); err != nil {
		errs = append(errs, fieldErr("", "log_level", oneOf("debug", "info", "warn", "error")))
	}
	errs = append(errs, s.validateMCP()...)
	errs = append(errs, s.Language.validate()...)
	seen := map[string]bool{}
	for _, p := range s.Presets {
		errs = append(errs, p.Validate()...)
		if p.ID != "" && seen[p.ID] {
			errs = append(errs, fieldErr(p.ID, "id", invalid(CodeIDUsed)))
		}
		seen[p.ID] = true
	}
	if len(errs) > 0 {
		return &ValidationError{Fields: errs}
	}
	return nil
}

// Validate reports the preset's invalid fields, or nil.
func (p *Preset) Validate() []FieldError {
	var errs []FieldError
	bad := func(field string, why *Invalid) { errs = append(errs, fieldErr(p.ID, field, why)) }
	empty := invalid(CodeEmpty)
	if p.ID == "" {
		bad("id", empty)
	}
	if strings.TrimSpace(p.Name) == "" {
		bad("name", empty)
	}
	if p.Character == "" {
		bad("character", empty)
	}
	if !slices.Contains([]string{ChatAPIPush, ChatAPIChatCompletions, ChatAPIResponses}, p.ChatAPI) {
		bad("chat_api", oneOf(ChatAPIPush, ChatAPIChatCompletions, ChatAPIResponses))
	}
	if err := CheckURL(p.ChatBaseURL, "http", "https", "ws", "wss"); err != nil {
		bad("chat_base_url", asInvalid(err))
	}
	if p.ContextWindow < 0 {
		bad("context_window", invalid(CodeNegative))
	}
	if p.ChatID == "" {
		bad("chat_id", empty)
	}
	if !slices.Contains(SpeechEngines, p.Speech.Engine) {
		bad("speech.engine", oneOf(SpeechEngines...))
	}
	if p.Speech.Engine == "command" && strings.TrimSpace(p.Speech.Command) == "" {
		bad("speech.command", empty)
	}
	if r := p.Speech.CommandRate; r != 0 && (r < MinCommandRate || r > MaxCommandRate) {
		bad("speech.command_rate", invalid(CodeCommandRate, "Min", MinCommandRate, "Max", MaxCommandRate))
	}
	if p.Speech.BaseURL != "" || speechNeedsURL(p.Speech) {
		if err := CheckURL(p.Speech.BaseURL, "http", "https"); err != nil {
			bad("speech.base_url", asInvalid(err))
		}
	}
	if p.Speech.Rate < 0.25 || p.Speech.Rate > 4 {
		bad("speech.rate", between(0.25, 4))
	}
	if !(p.Speech.Volume >= 0 && p.Speech.Volume <= 1) {
		bad("speech.volume", between(0, 1))
	}
	if !slices.Contains(VoiceModes, p.Voice.Mode) {
		bad("voice.mode", oneOf(VoiceModes...))
	}
	if !slices.Contains(VoiceEngines, p.Voice.Engine) {
		bad("voice.engine", oneOf(VoiceEngines...))
	}
	listening := p.Voice.Mode != "off" && slices.Contains(VoiceModes, p.Voice.Mode)
	if p.Voice.BaseURL != "" || (voiceNeedsURL(p.Voice) && listening) {
		if err := CheckURL(p.Voice.BaseURL, "http", "https"); err != nil {
			bad("voice.base_url", asInvalid(err))
		}
	}
	if p.Voice.Engine == "command" && listening && strings.TrimSpace(p.Voice.Command) == "" {
		bad("voice.command", empty)
	}
	if t := p.Voice.Threshold; t != 0 && !(t >= MinVoiceThreshold && t <= MaxVoiceThreshold) {
		bad("voice.threshold", invalid(CodeThreshold, "Min", MinVoiceThreshold, "Max", MaxVoiceThreshold))
	}
	if strings.ContainsAny(p.Voice.Device, "\x00\n") {
		bad("voice.device", invalid(CodeDevice))
	}
	p.Voice.validateHandsFree(bad)
	p.validateServers(bad)
	if !slices.Contains([]string{"never", "toggle", "always"}, p.ScreenOnTurn) {
		bad("screen_on_turn", oneOf("never", "toggle", "always"))
	}
	if p.Relation < RelationMin || p.Relation > RelationMax {
		bad("relation", between(RelationMin, RelationMax))
	}
	if p.CheckInMinutes < 0 || p.CheckInMinutes > MaxCheckInMinutes {
		bad("check_in_minutes", invalid(CodeUpTo, "Max", MaxCheckInMinutes))
	}
	errs = append(errs, p.Life.Validate(p.ID)...)
	return errs
}

// Sample rates speech.command_rate may give (speech.Command.Rate).
const (
	MinCommandRate = 8000
	MaxCommandRate = 192000
)

// MaxCheckInMinutes is the longest idle check-in delay: a day.
const MaxCheckInMinutes = 24 * 60

// ValidateEdit is what the settings editor checks before it saves a
// preset: Validate, and what a hand-edited file may get away with but a
// user editing in the window should be told at once: the endpoint's scheme
// must fit the protocol (the request transports speak http/https only),
// and a request transport needs a model.
func (p *Preset) ValidateEdit() []FieldError {
	errs := p.Validate()
	has := func(field string) bool {
		return slices.ContainsFunc(errs, func(e FieldError) bool { return e.Field == field })
	}
	if !has("chat_base_url") && !has("chat_api") {
		// push opens ws(s)://…/ws from an http(s) or ws(s) base;
		// the request transports post over http(s) only.
		schemes := []string{"http", "https"}
		if p.ChatAPI == ChatAPIPush {
			schemes = []string{"ws", "wss", "http", "https"}
		}
		if err := CheckURL(p.ChatBaseURL, schemes...); err != nil {
			why := asInvalid(err)
			if why.Code == CodeScheme {
				why = invalid(CodeSchemeFor, "Schemes", why.Args["Schemes"], "API", p.ChatAPI)
			}
			errs = append(errs, fieldErr(p.ID, "chat_base_url", why))
		}
	}
	if p.ChatAPI != ChatAPIPush && strings.TrimSpace(p.Model) == "" {
		errs = append(errs, fieldErr(p.ID, "model", invalid(CodeModelNeeded, "API", p.ChatAPI)))
	}
	return errs
}

// SendsKeyInClear reports whether one of the preset's keys would cross
// the network unencrypted (KeysInClear).
func (p *Preset) SendsKeyInClear() bool { return len(p.KeysInClear()) > 0 }

// KeysInClear names the preset's keys that would cross the network
// unencrypted: a key set, sent to a ws:// or http:// endpoint whose host
// is not loopback. "key" is the chat key (on chat_base_url), "speech.key"
// and "voice.key" those of the openai speech and voice engines (on their
// base_url). Empty when every key is safe.
func (p Preset) KeysInClear() []string {
	var out []string
	if keyInClear(p.Key, p.ChatBaseURL) {
		out = append(out, "key")
	}
	if p.Speech.Engine == "openai" && keyInClear(p.Speech.Key, p.Speech.BaseURL) {
		out = append(out, "speech.key")
	}
	if p.Voice.Engine == "openai" && keyInClear(p.Voice.Key, p.Voice.BaseURL) {
		out = append(out, "voice.key")
	}
	return out
}

// keyInClear reports whether key would go unencrypted to base.
func keyInClear(key, base string) bool {
	if key == "" {
		return false
	}
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "ws", "http":
	default:
		return false
	}
	return !IsLoopback(u.Hostname())
}

// IsLoopback reports whether host names this machine: localhost or a
// loopback address.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// CheckURL reports why raw is not an absolute URL with a host and one of
// the given schemes, or nil.
func CheckURL(raw string, schemes ...string) error {
	if strings.TrimSpace(raw) == "" {
		return invalid(CodeEmpty)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return invalid(CodeNotURL)
	}
	if !slices.Contains(schemes, strings.ToLower(u.Scheme)) {
		return invalid(CodeScheme, "Schemes", strings.Join(schemes, "://, ")+"://")
	}
	if u.Host == "" || u.Hostname() == "" {
		return invalid(CodeNoHost)
	}
	return nil
}

// Repair fixes what can be fixed without the user and returns each fix
// (fixes.go): relation scores clamped to 0–100, missing or duplicate preset ids
// and chat_ids replaced by new ones, an unknown active preset replaced by
// the first one, and a default preset added when there is none. rand
// supplies new ids.
func (s *Settings) Repair(rand io.Reader) ([]Fix, error) {
	var fixes []Fix
	if len(s.Presets) == 0 {
		p, err := NewPreset(rand, DefaultPresetName)
		if err != nil {
			return fixes, err
		}
		s.Presets = append(s.Presets, p)
		fixes = append(fixes, Fix{Code: FixAddedPreset})
	}
	ids := map[string]bool{}
	chats := map[string]bool{}
	for i := range s.Presets {
		p := &s.Presets[i]
		if p.ID == "" || ids[p.ID] {
			old := p.ID
			id, err := NewPresetID(rand)
			if err != nil {
				return fixes, err
			}
			p.ID = id
			if old == "" {
				fixes = append(fixes, Fix{Code: FixPresetID, Preset: p.Name, New: id})
			} else {
				fixes = append(fixes, Fix{Code: FixDuplicatePresetID, Preset: p.Name, Old: old, New: id})
			}
		}
		ids[p.ID] = true
		if p.ChatID == "" || chats[p.ChatID] {
			id, err := NewChatID(rand)
			if err != nil {
				return fixes, err
			}
			if p.ChatID == "" {
				fixes = append(fixes, Fix{Code: FixChatID, Preset: p.Name, New: id})
			} else {
				fixes = append(fixes, Fix{Code: FixDuplicateChatID, Preset: p.Name, Old: p.ChatID, New: id})
			}
			p.ChatID = id
		}
		chats[p.ChatID] = true
		if c := clamp(p.Relation); c != p.Relation {
			fixes = append(fixes, Fix{Code: FixRelation, Preset: p.Name, Old: strconv.Itoa(p.Relation), New: strconv.Itoa(c)})
			p.Relation = c
		}
		if p.Positions == nil {
			p.Positions = map[string]Position{}
		}
		p.Life = p.Life.repaired()
	}
	if !ids[s.ActivePreset] {
		if s.ActivePreset != "" {
			fixes = append(fixes, Fix{Code: FixActivePreset, Preset: s.Presets[0].Name, Old: s.ActivePreset})
		}
		s.ActivePreset = s.Presets[0].ID
	}
	return fixes, nil
}

func clamp(score int) int { return min(max(score, RelationMin), RelationMax) }
