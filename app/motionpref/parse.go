package motionpref

import "strings"

// parseGSettingsBool is gsettings' answer for a boolean key: "true",
// "false", or "" for anything else.
func parseGSettingsBool(out string) string {
	switch s := strings.TrimSpace(out); s {
	case "true", "false":
		return s
	}
	return ""
}
