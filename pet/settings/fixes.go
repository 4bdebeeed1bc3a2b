package settings

import "fmt"

// FixCode names a repair Settings.Repair made: the windows word it in the
// user's language (windows/i18n), the log and String keep English.
type FixCode string

const (
	FixAddedPreset       FixCode = "added_preset"        // no preset: the default one was added
	FixPresetID          FixCode = "preset_id"           // a preset had no id
	FixDuplicatePresetID FixCode = "duplicate_preset_id" // a preset repeated another's id
	FixChatID            FixCode = "chat_id"             // a preset had no chat_id
	FixDuplicateChatID   FixCode = "duplicate_chat_id"   // a preset repeated another's chat_id
	FixRelation          FixCode = "relation"            // a relation score out of 0–100
	FixActivePreset      FixCode = "active_preset"       // the active preset did not exist
)

// Fix is one repair: the preset it touched (by name), what was there and
// what is there now.
type Fix struct {
	Code     FixCode
	Preset   string
	Old, New string
}

// String is the fix in English, as the log and the start-up note give it.
func (f Fix) String() string {
	switch f.Code {
	case FixAddedPreset:
		return "no preset: added the default preset"
	case FixPresetID:
		return fmt.Sprintf("preset %q had no id: gave it %s", f.Preset, f.New)
	case FixDuplicatePresetID:
		return fmt.Sprintf("preset %q repeated id %s: gave it %s", f.Preset, f.Old, f.New)
	case FixChatID:
		return fmt.Sprintf("preset %q had no chat_id: gave it %s", f.Preset, f.New)
	case FixDuplicateChatID:
		return fmt.Sprintf("preset %q repeated chat_id %s: gave it %s", f.Preset, f.Old, f.New)
	case FixRelation:
		return fmt.Sprintf("preset %q relation %s: clamped to %s", f.Preset, f.Old, f.New)
	case FixActivePreset:
		return fmt.Sprintf("active preset %s does not exist: made %q active", f.Old, f.Preset)
	}
	return string(f.Code)
}
