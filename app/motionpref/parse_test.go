package motionpref

import "testing"

func TestParseGSettingsBool(t *testing.T) {
	for in, want := range map[string]string{"false\n": "false", "true\n": "true", "": "", "No such schema\n": ""} {
		if got := parseGSettingsBool(in); got != want {
			t.Errorf("parseGSettingsBool(%q) = %q, want %q", in, got, want)
		}
	}
}
