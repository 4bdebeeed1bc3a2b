package settingswindow

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"yui/pet"
	"yui/pet/settings"
	"yui/transport"
	"yui/windows"
)

// TestSettingsScreenshots renders the settings window at its full size and
// writes the documentation screenshots. Run it with YUI_UPDATE_DOCS=1.
func TestSettingsScreenshots(t *testing.T) {
	if os.Getenv("YUI_UPDATE_DOCS") == "" {
		t.Skip("set YUI_UPDATE_DOCS=1 to write docs/screenshots")
	}
	b := newFakeBackend(t)
	st := b.Settings.Get()
	id := st.ActivePreset
	if err := b.Settings.UpdatePreset(id, func(p *settings.Preset) error {
		p.Name = "Yui"
		p.ChatAPI = settings.ChatAPIPush
		p.ChatBaseURL = "ws://192.168.1.40:8646/yui"
		p.Key = "sk-demo-key"
		p.Card = "Yui is a small, round, soft spirit with a leaf sprout on top. She is curious and kind, " +
			"answers in short sentences and likes to cheer the user on."
		p.ContextWindow = 128000
		p.CheckInMinutes = 45
		p.Greeting = true
		p.Relation = 64
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Settings.AddPreset("Local Ollama"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Settings.AddPreset("Research helper"); err != nil {
		t.Fatal(err)
	}
	base := time.Date(2026, 11, 30, 14, 0, 0, 0, time.Local).UnixMilli()
	min := int64(time.Minute / time.Millisecond)
	history := []transport.Delegation{
		{ID: "d-1", Title: "Sort the regression test list by failure count", StartedAt: base + 52*min, State: "running"},
		{ID: "d-2", Title: "Check log file sizes", StartedAt: base, EndedAt: base + 7*min, State: "done", Status: "ok",
			Summary: "All three logs are under 10 MB; the largest is app.log at 8.2 MB."},
		{ID: "d-3", Title: "Summarise yesterday's meeting notes", StartedAt: base + 10*min, EndedAt: base + 31*min, State: "done",
			Status: "ok", Summary: "Three decisions: ship the settings window on Friday, keep the push transport as the default, " +
				"and move the character art review to next week. Two open questions remain about voice input on Windows."},
		{ID: "d-4", Title: "Fetch the nightly build report", StartedAt: base + 40*min, EndedAt: base + 41*min, State: "done", Status: "error",
			Summary: "The build server did not answer (connection refused)."},
	}
	conn := b.Run(id)
	h := openSettings(t, b, id)
	conn.Publish(pet.View{Pill: pet.Pill{Conn: "ready", ConnState: transport.StateReady}, History: history})
	h.f().setModels(nil)
	h.f().probeText.Importance = 0
	h.ed().showProbe(windows.Probe{OK: true, Text: "connected"})
	h.sw.win.Resize(fyne.NewSize(settingsWidth, settingsHeight))

	shoot := func(tab int, name string) {
		h.sw.tabs.SelectIndex(tab)
		relayout(h.sw.win.Content())
		img := h.sw.win.Canvas().Capture()
		path := filepath.Join("..", "..", "docs", "screenshots", name)
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := png.Encode(f, img); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%v)", path, img.Bounds().Size())
	}
	shoot(0, "settings-editor.png")
	if rows := h.sw.session.rows; len(rows) > 2 {
		rows[2].Tapped(nil) // open one summary
	}
	shoot(2, "settings-session.png")
}

// relayout lays out o and everything inside it from the top down, as the
// desktop driver does each frame for objects whose minimum size changed
// (the test canvas does not).
func relayout(o fyne.CanvasObject) {
	switch v := o.(type) {
	case *fyne.Container:
		if v.Layout != nil {
			v.Layout.Layout(v.Objects, v.Size())
		}
		for _, c := range v.Objects {
			relayout(c)
		}
	case fyne.Widget:
		r := test.WidgetRenderer(v)
		r.Layout(v.Size())
		for _, c := range r.Objects() {
			relayout(c)
		}
	}
}
