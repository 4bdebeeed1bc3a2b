//go:build e2e

package xvfb

import (
	"encoding/json"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// Where the Tools tab's parts are in the settings window (its top-left
// corner is 0,0), at the window's size of 1100x720.
const (
	toolsTabX        = 928
	importX, importY = 696, 61  // Import from Claude Desktop or Cursor
	importPathY      = 338      // the found file's button in the import dialog (centred)
	dimX, dimY       = 700, 200 // a point the open dialog's shade greys
)

// dimmed checks that a dialog's shade covers x,y (white without one).
func dimmed(x, y int) func(image.Image) error {
	return func(img image.Image) error {
		if r, _, _, _ := img.At(x, y).RGBA(); r>>8 < 235 {
			return nil
		}
		return fmt.Errorf("no dialog shade at %d,%d", x, y)
	}
}

// primaryButton finds the centre of the blue (primary) button below the
// tab bar of the window at x,y: the confirm button of a dialog.
func primaryButton(img image.Image, x, y int) (image.Point, error) {
	var sum image.Point
	n := 0
	for py := y + 80; py < y+700; py++ {
		for px := x; px < x+1100; px++ {
			r, g, b, _ := img.At(px, py).RGBA()
			if r>>8 < 90 && g>>8 > 80 && g>>8 < 160 && b>>8 > 200 {
				sum, n = sum.Add(image.Pt(px, py)), n+1
			}
		}
	}
	if n < 200 {
		return image.Point{}, fmt.Errorf("no primary button (%d blue pixels)", n)
	}
	return sum.Div(n), nil
}

// TestMCPImportFromClaudeDesktop: the Tools tab's Import finds Claude
// Desktop's file under the user's home (docs/mcp.md), lists its servers
// and, once confirmed, adds them to settings.json and to the selected
// preset's mcp.
func TestMCPImportFromClaudeDesktop(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	_, base := startMCPModel(t)
	home, cfg := t.TempDir(), t.TempDir()
	claude := filepath.Join(home, ".config", "Claude", "claude_desktop_config.json")
	if err := os.MkdirAll(filepath.Dir(claude), 0o700); err != nil {
		t.Fatal(err)
	}
	desktop := `{"mcpServers": {
  "notes": {"command": "/nonexistent/notes-server", "args": ["--dir", "/srv/notes"], "env": {"NOTES_TOKEN": "imp-env-2c3d4e5f"}},
  "remote": {"url": "http://127.0.0.1:9/mcp", "headers": {"Authorization": "Bearer imp-hdr-6a7b8c9d"}}}}`
	if err := os.WriteFile(claude, []byte(desktop), 0o600); err != nil {
		t.Fatal(err)
	}
	writeMCPSettings(t, cfg, base, nil, nil)
	env := append(d.Env(), "HOME="+home)
	a := harness.WatchApp(t, d, cfg, harness.Start(t, env, filepath.Join(harness.BinDir(t), "yui"), "--config-dir", cfg))

	x, y := openSettingsFromMenu(a)
	harness.Click(t, d, x+toolsTabX, y+harness.TabY)
	a.WaitRecord(10*time.Second, "settings_tab", map[string]string{"tab": "Tools"})
	harness.Click(t, d, x+importX, y+importY)
	d.WaitShot(t, "import-dialog", 10*time.Second, dimmed(x+dimX, y+dimY))
	harness.Click(t, d, x+550, y+importPathY)
	var add image.Point
	d.WaitShot(t, "import-confirm", 10*time.Second, func(img image.Image) (err error) {
		add, err = primaryButton(img, x, y)
		return err
	})
	harness.Click(t, d, add.X, add.Y)

	var st map[string]any
	harness.WaitFor(t, 10*time.Second, "the imported servers in settings.json", func() bool {
		st = harness.ReadSettings(t, cfg)
		servers, _ := st["mcp_servers"].(map[string]any)
		return servers["notes"] != nil && servers["remote"] != nil
	})
	d.Screenshot(t, "imported")
	servers := st["mcp_servers"].(map[string]any)
	notes, _ := servers["notes"].(map[string]any)
	remote, _ := servers["remote"].(map[string]any)
	if notes["command"] != "/nonexistent/notes-server" || remote["url"] != "http://127.0.0.1:9/mcp" {
		t.Errorf("imported servers: %v", servers)
	}
	preset := st["presets"].([]any)[0].(map[string]any)
	var uses []string
	for _, n := range preset["mcp"].([]any) {
		uses = append(uses, n.(string))
	}
	if slices.Sort(uses); !slices.Equal(uses, []string{"notes", "remote"}) {
		t.Errorf("the preset's mcp = %v", uses)
	}
	// The values are in the file or in the keyring, never lost: the
	// file names each one it does not hold (docs/mcp.md).
	for name, field := range map[string]string{"notes": "env", "remote": "headers"} {
		m := servers[name].(map[string]any)
		values, _ := json.Marshal(m[field])
		refs, _ := json.Marshal(m["keyring"])
		if !strings.Contains(string(values), "imp-") && !strings.Contains(string(refs), "mcp/"+name+"/") {
			t.Errorf("%s lost its %s: %s, keyring %s", name, field, values, refs)
		}
	}
}
