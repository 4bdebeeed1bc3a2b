//go:build e2e

package xvfb

import (
	"encoding/json"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// Where the parts used here are in the settings window (its top-left
// corner is 0,0), at the window's size of 1100x720.
const (
	memoryTabX, connTabX, settingsTabY    = 720, 384, 21
	memoryAddX, memoryForgetX, memoryBarY = 675, 1009, 182
	factAddX, factAddY                    = 595, 461      // the Add button of the fact dialog
	resetX, resetY                        = 580, 144      // Reset conversation on the Connection tab
	confirmX, confirmY                    = 600, 454      // Reset in the reset dialog
	forgetCancelX, forgetOKX, forgetY     = 465, 635, 416 // the Forget everything dialog
)

// redAt checks that a screenshot is red at x,y: a dialog's danger button
// is there.
func redAt(x, y int) func(image.Image) error {
	return func(img image.Image) error {
		r, g, b, _ := img.At(x, y).RGBA()
		if r>>8 > 200 && g>>8 < 120 && b>>8 < 120 {
			return nil
		}
		return fmt.Errorf("no danger button at %d,%d: colour %d,%d,%d", x, y, r>>8, g>>8, b>>8)
	}
}

// openSettingsFromMenu opens (or raises) the settings window from the
// pet's menu (its third item) and returns its top-left corner.
func openSettingsFromMenu(a *harness.App) (x, y int) {
	a.T.Helper()
	c := harness.CharacterCentre(a.PetRect())
	before := a.Count("window_open", map[string]string{"window": "settings"})
	opened := func() bool { return a.Count("window_open", map[string]string{"window": "settings"}) > before }
	for try := 0; !opened(); try++ {
		if try == 5 {
			a.T.Fatal("the Settings item of the pet's menu never opened the settings window")
		}
		// Off the centre, where the pointer already is after the composer's
		// double click: a move to where it is waits out xdotool's --sync.
		harness.Click(a.T, a.D, c.X+4, c.Y+4, "3")
		harness.Click(a.T, a.D, c.X+34, c.Y+85) // the menu's third item: Settings
		harness.WaitForOr(3*time.Second, opened)
	}
	return settingsWindow(a.T, a.D)
}

// hideSettings takes the settings window off the screen so the pet can
// be talked to again.
func hideSettings(a *harness.App) {
	_ = a.D.Command("xdotool", "search", "--name", "^Yui settings$", "windowunmap", "--sync").Run()
}

// The Memory page's edits reach the next request; Reset conversation
// keeps the facts; Forget everything (confirmed) clears them.
func TestMemoryPageEditsResetAndForgetEverything(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	srv, base := startMemoryServer(t)
	cfg := t.TempDir()
	writeMemoryPreset(t, cfg, base, 0)
	data, _ := json.Marshal(map[string]any{"version": 1, "next_id": 2, "facts": []any{map[string]any{
		"id": 1, "text": "Likes green tea", "about": "user", "created": "2026-11-20T09:30:00Z"}}})
	os.MkdirAll(filepath.Join(cfg, "memory"), 0o700)
	if err := os.WriteFile(filepath.Join(cfg, "memory", "p-memo0001.facts.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	a := harness.StartYuiIn(t, d, cfg, "")
	a.OpenComposer()
	tell(a, "hi")
	if sys := srv.Last(t).System; !strings.Contains(sys, "Likes green tea") {
		t.Fatalf("the fact written before the start is not in the prompt: %q", sys)
	}

	// Add a fact by hand on the Memory page.
	x, y := openSettingsFromMenu(a)
	harness.Click(t, d, x+memoryTabX, y+settingsTabY)
	harness.Click(t, d, x+memoryAddX, y+memoryBarY)
	a.WaitRecord(10*time.Second, "memory_dialog", map[string]string{"dialog": "Add a fact"})
	d.Run(t, "xdotool", "type", "--delay", "8", "Birthday is 3 March")
	harness.Click(t, d, x+factAddX, y+factAddY)
	a.WaitRecord(10*time.Second, "memory_page_edit", map[string]string{"op": "add"})
	d.Screenshot(t, "memory-page-added")
	hideSettings(a)
	a.OpenComposer()
	tell(a, "hello")
	if sys := srv.Last(t).System; !strings.Contains(sys, "Birthday is 3 March") || !strings.Contains(sys, "Likes green tea") {
		t.Fatalf("the page's edit did not reach the next request: %q", sys)
	}

	// Reset conversation keeps the facts.
	x, y = openSettingsFromMenu(a)
	harness.Click(t, d, x+connTabX, y+settingsTabY)
	harness.Click(t, d, x+resetX, y+resetY)
	d.WaitShot(t, "reset-confirm", 10*time.Second, redAt(x+confirmX, y+confirmY-13))
	harness.Click(t, d, x+confirmX, y+confirmY)
	a.WaitRecord(10*time.Second, "reset_requested", nil)
	hideSettings(a)
	a.OpenComposer()
	tell(a, "after the reset")
	last := srv.Last(t)
	if !strings.Contains(last.System, "Birthday is 3 March") || strings.Contains(last.Raw, "hello") {
		t.Fatalf("after the reset: %s", last.Raw)
	}

	// Forget everything asks first, then clears.
	x, y = openSettingsFromMenu(a)
	harness.Click(t, d, x+memoryTabX, y+settingsTabY)
	harness.Click(t, d, x+memoryForgetX, y+memoryBarY)
	a.WaitRecord(10*time.Second, "memory_dialog", map[string]string{"dialog": "Forget everything"})
	d.WaitShot(t, "forget-everything-confirm", 10*time.Second, redAt(x+forgetOKX, y+forgetY-13))
	harness.Click(t, d, x+forgetCancelX, y+forgetY)
	harness.Click(t, d, x+memoryForgetX, y+memoryBarY)
	harness.WaitFor(t, 10*time.Second, "the dialog again", func() bool { return a.Count("memory_dialog", map[string]string{"dialog": "Forget everything"}) == 2 })
	d.WaitShot(t, "forget-everything-confirm-2", 10*time.Second, redAt(x+forgetOKX, y+forgetY-13))
	harness.Click(t, d, x+forgetOKX, y+forgetY)
	a.WaitRecord(10*time.Second, "memory_cleared", map[string]string{"facts": "2"})
	if n := a.Count("memory_cleared", nil); n != 1 {
		t.Fatalf("%d memory_cleared records: Cancel cleared too", n)
	}
	d.Screenshot(t, "memory-page-cleared")
	hideSettings(a)
	a.OpenComposer()
	tell(a, "anything left?")
	if sys := srv.Last(t).System; strings.Contains(sys, "What you remember") || strings.Contains(sys, "green tea") {
		t.Fatalf("facts after Forget everything: %q", sys)
	}
}
