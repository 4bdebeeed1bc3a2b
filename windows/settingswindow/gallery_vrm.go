package settingswindow

import (
	"context"
	"errors"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"yui/pet/character"
	"yui/pet/character/vrm"
	"yui/pet/character/vrmpack"
	"yui/windows/i18n"
)

// The Characters tab's VRM import (docs/product.md §14): a file dialog,
// then the import off the UI thread with a progress dialog of its stages
// and a Cancel that leaves nothing behind (vrmpack writes into a hidden
// folder it removes); a model only its author may use asks first. The
// gallery shows a model's meta under its card.

// chooseModel opens the file picker for a .vrm model to import.
func (g *gallery) chooseModel() {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		switch {
		case err != nil:
			g.w.showError(err)
		case r != nil:
			path := r.URI().Path()
			r.Close()
			g.importModel(path)
		}
	}, g.w.win)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".vrm"}))
	d.Resize(fyne.NewSize(800, 560))
	d.Show()
}

// vrmSeams let the package's tests run an import on their own goroutine
// (Fyne's test driver runs fyne.Do at once, on the caller's goroutine)
// and at a small size; the zero value is the app's.
type vrmSeams struct {
	spawn func(func()) // nil: a goroutine of its own
	size  image.Point  // zero: vrmpack.DefaultSize
}

// vrmImport is one import's progress dialog.
type vrmImport struct {
	bar    *widget.ProgressBar
	stage  *widget.Label
	dlg    dialog.Dialog
	cancel context.CancelFunc
}

// importModel imports the model at path with a progress dialog; the
// import runs off the UI thread and its progress comes back through
// fyne.Do.
func (g *gallery) importModel(path string) {
	ctx, cancel := context.WithCancel(g.w.ctx)
	im := &vrmImport{bar: widget.NewProgressBar(), stage: widget.NewLabel(lang.L("Reading the model…")), cancel: cancel}
	name := filepath.Base(path)
	im.dlg = dialog.NewCustom(lang.L("Importing {{.Name}}…", map[string]any{"Name": name}), lang.L("Cancel"),
		container.NewVBox(im.stage, im.bar), g.w.win)
	im.dlg.SetOnClosed(cancel)
	im.dlg.Resize(fyne.NewSize(420, 160))
	im.dlg.Show()
	g.status.SetText(lang.L("Importing {{.Name}}…", map[string]any{"Name": name}))
	dir := filepath.Join(g.w.b.Store().Dir(), "characters")
	g.w.jobs.Add(1)
	run := func() {
		defer g.w.jobs.Done()
		defer cancel()
		id, err := vrmpack.Import(ctx, vrmpack.Options{
			Size:    g.vrm.size,
			File:    path,
			Dir:     dir,
			Motions: vrmpack.ClipsBeside(path),
			Progress: func(s vrmpack.Stage, done, total int) {
				fyne.Do(func() { im.show(s, done, total) })
			},
			ConfirmAuthor: func(m vrm.Meta) bool { return g.askAuthor(ctx, m) },
		})
		fyne.Do(func() { g.imported(im, name, id, err) })
	}
	if g.vrm.spawn != nil {
		g.vrm.spawn(run)
		return
	}
	go run()
}

// show puts a stage on the progress dialog.
func (im *vrmImport) show(s vrmpack.Stage, done, total int) {
	switch s {
	case vrmpack.StageReading:
		im.stage.SetText(lang.L("Reading the model…"))
	case vrmpack.StagePosing:
		im.stage.SetText(lang.L("Posing…"))
	case vrmpack.StageRendering:
		im.stage.SetText(lang.L("Rendering frame {{.Done}} of {{.Total}}…", map[string]any{"Done": done, "Total": total}))
	case vrmpack.StageWriting:
		im.stage.SetText(lang.L("Writing the character…"))
	}
	if s == vrmpack.StageRendering && total > 0 {
		im.bar.SetValue(0.1 + 0.85*float64(done)/float64(total))
		return
	}
	im.bar.SetValue(map[vrmpack.Stage]float64{vrmpack.StageReading: 0, vrmpack.StagePosing: 0.05, vrmpack.StageWriting: 0.97}[s])
}

// imported closes the progress dialog and says how the import went.
func (g *gallery) imported(im *vrmImport, name, id string, err error) {
	im.dlg.Hide() // its OnClosed cancels an import that is over: nothing
	if g.w.win == nil {
		return
	}
	switch {
	case errors.Is(err, context.Canceled):
		g.status.SetText(lang.L("Import cancelled; nothing was written."))
		g.w.log.Info("settings_character_import", "file", name, "cancelled", true)
	case err != nil:
		g.status.SetText(lang.L("Not imported: {{.Reason}}", map[string]any{"Reason": i18n.Error(err)}))
		g.w.log.Warn("settings_character_import", "file", name, "err", err.Error())
		g.w.showError(err)
	default:
		g.status.SetText(lang.L("Imported {{.Name}} as {{.ID}}.", map[string]any{"Name": name, "ID": id}))
		g.w.log.Info("settings_character_import", "file", name, "character", id)
		g.afterChange()
	}
}

// askAuthor asks, on the UI thread, whether the user is the author of a
// model only its author may use, and waits for the answer off it; a
// cancelled import answers no.
func (g *gallery) askAuthor(ctx context.Context, m vrm.Meta) bool {
	answer := make(chan bool, 1)
	fyne.Do(func() {
		if g.w.win == nil {
			answer <- false
			return
		}
		who := m.Author
		if who == "" {
			who = "?"
		}
		dialog.ShowConfirm(lang.L("Only for its author"),
			lang.L("The licence of {{.Title}} allows only its author ({{.Author}}) to use it. Are you the author?", map[string]any{"Title": m.Title, "Author": who}),
			func(ok bool) { answer <- ok }, g.w.win)
	})
	select {
	case ok := <-answer:
		return ok
	case <-ctx.Done():
		return false
	}
}

// galleryMeta is what the gallery shows of a model's meta.
type galleryMeta struct {
	meta  *character.Meta
	thumb image.Image
}

// readGalleryMeta reads the meta and thumbnail of a pack made from a
// model; a thumbnail that does not read is left out.
func readGalleryMeta(dir, id string, p *character.Pack) *galleryMeta {
	if p.Meta == nil {
		return nil
	}
	gm := &galleryMeta{meta: p.Meta}
	if userPack(dir, id) {
		gm.thumb, _ = character.ReadThumbnail(os.DirFS(character.Dir(dir, id)), p)
	}
	return gm
}

// metaRow is a model's thumbnail and its meta: who made it and what its
// user may do.
func metaRow(gm *galleryMeta) fyne.CanvasObject {
	m := gm.meta
	var parts []string
	if m.Author != "" {
		parts = append(parts, lang.L("by {{.Author}}", map[string]any{"Author": m.Author}))
	}
	if m.License != "" {
		parts = append(parts, lang.L("licence: {{.License}}", map[string]any{"License": m.License}))
	}
	if m.AllowedUser != "" {
		parts = append(parts, lang.L("who may use it: {{.Who}}", map[string]any{"Who": m.AllowedUser}))
	}
	if m.Commercial != "" {
		parts = append(parts, lang.L("commercial use: {{.Use}}", map[string]any{"Use": m.Commercial}))
	}
	if m.Redistribution {
		parts = append(parts, lang.L("may be redistributed"))
	} else {
		parts = append(parts, lang.L("not to be redistributed"))
	}
	text := strings.Join(parts, " · ")
	if m.Title != "" {
		text = fmt.Sprintf("%s — %s", m.Title, text)
	}
	label := widget.NewLabel(text)
	label.Wrapping = fyne.TextWrapWord
	if gm.thumb == nil {
		return label
	}
	img := canvas.NewImageFromImage(gm.thumb)
	img.FillMode = canvas.ImageFillContain
	img.SetMinSize(fyne.NewSize(48, 48))
	return container.NewBorder(nil, nil, img, nil, label)
}
