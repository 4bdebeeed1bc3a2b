//go:build e2e

package harness

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Preset is the part of a settings preset the tests write.
type Preset struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Enabled     bool   `json:"enabled"`
	ChatAPI     string `json:"chat_api"`
	ChatBaseURL string `json:"chat_base_url"`
	Key         string `json:"key"`
	Model       string `json:"model,omitempty"`
	ChatID      string `json:"chat_id"`
	Character   string `json:"character"`
	// Positions is the pet's saved position per monitor layout (a
	// version-1 file's field, which the app moves to the state file).
	Positions map[string]any `json:"positions,omitempty"`
	// Life is the preset's life object (docs/product.md §11); nil keeps
	// the defaults. QuietLife turns off the turns Yui starts on her own.
	Life map[string]any `json:"life,omitempty"`
}

// QuietLife is a life object with no turn of her own: for a test whose
// scenario answers the user's first turn, which the first activity of the
// day would otherwise take.
func QuietLife() map[string]any {
	return map[string]any{"talk": "off", "quiet_hours": "", "first_activity": false, "back_from_away_minutes": 0,
		"watch_apps": []string{}, "screen_watch_minutes": 0, "private_titles": []string{}, "schedules": []any{}}
}

// WriteSettings writes a settings file with these presets, the first active.
func WriteSettings(t testing.TB, dir string, presets ...Preset) {
	t.Helper()
	for i := range presets {
		if presets[i].Character == "" {
			presets[i].Character = "yui"
		}
	}
	st := map[string]any{"version": 1, "active_preset": presets[0].ID, "presets": presets}
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// ReadState reads the state file of preset id (what the app learned
// about it: positions, relation, delegation history) as the app saved it.
func ReadState(t testing.TB, dir, id string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "state", id+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// ReadSettings reads the settings file as the app saved it.
func ReadSettings(t testing.TB, dir string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	return st
}

func PushPreset(id, name string, s *Sim, key string) Preset {
	return Preset{ID: id, Name: name, Enabled: true, ChatAPI: "push", ChatBaseURL: s.Url, Key: key, ChatID: "yui-" + fmt.Sprintf("%08x", len(id)*7919+int(name[0]))}
}

// Click moves the pointer to a point of the screen, waiting until it is
// there, and clicks (button 1 unless another is named), as a person would.
func Click(t testing.TB, d *Display, x, y int, button ...string) {
	t.Helper()
	b := "1"
	if len(button) > 0 {
		b = button[0]
	}
	d.MoveTo(t, x, y)
	d.Run(t, "xdotool", "click", b)
}

// MoveTo moves the pointer to x, y and waits until it is there. xdotool's
// mousemove --sync waits for the pointer to move, which it never does when
// it is already there (a second click at one place): the move is then
// left out.
func (d *Display) MoveTo(t testing.TB, x, y int) {
	t.Helper()
	out, err := d.Command("xdotool", "getmouselocation", "--shell").Output()
	if err == nil && strings.Contains(string(out), fmt.Sprintf("X=%d\n", x)) && strings.Contains(string(out), fmt.Sprintf("Y=%d\n", y)) {
		return
	}
	d.Run(t, "xdotool", "mousemove", "--sync", fmt.Sprint(x), fmt.Sprint(y))
}

// Where the App tab and the start-at-login switch are in the settings window.
const (
	AppTabX, TabY      = 656, 21
	StartupX, StartupY = 396, 452
	// LineHeight is one line of a help note in the settings window.
	LineHeight = 22
)
