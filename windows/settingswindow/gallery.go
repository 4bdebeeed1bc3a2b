package settingswindow

import (
	"errors"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"yui/pet/character"
	"yui/pet/character/shimeji"
	"yui/pet/settings"
	"yui/windows/i18n"
)

// The Characters tab: every pack (built-in, imported, made by hand) with
// its idle pose; a motion of one plays on request in the preview; a pack
// is assigned to the selected preset, and an imported one deleted.
// "Import character…" and a folder dropped onto the window import a
// Shimeji set. Packs are read and written off the UI thread.

// charactersTab is the gallery's tab.
const charactersTab = "Characters"

// galleryPack is one pack as the gallery lists it.
type galleryPack struct {
	id, name string
	kind     string // "built-in", "imported" or "made by hand"
	idle     image.Image
	motions  []string
	meta     *galleryMeta // a model's meta (gallery_vrm.go), else nil
	err      error        // why the pack does not load
}

// gallery is the Characters tab.
type gallery struct {
	w       *SettingsWindow
	list    *fyne.Container
	status  *widget.Label
	preview *canvas.Image
	playing *widget.Label
	anim    *fyne.Animation
	gen     int // load generation: a slower older load does not win
	vrm     vrmSeams
}

func newGallery(w *SettingsWindow) *gallery {
	g := &gallery{w: w, list: container.NewVBox(), status: widget.NewLabel(""), playing: widget.NewLabel("")}
	g.status.Wrapping = fyne.TextWrapWord
	g.preview = canvas.NewImageFromImage(nil)
	g.preview.FillMode = canvas.ImageFillContain
	g.preview.SetMinSize(fyne.NewSize(192, 256))
	return g
}

func (g *gallery) content() fyne.CanvasObject {
	imp := widget.NewButtonWithIcon(lang.L("Import character…"), theme.FolderOpenIcon(), g.chooseFolder)
	model := widget.NewButtonWithIcon(lang.L("Import a VRM model…"), theme.FileIcon(), g.chooseModel)
	top := container.NewVBox(
		container.NewHBox(imp, model),
		helpText(lang.L("Import a Shimeji or Shimeji-ee character: choose its folder (the one with img/ and conf/), or drop the folder onto this window.")),
		helpText(lang.L("Import a VRM avatar (VRM 0.x or 1.0, as VRoid Studio exports it): it is posed and drawn once into a character that talks, walks and sits like the others; VRM Animation clips (.vrma) in the same folder become its motions.")),
		g.status,
	)
	right := container.NewVBox(g.preview, g.playing)
	return container.NewBorder(top, nil, nil, container.NewPadded(right), container.NewVScroll(g.list))
}

// refresh reads every pack again, off the UI thread.
func (g *gallery) refresh() {
	g.gen++
	gen := g.gen
	dir := g.w.b.Store().Dir()
	ids := g.w.characters("")
	g.w.jobs.Add(1)
	go func() {
		defer g.w.jobs.Done()
		packs := make([]galleryPack, 0, len(ids))
		for _, id := range ids {
			packs = append(packs, readGalleryPack(dir, id))
		}
		fyne.Do(func() {
			if g.w.win != nil && gen == g.gen {
				g.show(packs)
			}
		})
	}()
}

// readGalleryPack loads one pack for its card.
func readGalleryPack(dir, id string) galleryPack {
	gp := galleryPack{id: id, name: id, kind: lang.L("made by hand")}
	p, err := loadPack(dir, id)
	if err != nil {
		gp.err = err
		return gp
	}
	gp.name = p.Name
	switch {
	case p.Source != "":
		gp.kind = "imported"
	case slices.Contains(character.BuiltinIDs(), id) && !userPack(dir, id):
		gp.kind = "built-in"
	}
	if f := p.Frames("idle", ""); len(f.Frames) > 0 {
		gp.idle = f.Frames[0]
	}
	gp.motions = p.Vocabulary().MotionIDs
	gp.meta = readGalleryMeta(dir, id, p)
	return gp
}

// loadPack loads pack id: a user folder of that id, else the built-in.
func loadPack(dir, id string) (*character.Pack, error) {
	if !userPack(dir, id) {
		if id == character.DefaultID {
			return character.Default(), nil
		}
		if p, ok := character.Builtin(id); ok {
			return p, nil
		}
	}
	return character.LoadDir(character.Dir(dir, id))
}

// userPack reports whether a folder of pack id is in the config folder.
func userPack(dir, id string) bool {
	_, err := os.Stat(character.Dir(dir, id))
	return !errors.Is(err, os.ErrNotExist)
}

func (g *gallery) show(packs []galleryPack) {
	g.list.RemoveAll()
	for _, gp := range packs {
		g.list.Add(g.card(gp))
	}
	g.list.Refresh()
}

// card is one pack's row: idle pose, name, and its actions.
func (g *gallery) card(gp galleryPack) fyne.CanvasObject {
	img := canvas.NewImageFromImage(gp.idle)
	img.FillMode = canvas.ImageFillContain
	img.SetMinSize(fyne.NewSize(72, 96))
	title := widget.NewLabelWithStyle(fmt.Sprintf("%s  (%s, %s)", gp.name, gp.id, gp.kind), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	if gp.err != nil {
		msg := widget.NewLabel(lang.L("Does not load: {{.Reason}}", map[string]any{"Reason": i18n.Error(gp.err)}))
		msg.Wrapping = fyne.TextWrapWord
		return container.NewBorder(nil, nil, img, nil, container.NewVBox(title, msg))
	}
	play := widget.NewSelect(gp.motions, func(m string) { g.play(gp.id, m) })
	play.PlaceHolder = lang.L("Play a motion…")
	use := widget.NewButton(lang.L("Use for this preset"), func() { g.assign(gp.id) })
	actions := container.NewHBox(play, use)
	if gp.kind == "imported" {
		actions.Add(widget.NewButtonWithIcon(lang.L("Delete"), theme.DeleteIcon(), func() { g.confirmDelete(gp) }))
	}
	body := container.NewVBox(title, actions)
	if gp.meta != nil {
		body.Add(metaRow(gp.meta))
	}
	return container.NewBorder(nil, nil, img, nil, body)
}

// play shows pack id's motion in the preview, looping, each frame for its
// time.
func (g *gallery) play(id, motion string) {
	dir := g.w.b.Store().Dir()
	g.w.jobs.Add(1)
	go func() {
		defer g.w.jobs.Done()
		p, err := loadPack(dir, id)
		fyne.Do(func() {
			if g.w.win == nil {
				return
			}
			if err != nil {
				g.status.SetText(i18n.Error(err))
				return
			}
			g.animate(p.Frames(motion, ""), id+": "+motion)
		})
	}()
}

func (g *gallery) animate(set character.FrameSet, label string) {
	if g.anim != nil {
		g.anim.Stop()
		g.anim = nil
	}
	g.playing.SetText(label)
	if len(set.Frames) == 0 {
		return
	}
	g.preview.Image = set.Frames[0]
	g.preview.Refresh()
	durs := set.Durations
	if len(durs) != len(set.Frames) {
		durs = make([]time.Duration, len(set.Frames))
		for i := range durs {
			durs[i] = time.Duration(float64(time.Second) / max(set.FPS, 1))
		}
	}
	var total time.Duration
	for _, d := range durs {
		total += d
	}
	if len(set.Frames) < 2 || total <= 0 {
		return
	}
	last := 0
	g.anim = fyne.NewAnimation(total, func(f float32) {
		at := time.Duration(float64(total) * float64(f))
		i := 0
		for i < len(durs)-1 && at >= durs[i] {
			at -= durs[i]
			i++
		}
		if i != last {
			last = i
			g.preview.Image = set.Frames[i]
			g.preview.Refresh()
		}
	})
	g.anim.Curve = fyne.AnimationLinear
	g.anim.RepeatCount = fyne.AnimationRepeatForever
	g.anim.Start()
}

// assign makes pack id the selected preset's character.
func (g *gallery) assign(id string) {
	sel := g.w.selected
	if sel == "" {
		return
	}
	err := g.w.b.Store().UpdatePreset(sel, func(p *settings.Preset) error {
		p.Character = id
		return nil
	})
	if err != nil {
		g.w.showError(fmt.Errorf("assign the character: %w", err))
		return
	}
	g.status.SetText(lang.L("The selected preset now shows {{.Name}}.", map[string]any{"Name": id}))
	g.w.log.Info("settings_character_assigned", "preset", sel, "character", id)
}

// confirmDelete asks, then deletes an imported pack no preset uses.
func (g *gallery) confirmDelete(gp galleryPack) {
	var users []string
	for _, p := range g.w.b.Store().Get().Presets {
		if p.Character == gp.id {
			users = append(users, p.Name)
		}
	}
	if len(users) > 0 {
		g.w.showError(fmt.Errorf("%s is the character of %q; give those presets another character first", gp.name, users))
		return
	}
	dialog.ShowConfirm(lang.L("Delete character"), lang.L("Delete the imported character {{.Name}} ({{.ID}})?", map[string]any{"Name": gp.name, "ID": gp.id}), func(ok bool) {
		if !ok {
			return
		}
		dir := character.Dir(g.w.b.Store().Dir(), gp.id)
		g.w.jobs.Add(1)
		go func() {
			defer g.w.jobs.Done()
			err := os.RemoveAll(dir)
			fyne.Do(func() {
				if err != nil {
					g.w.showError(fmt.Errorf("delete %s: %w", gp.id, err))
				} else {
					g.w.log.Info("settings_character_deleted", "character", gp.id)
				}
				g.afterChange()
			})
		}()
	}, g.w.win)
}

// chooseFolder opens the folder picker for a set to import.
func (g *gallery) chooseFolder() {
	d := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
		switch {
		case err != nil:
			g.w.showError(err)
		case u != nil:
			g.importDir(u.Path())
		}
	}, g.w.win)
	d.Resize(fyne.NewSize(800, 560))
	d.Show()
}

// dropped imports the folders and .vrm models dropped onto the window.
func (g *gallery) dropped(_ fyne.Position, uris []fyne.URI) {
	for _, u := range uris {
		if u.Scheme() != "file" {
			continue
		}
		st, err := os.Stat(u.Path())
		switch {
		case err != nil:
		case st.IsDir():
			g.importDir(u.Path())
		case strings.EqualFold(filepath.Ext(u.Path()), ".vrm"):
			g.importModel(u.Path()) // gallery_vrm.go
		}
	}
}

// importDir imports the set in dir, off the UI thread, and tells the user
// the pack's id or why the set was refused.
func (g *gallery) importDir(dir string) {
	g.status.SetText(lang.L("Importing {{.Name}}…", map[string]any{"Name": filepath.Base(dir)}))
	cfg := g.w.b.Store().Dir()
	g.w.jobs.Add(1)
	go func() {
		defer g.w.jobs.Done()
		r, err := shimeji.Import(shimeji.Options{Dir: dir, ConfigDir: cfg})
		fyne.Do(func() {
			if g.w.win == nil {
				return
			}
			if err != nil {
				g.status.SetText(lang.L("Not imported: {{.Reason}}", map[string]any{"Reason": i18n.Error(err)}))
				g.w.log.Warn("settings_character_import", "dir", dir, "err", err.Error())
				g.w.showError(err)
				return
			}
			g.status.SetText(lang.L("Imported {{.Name}} as {{.ID}}.", map[string]any{"Name": r.Name, "ID": r.ID}))
			g.w.log.Info("settings_character_import", "dir", dir, "character", r.ID)
			g.afterChange()
		})
	}()
}

// afterChange shows a pack added or removed: in the gallery and in the
// editor's character choice.
func (g *gallery) afterChange() {
	if g.w.ed != nil && g.w.selected != "" {
		cur := g.w.ed.draft.Character
		g.w.ed.f.character.SetOptions(plainOptions(g.w.characters(cur)...))
		g.w.ed.f.character.SetValue(cur)
	}
	// Last: the reload's goroutine may show its result at once (Fyne's
	// test driver runs fyne.Do on the caller's goroutine).
	g.refresh()
}

// unusedCharacter is a pack no preset in st uses, "" when every one is
// used: a preset made by Add gets it, so that two pets differ.
func (w *SettingsWindow) unusedCharacter(st settings.Settings) string {
	for _, id := range w.characters("") {
		if !slices.ContainsFunc(st.Presets, func(p settings.Preset) bool { return p.Character == id }) {
			return id
		}
	}
	return ""
}
