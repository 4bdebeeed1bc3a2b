package settingswindow

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"yui/pet/settings"
	"yui/windows/internal/fakeapp"
	"yui/windows/widgets"
)

// settingsHarness is an open settings window over a fake backend.
type settingsHarness struct {
	t   *testing.T
	b   *fakeBackend
	sw  *SettingsWindow
	log *bytes.Buffer
}

func openSettings(t *testing.T, b *fakeBackend, presetID string) *settingsHarness {
	t.Helper()
	a := test.NewTempApp(t)
	a.Settings().SetTheme(widgets.Theme())
	if b == nil {
		b = newFakeBackend(t)
	}
	h := &settingsHarness{t: t, b: b, log: &bytes.Buffer{}}
	h.sw = NewSettingsWindow(a, appOf(b, nil), slog.New(slog.NewJSONHandler(h.log, nil)))
	h.sw.Show(presetID)
	t.Cleanup(func() {
		// The jobs first: a job's result reads the window, which Close
		// clears (the test driver runs fyne.Do on the job's goroutine).
		h.sw.jobs.Wait()
		h.sw.Close()
		h.sw.jobs.Wait()
	})
	return h
}

// newFakeBackendWithFile is newFakeBackend over a settings file the test
// wrote by hand.
func newFakeBackendWithFile(t *testing.T, file string) *fakeBackend {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, settings.FileName), []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	st, _, err := settings.Open(dir, settings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return fakeapp.NewBackendOn(st)
}

func (h *settingsHarness) ed() *presetEditor { return h.sw.ed }
func (h *settingsHarness) f() *presetFields  { return &h.sw.ed.f }

// stored is the selected preset as the store holds it.
func (h *settingsHarness) stored() settings.Preset {
	h.t.Helper()
	p, ok := h.b.Settings.Preset(h.sw.selected)
	if !ok {
		h.t.Fatalf("preset %s not in the store", h.sw.selected)
	}
	return p
}

// retype replaces an entry's text as a user would: select all, type.
func retype(e interface {
	fyne.Focusable
	SetText(string)
}, text string) {
	e.SetText("")
	test.Type(e, text)
}

// pickLabel picks an option of a choice by its label, as a user would.
func pickLabel(c *choice, label string) { c.Select.SetSelected(label) }

// overlayButton finds a button by its text in the window's top overlay (a
// dialog) and fails when there is none.
func (h *settingsHarness) overlayButton(text string) *widget.Button {
	h.t.Helper()
	top := h.sw.win.Canvas().Overlays().Top()
	if top == nil {
		h.t.Fatalf("no dialog open, looking for %q", text)
	}
	if b := findButton(top, text); b != nil {
		return b
	}
	h.t.Fatalf("no button %q in the dialog", text)
	return nil
}

// overlayText reports whether a label or text in the top overlay holds s.
func (h *settingsHarness) overlayText() string {
	top := h.sw.win.Canvas().Overlays().Top()
	if top == nil {
		return ""
	}
	var out bytes.Buffer
	walk(top, func(o fyne.CanvasObject) {
		switch v := o.(type) {
		case *widget.Label:
			out.WriteString(v.Text + "\n")
		case *widget.RichText:
			out.WriteString(v.String() + "\n")
		}
	})
	return out.String()
}

func findButton(root fyne.CanvasObject, text string) *widget.Button {
	var found *widget.Button
	walk(root, func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && found == nil && b.Text == text {
			found = b
		}
	})
	return found
}

// walk visits o and everything inside it.
func walk(o fyne.CanvasObject, fn func(fyne.CanvasObject)) {
	fn(o)
	switch v := o.(type) {
	case *fyne.Container:
		for _, c := range v.Objects {
			walk(c, fn)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(v).Objects() {
			walk(c, fn)
		}
	}
}
