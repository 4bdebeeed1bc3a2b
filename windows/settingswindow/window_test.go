package settingswindow

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"yui/pet/settings"
)

func TestSettingsOpensOnActivePresetAndLogs(t *testing.T) {
	h := openSettings(t, nil, "")
	st := h.b.Settings.Get()
	if h.sw.selected != st.ActivePreset {
		t.Fatalf("selected %s, active %s", h.sw.selected, st.ActivePreset)
	}
	if h.f().name.Text != "Yui" {
		t.Fatalf("editor shows %q", h.f().name.Text)
	}
	if !strings.Contains(h.log.String(), `"msg":"window_open","window":"settings","preset":"`+st.ActivePreset+`"`) {
		t.Fatalf("log = %s", h.log.String())
	}
	size := h.sw.win.Canvas().Size()
	if size.Width > settingsWidth || size.Height > settingsHeight {
		t.Fatalf("window %v is larger than %dx%d", size, settingsWidth, settingsHeight)
	}
	if min := h.sw.win.Content().MinSize(); min.Width > settingsWidth || min.Height > settingsHeight {
		t.Fatalf("content needs %v, more than the window", min)
	}

	// Show again raises it on the preset asked for; Close and Show reopen.
	p, err := h.b.Settings.AddPreset("Second")
	if err != nil {
		t.Fatal(err)
	}
	h.sw.Show(p.ID)
	if h.sw.selected != p.ID || h.f().name.Text != "Second" {
		t.Fatalf("selected %s showing %q", h.sw.selected, h.f().name.Text)
	}
	h.sw.Close()
	if h.sw.win != nil {
		t.Fatal("window kept after Close")
	}
	// A change while closed reaches nobody, and reopening shows it.
	if err := h.b.Settings.UpdatePreset(p.ID, func(q *settings.Preset) error { q.Name = "Later"; return nil }); err != nil {
		t.Fatal(err)
	}
	h.sw.Show(p.ID)
	if h.f().name.Text != "Later" {
		t.Fatalf("reopened on %q", h.f().name.Text)
	}
}

func TestSettingsAddDuplicateDelete(t *testing.T) {
	h := openSettings(t, nil, "")
	l := h.sw.list
	first := h.sw.selected

	test.Tap(l.add)
	st := h.b.Settings.Get()
	if len(st.Presets) != 2 || h.sw.selected != st.Presets[1].ID || h.f().name.Text != "Preset 2" {
		t.Fatalf("after Add: %d presets, selected %s, editor %q", len(st.Presets), h.sw.selected, h.f().name.Text)
	}

	h.sw.selectPreset(first)
	test.Tap(l.dup)
	st = h.b.Settings.Get()
	dup := st.Presets[2]
	if len(st.Presets) != 3 || dup.Name != "Yui copy" || h.sw.selected != dup.ID {
		t.Fatalf("after Duplicate: %+v selected %s", st.Presets, h.sw.selected)
	}
	if dup.ChatID == st.Presets[0].ChatID || h.f().chatID.Text != dup.ChatID {
		t.Fatalf("duplicate chat_id %s (original %s), shown %s", dup.ChatID, st.Presets[0].ChatID, h.f().chatID.Text)
	}

	// Delete asks first; keeping it changes nothing.
	test.Tap(l.del)
	if !strings.Contains(h.overlayText(), `Delete "Yui copy"?`) {
		t.Fatalf("dialog says %q", h.overlayText())
	}
	test.Tap(h.overlayButton("Keep it"))
	if n := len(h.b.Settings.Get().Presets); n != 3 {
		t.Fatalf("%d presets after Keep it", n)
	}
	test.Tap(l.del)
	test.Tap(h.overlayButton("Delete"))
	st = h.b.Settings.Get()
	if len(st.Presets) != 2 {
		t.Fatalf("%d presets after Delete", len(st.Presets))
	}
	if _, ok := st.Preset(dup.ID); ok {
		t.Fatal("the deleted preset is still stored")
	}
	if h.sw.selected != st.ActivePreset {
		t.Fatalf("selected %s after delete, want the active %s", h.sw.selected, st.ActivePreset)
	}

	// The last preset stays, and the user is told why.
	test.Tap(l.del)
	test.Tap(h.overlayButton("Delete"))
	if n := len(h.b.Settings.Get().Presets); n != 1 {
		t.Fatalf("%d presets", n)
	}
	test.Tap(l.del)
	if !strings.Contains(h.overlayText(), "only preset") {
		t.Fatalf("no reason shown: %q", h.overlayText())
	}
	if h.overlayButton("OK") == nil || len(h.b.Settings.Get().Presets) != 1 {
		t.Fatal("the last preset went")
	}
}

func TestSettingsEnableAndMakeActive(t *testing.T) {
	h := openSettings(t, nil, "")
	l := h.sw.list
	first := h.sw.selected
	p, err := h.b.Settings.AddPreset("Second")
	if err != nil {
		t.Fatal(err)
	}
	h.sw.selectPreset(p.ID)
	if l.activate.Disabled() == false && l.activate.Text != "Make active" {
		t.Fatalf("activate button %q", l.activate.Text)
	}
	test.Tap(l.activate)
	if got := h.b.Settings.Get().ActivePreset; got != p.ID {
		t.Fatalf("active %s, want %s", got, p.ID)
	}
	if !l.activate.Disabled() || !strings.HasPrefix(l.detail(l.presets[1]), "active") {
		t.Fatalf("list not refreshed: %q", l.detail(l.presets[1]))
	}

	test.Tap(l.on)
	if q, _ := h.b.Settings.Preset(p.ID); q.Enabled {
		t.Fatal("Disable did not save")
	}
	if l.on.Text != "Enable" || !strings.Contains(l.detail(l.presets[1]), "off") || h.f().enabled.Checked {
		t.Fatalf("button %q, detail %q, editor enabled %v", l.on.Text, l.detail(l.presets[1]), h.f().enabled.Checked)
	}
	test.Tap(l.on)
	if q, _ := h.b.Settings.Preset(p.ID); !q.Enabled {
		t.Fatal("Enable did not save")
	}
	if q, _ := h.b.Settings.Preset(first); !q.Enabled {
		t.Fatal("the other preset changed")
	}
}

func TestSettingsUnsavedEditsAskBeforeSwitching(t *testing.T) {
	h := openSettings(t, nil, "")
	first := h.sw.selected
	p, err := h.b.Settings.AddPreset("Second")
	if err != nil {
		t.Fatal(err)
	}
	retype(h.f().name, "Edited")
	h.sw.selectPreset(p.ID)
	test.Tap(h.overlayButton("Keep editing"))
	if h.sw.selected != first || h.f().name.Text != "Edited" {
		t.Fatalf("selected %s name %q", h.sw.selected, h.f().name.Text)
	}
	h.sw.selectPreset(p.ID)
	test.Tap(h.overlayButton("Leave them"))
	if h.sw.selected != p.ID || h.f().name.Text != "Second" {
		t.Fatalf("selected %s name %q", h.sw.selected, h.f().name.Text)
	}
}

func TestSettingsShowsRefusedPresets(t *testing.T) {
	b := newFakeBackendWithFile(t, `{"version": 1, "active_preset": "p-00000001", "presets": [
	 {"id": "p-00000001", "name": "Good", "chat_id": "yui-00000001"},
	 {"id": "p-00000002", "name": "Broken", "chat_id": "yui-00000002", "chat_api": "smtp"}]}`)
	h := openSettings(t, b, "")
	if len(h.sw.list.presets) != 1 {
		t.Fatalf("list holds %d presets", len(h.sw.list.presets))
	}
	if !h.sw.list.refusedBox.Visible() || !strings.Contains(h.sw.list.refused.Text, `Preset “Broken”: chat_api: must be one of`) {
		t.Fatalf("refused shown %v: %q", h.sw.list.refusedBox.Visible(), h.sw.list.refused.Text)
	}
}

func TestSettingsGlobalSection(t *testing.T) {
	h := openSettings(t, nil, "")
	g := h.sw.global
	if g.screenLook.Select.Selected != "Ask" {
		t.Fatalf("screen look shows %q", g.screenLook.Select.Selected)
	}
	pickLabel(g.screenLook, "Allowed")
	test.Tap(g.browser)
	pickLabel(g.logLevel, "Debug")
	st := h.b.Settings.Get()
	if st.ScreenLook != settings.ScreenLookAllowed || !st.BrowserTool || st.LogLevel != "debug" {
		t.Fatalf("stored %q %v %q", st.ScreenLook, st.BrowserTool, st.LogLevel)
	}
	// Public web only until the user ticks the local-network switch.
	if g.browserLocal.Checked || st.BrowserLocal {
		t.Fatal("the browser may open local pages by default")
	}
	test.Tap(g.browserLocal)
	if !h.b.Settings.Get().BrowserLocal {
		t.Fatal("the local-network switch did not save")
	}
	// Changed elsewhere (the pet's permission prompt): shown.
	if err := h.b.Settings.Update(func(s *settings.Settings) error { s.ScreenLook = settings.ScreenLookRefused; return nil }); err != nil {
		t.Fatal(err)
	}
	if g.screenLook.Select.Selected != "Refused" {
		t.Fatalf("screen look shows %q", g.screenLook.Select.Selected)
	}
	if g.logDir.Text != h.b.LogDir() {
		t.Fatalf("log dir %q", g.logDir.Text)
	}
	if g.keys.Text != h.b.Settings.KeysNote() || !strings.Contains(g.keys.Text, "settings.json") {
		t.Fatalf("keys note %q", g.keys.Text)
	}
	test.Tap(g.openLogs)
	if h.b.Opened != 1 {
		t.Fatalf("opened %d", h.b.Opened)
	}
	test.Tap(g.showPets)
	if h.b.Shown != 1 {
		t.Fatalf("Show every pet reached the app %d times", h.b.Shown)
	}
}

func TestSettingsCloseAsksAboutUnsavedEdits(t *testing.T) {
	h := openSettings(t, nil, "")
	h.sw.closeRequested()
	if h.sw.win != nil {
		t.Fatal("a window with nothing unsaved did not close")
	}
	h.sw.Show("")
	retype(h.f().name, "Edited")
	h.sw.closeRequested()
	test.Tap(h.overlayButton("Keep editing"))
	if h.sw.win == nil || h.f().name.Text != "Edited" {
		t.Fatal("Keep editing closed the window")
	}
	h.sw.closeRequested()
	test.Tap(h.overlayButton("Close without saving"))
	if h.sw.win != nil {
		t.Fatal("the window stayed open")
	}
	if st := h.b.Settings.Get(); st.Presets[0].Name != "Yui" {
		t.Fatalf("stored name %q", st.Presets[0].Name)
	}
}
