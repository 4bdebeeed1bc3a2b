package settingswindow

import (
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"yui/pet/character"
	"yui/pet/character/vrm/vrmtest"
)

// The Characters tab imports a VRM model: a bad file is refused with the
// reason and nothing written; Cancel leaves nothing; a model imports,
// shows in the gallery with its meta, and the editor offers it.
func TestGalleryImportVRM(t *testing.T) {
	h := openSettings(t, nil, "")
	g := h.sw.gallery
	// Each import runs when the test says, on the test's goroutine: the
	// test driver's fyne.Do would otherwise change widgets under it.
	var pending []func()
	g.vrm = vrmSeams{spawn: func(f func()) { pending = append(pending, f) }, size: image.Pt(48, 64)}
	runPending := func() {
		for len(pending) > 0 {
			f := pending[0]
			pending = pending[1:]
			f()
		}
		h.sw.jobs.Wait()
	}
	selectTab(h.sw.tabs, charactersTab)
	h.sw.jobs.Wait()
	chars := filepath.Join(h.b.Settings.Dir(), "characters")

	src := t.TempDir()
	bad := filepath.Join(src, "picture.vrm")
	if err := os.WriteFile(bad, []byte("\x89PNG\r\n\x1a\nnot a model"), 0o600); err != nil {
		t.Fatal(err)
	}
	g.importModel(bad)
	runPending()
	if !strings.Contains(g.status.Text, "Not imported") || !strings.Contains(h.overlayText(), "vrm:") {
		t.Fatalf("status %q, dialog %q", g.status.Text, h.overlayText())
	}
	if _, err := os.Stat(chars); err == nil {
		t.Fatal("a refused model made the characters folder")
	}

	model := filepath.Join(src, "avatar.vrm")
	if err := os.WriteFile(model, vrmtest.Avatar(vrmtest.Options{Triangles: 1500, TextureSize: 64}), 0o600); err != nil {
		t.Fatal(err)
	}
	g.importModel(model)
	tapOverlay(t, h, "Cancel")
	runPending()
	if !strings.Contains(g.status.Text, "cancelled") {
		t.Fatalf("after Cancel: status %q", g.status.Text)
	}
	if ents, _ := os.ReadDir(chars); len(ents) != 0 {
		t.Fatalf("Cancel left %v", ents)
	}

	// A model dropped onto the window imports.
	g.dropped(fyne.Position{}, []fyne.URI{storage.NewFileURI(model)})
	runPending()
	if !strings.Contains(g.status.Text, "as test-avatar") || len(g.list.Objects) != 3 {
		t.Fatalf("status %q, %d packs", g.status.Text, len(g.list.Objects))
	}
	if _, err := character.LoadDir(filepath.Join(chars, "test-avatar")); err != nil {
		t.Fatal(err)
	}
	var texts []string
	walk(g.list, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok {
			texts = append(texts, l.Text)
		}
	})
	if all := strings.Join(texts, "\n"); !strings.Contains(all, "licence: ") || !strings.Contains(all, "by Yui tests") {
		t.Errorf("the card shows no meta: %q", all)
	}
	gp := readGalleryPack(h.b.Settings.Dir(), "test-avatar")
	if gp.meta == nil || gp.meta.thumb == nil || gp.meta.meta.License == "" {
		t.Fatalf("gallery meta %+v", gp.meta)
	}
	if !strings.Contains(strings.Join(h.f().character.Select.Options, ","), "test-avatar") {
		t.Fatalf("character options %v", h.f().character.Select.Options)
	}
}

// TestGalleryVRMScreenshot writes the Characters tab with the generated
// avatar imported (its card with the model's meta, its talk playing in
// the preview) to YUI_GALLERY_VRM_SHOT, to look at.
func TestGalleryVRMScreenshot(t *testing.T) {
	out := os.Getenv("YUI_GALLERY_VRM_SHOT")
	if out == "" {
		t.Skip("set YUI_GALLERY_VRM_SHOT")
	}
	h := openSettings(t, nil, "")
	g := h.sw.gallery
	var pending []func()
	g.vrm = vrmSeams{spawn: func(f func()) { pending = append(pending, f) }}
	h.sw.win.Resize(fyne.NewSize(settingsWidth, settingsHeight))
	selectTab(h.sw.tabs, charactersTab)
	h.sw.jobs.Wait()
	model := filepath.Join(t.TempDir(), "avatar.vrm")
	if err := os.WriteFile(model, vrmtest.Avatar(vrmtest.Options{}), 0o600); err != nil {
		t.Fatal(err)
	}
	g.importModel(model)
	for _, f := range pending {
		f()
	}
	h.sw.jobs.Wait()
	g.play("test-avatar", "walk")
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
