package settingswindow

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/storage"

	"yui/pet/character"
	"yui/pet/settings"
)

// writeSet writes a one-pose Shimeji set to dir.
func writeSet(t *testing.T, dir string) {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for i := range img.Pix {
		img.Pix[i] = 200
	}
	img.SetNRGBA(1, 1, color.NRGBA{A: 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"img/shime1.png": buf.Bytes(),
		"conf/actions.xml": []byte(`<Mascot><ActionList><Action Name="Stand" Type="Stay"><Animation>` +
			`<Pose Image="/shime1.png" ImageAnchor="32,64" Velocity="0,0" Duration="50"/></Animation></Action></ActionList></Mascot>`),
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestGalleryImportAssignDelete(t *testing.T) {
	h := openSettings(t, nil, "")
	g := h.sw.gallery
	selectTab(h.sw.tabs, charactersTab)
	h.sw.jobs.Wait()
	if len(g.list.Objects) != 2 {
		t.Fatalf("%d packs listed, want the built-in Yui and Mint", len(g.list.Objects))
	}

	// A bad folder: the reason, nothing written.
	bad := t.TempDir()
	g.importDir(bad)
	h.sw.jobs.Wait()
	if !strings.Contains(g.status.Text, "Not imported") || !strings.Contains(h.overlayText(), "no images") {
		t.Fatalf("status %q, dialog %q", g.status.Text, h.overlayText())
	}
	if _, err := os.Stat(character.Dir(h.b.Settings.Dir(), "")); err == nil {
		t.Fatal("a refused set made the characters folder")
	}

	// A folder dropped onto the window is imported (a file is not).
	set := filepath.Join(t.TempDir(), "Kuro")
	writeSet(t, set)
	g.dropped(fyne.Position{}, []fyne.URI{storage.NewFileURI(filepath.Join(set, "img", "shime1.png")), storage.NewFileURI(set)})
	h.sw.jobs.Wait()
	if !strings.Contains(g.status.Text, "as kuro") || len(g.list.Objects) != 3 {
		t.Fatalf("status %q, %d packs", g.status.Text, len(g.list.Objects))
	}
	if !strings.Contains(h.overlayText(), "") || findButton(g.list, "Delete") == nil {
		t.Fatal("no Delete for the imported pack")
	}
	// The editor offers it too.
	if !strings.Contains(strings.Join(h.f().character.Select.Options, ","), "kuro") {
		t.Fatalf("character options %v", h.f().character.Select.Options)
	}

	// A motion plays in the preview.
	g.play("kuro", "walk")
	h.sw.jobs.Wait()
	if g.preview.Image == nil || g.playing.Text != "kuro: walk" {
		t.Fatalf("preview %v %q", g.preview.Image != nil, g.playing.Text)
	}

	// Assigned to the preset; in use it is not deleted.
	g.assign("kuro")
	if p := h.stored(); p.Character != "kuro" {
		t.Fatalf("character %q", p.Character)
	}
	g.confirmDelete(galleryPack{id: "kuro", name: "Kuro", kind: "imported"})
	if !strings.Contains(h.overlayText(), "give those presets another character") {
		t.Fatalf("dialog %q", h.overlayText())
	}
	g.assign(character.DefaultID)

	// A new preset gets the pack no other preset uses.
	test := h.b.Settings
	if err := test.UpdatePreset(h.sw.selected, func(p *settings.Preset) error { p.Character = character.DefaultID; return nil }); err != nil {
		t.Fatal(err)
	}
	h.sw.list.addPreset()
	st := test.Get()
	if got := st.Presets[len(st.Presets)-1].Character; got != "mint" {
		t.Fatalf("the new preset shows %q, want the unused Mint", got)
	}
	if err := test.DeletePreset(st.Presets[len(st.Presets)-1].ID); err != nil {
		t.Fatal(err)
	}

	g.confirmDelete(galleryPack{id: "kuro", name: "Kuro", kind: "imported"})
	tapOverlay(t, h, "Yes")
	h.sw.jobs.Wait()
	if _, err := os.Stat(character.Dir(h.b.Settings.Dir(), "kuro")); !os.IsNotExist(err) {
		t.Fatalf("the pack is still there: %v", err)
	}
	if len(g.list.Objects) != 2 {
		t.Fatalf("%d packs after delete", len(g.list.Objects))
	}
}

func tapOverlay(t *testing.T, h *settingsHarness, text string) {
	t.Helper()
	b := h.overlayButton(text)
	if b == nil {
		t.Fatalf("no %q button in %q", text, h.overlayText())
	}
	b.OnTapped()
}

// TestGalleryScreenshot writes the Characters tab, with the real sets of
// YUI_SHIMEJI_FIXTURES imported, to YUI_GALLERY_SHOT, to look at.
func TestGalleryScreenshot(t *testing.T) {
	out, sets := os.Getenv("YUI_GALLERY_SHOT"), os.Getenv("YUI_SHIMEJI_FIXTURES")
	if out == "" || sets == "" {
		t.Skip("set YUI_GALLERY_SHOT and YUI_SHIMEJI_FIXTURES")
	}
	h := openSettings(t, nil, "")
	g := h.sw.gallery
	h.sw.win.Resize(fyne.NewSize(settingsWidth, settingsHeight))
	selectTab(h.sw.tabs, charactersTab)
	for _, s := range []string{"ee", "original"} {
		g.importDir(filepath.Join(sets, s))
		h.sw.jobs.Wait()
	}
	g.play("shimeji", "sit_edge")
	h.sw.jobs.Wait()
	relayout(h.sw.win.Content())
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, h.sw.win.Canvas().Capture()); err != nil {
		t.Fatal(err)
	}
}

// selectTab selects the tab titled text.
func selectTab(tabs *container.AppTabs, text string) {
	for _, it := range tabs.Items {
		if it.Text == text {
			tabs.Select(it)
			return
		}
	}
}
