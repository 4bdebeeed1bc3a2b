package i18n

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2/lang"

	"yui/pet/settings"
)

// Notice is the settings store's start-up notice (a file kept aside,
// values refused or repaired) in the user's language, for the pet's
// bubble; settings.Notice.Message is its English, for the log. A repair's
// and a state note's detail stay English: they name fields and ids.
func Notice(n *settings.Notice) string {
	if n == nil {
		return ""
	}
	file := filepath.Base(n.KeptAs)
	var newer *settings.NewerVersionError
	switch {
	case errors.As(n.Err, &newer):
		return lang.L("The settings file was written by a newer version of Yui (version {{.Version}}). It was kept as {{.File}} and Yui started with default settings.",
			map[string]any{"Version": newer.Version, "File": file})
	case n.Err != nil:
		return lang.L("The settings file could not be read ({{.Detail}}). It was kept as {{.File}} and Yui started with default settings.",
			map[string]any{"Detail": n.Err.Error(), "File": file})
	}
	msgs := slices.Clone(n.Notes)
	if len(n.Refused) > 0 {
		what := make([]string, len(n.Refused))
		for i, r := range n.Refused {
			what[i] = Refusal(r)
		}
		msgs = append(msgs, lang.L("Some settings were refused and left out (the original file was kept as {{.File}}): {{.What}}.",
			map[string]any{"File": file, "What": strings.Join(what, lang.L("; "))}))
	}
	if len(n.Repairs) > 0 {
		fixed := make([]string, len(n.Repairs))
		for i, f := range n.Repairs {
			fixed[i] = Fix(f)
		}
		msgs = append(msgs, lang.L("Some settings were repaired: {{.What}}.", map[string]any{"What": strings.Join(fixed, lang.L("; "))}))
	}
	return strings.Join(msgs, " ")
}

// Refusal is r as the user reads it: which preset (or the global
// settings) lost which fields, and why.
func Refusal(r settings.Refusal) string {
	why := make([]string, len(r.Fields))
	for i, f := range r.Fields {
		why[i] = Field(f)
	}
	fields := strings.Join(why, lang.L("; "))
	if r.PresetID == "" {
		return lang.L("Global settings: {{.Fields}}", map[string]any{"Fields": fields})
	}
	return lang.L("Preset “{{.Name}}”: {{.Fields}}", map[string]any{"Name": r.Name, "Fields": fields})
}

// Fix is a repair as the user reads it.
func Fix(f settings.Fix) string {
	switch f.Code {
	case settings.FixAddedPreset:
		return lang.L("there was no preset, so the default one was added")
	case settings.FixPresetID:
		return lang.L("preset {{.Name}} had no id and got {{.New}}", map[string]any{"Name": f.Preset, "New": f.New})
	case settings.FixDuplicatePresetID:
		return lang.L("preset {{.Name}} repeated the id {{.Old}} and got {{.New}}", map[string]any{"Name": f.Preset, "Old": f.Old, "New": f.New})
	case settings.FixChatID:
		return lang.L("preset {{.Name}} had no chat id and got {{.New}}", map[string]any{"Name": f.Preset, "New": f.New})
	case settings.FixDuplicateChatID:
		return lang.L("preset {{.Name}} repeated the chat id {{.Old}} and got {{.New}}", map[string]any{"Name": f.Preset, "Old": f.Old, "New": f.New})
	case settings.FixRelation:
		return lang.L("preset {{.Name}}'s relation {{.Old}} was brought to {{.New}}", map[string]any{"Name": f.Preset, "Old": f.Old, "New": f.New})
	case settings.FixActivePreset:
		return lang.L("the active preset {{.Old}} did not exist, so {{.Name}} became active", map[string]any{"Name": f.Preset, "Old": f.Old})
	}
	return f.String()
}
