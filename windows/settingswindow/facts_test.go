package settingswindow

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"yui/tools/facts"
)

// memoryTab selects the Memory tab.
func (h *settingsHarness) memoryTab() *factsSection {
	for i, it := range h.sw.tabs.Items {
		if it.Text == "Memory" {
			h.sw.tabs.SelectIndex(i)
		}
	}
	return h.sw.memory
}

// waitFacts checks the page lists n facts once the edits under way are
// written (off the UI thread; the test driver runs fyne.Do at once).
func (h *settingsHarness) waitFacts(n int) {
	h.t.Helper()
	h.sw.jobs.Wait()
	if got := len(h.sw.memory.all); got != n {
		h.t.Fatalf("the page lists %d facts, want %d", got, n)
	}
}

func TestMemoryPageListsEditsAndForgets(t *testing.T) {
	b := newFakeBackend(t)
	id := b.Settings.Get().ActivePreset
	st := b.Facts(id)
	for _, f := range []string{"Has a cat named Miso", "Studies chemistry", "Exam on Friday"} {
		if _, _, err := st.Remember(f, facts.AboutUser); err != nil {
			t.Fatal(err)
		}
	}
	h := openSettings(t, b, id)
	m := h.memoryTab()
	h.waitFacts(3)
	if m.list.Length() != 3 {
		t.Fatalf("list length %d", m.list.Length())
	}
	// The model remembers something while the page is open: it shows.
	st.Remember("Likes green tea", facts.AboutUser)
	h.waitFacts(4)

	test.Type(m.search, "tea")
	if len(m.shown) != 1 || m.shown[0].Text != "Likes green tea" {
		t.Fatalf("search shows %+v", m.shown)
	}
	m.search.SetText("")

	// Edit through the dialog: the store has it at once.
	var miso facts.Fact
	for _, f := range m.all {
		if f.Text == "Has a cat named Miso" {
			miso = f
		}
	}
	m.edit(miso)
	form := h.sw.win.Canvas().Overlays().Top()
	var entry *widget.Entry
	walk(form, func(o fyne.CanvasObject) {
		if e, ok := o.(*widget.Entry); ok && e.MultiLine {
			entry = e
		}
	})
	entry.SetText("Has two cats, Miso and Tofu")
	test.Tap(h.overlayButton("Save"))
	h.waitFacts(4)
	if l := st.List(); !containsFact(l, "Has two cats, Miso and Tofu") || containsFact(l, "Has a cat named Miso") {
		t.Fatalf("after the edit: %+v", l)
	}
	// Add by hand.
	m.edit(facts.Fact{})
	form = h.sw.win.Canvas().Overlays().Top()
	walk(form, func(o fyne.CanvasObject) {
		if e, ok := o.(*widget.Entry); ok && e.MultiLine {
			entry = e
		}
	})
	entry.SetText("Birthday is 3 March")
	test.Tap(h.overlayButton("Add"))
	h.waitFacts(5)
	if os.Getenv("YUI_UPDATE_DOCS") != "" {
		h.sw.win.Resize(fyne.NewSize(settingsWidth, settingsHeight))
		relayout(h.sw.win.Content())
		writeShot(t, h, "settings-memory.png")
	}

	// Delete one.
	m.remove(m.all[len(m.all)-1])
	h.waitFacts(4)

	// Forget everything asks first; Cancel keeps them.
	test.Tap(m.forget)
	test.Tap(h.overlayButton("Cancel"))
	h.waitFacts(4)
	test.Tap(m.forget)
	test.Tap(h.overlayButton("Forget everything"))
	h.waitFacts(0)
	if st.Len() != 0 || !m.forget.Disabled() {
		t.Fatalf("after forget everything: %d facts, button disabled %v", st.Len(), m.forget.Disabled())
	}
}

func containsFact(l []facts.Fact, text string) bool {
	for _, f := range l {
		if f.Text == text {
			return true
		}
	}
	return false
}

func writeShot(t *testing.T, h *settingsHarness, name string) {
	img := h.sw.win.Canvas().Capture()
	f, err := os.Create(filepath.Join("..", "..", "docs", "screenshots", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}
