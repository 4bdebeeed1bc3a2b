package i18n

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"yui/assets"
	"yui/pet/settings"
)

// Messages returns the texts of l's translation file by key; a plural
// message's forms come as key#one, key#other and so on.
func Messages(l settings.Language) (map[string]string, error) {
	data, err := assets.Lang.ReadFile("lang/" + string(l) + ".json")
	if err != nil {
		return nil, fmt.Errorf("translations: %w", err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("translations %s: %w", l, err)
	}
	out := make(map[string]string, len(raw))
	for key, v := range raw {
		var s string
		if json.Unmarshal(v, &s) == nil {
			out[key] = s
			continue
		}
		var forms map[string]string
		if err := json.Unmarshal(v, &forms); err != nil {
			return nil, fmt.Errorf("translations %s: key %q: %w", l, key, err)
		}
		for form, s := range forms {
			out[key+"#"+form] = s
		}
	}
	return out, nil
}

// Keys returns the keys of l's translation file, plural forms apart.
func Keys(l settings.Language) ([]string, error) {
	m, err := Messages(l)
	if err != nil {
		return nil, err
	}
	keys := map[string]bool{}
	for k := range m {
		base := k
		for i := range len(k) {
			if k[i] == '#' {
				base = k[:i]
			}
		}
		keys[base] = true
	}
	return slices.Sorted(maps.Keys(keys)), nil
}
