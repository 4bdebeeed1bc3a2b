package settingswindow

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"yui/pet/settings"
	"yui/tools/facts"
	"yui/windows/widgets"
)

// memoryWait bounds a write of the facts file or an export or import.
const memoryWait = 20 * time.Second

// Memory is what the Memory tab asks the app.
type Memory interface {
	// Facts is preset id's remembered facts, the same store its pet's
	// requests read.
	Facts(presetID string) *facts.Store
}

// factsSection is the Memory page: what the selected preset's character
// remembers (tools/facts), to read, search, edit, delete, add by hand,
// export and import, and to forget all at once. Every change writes the
// facts file off the UI thread and reaches the next request.
type factsSection struct {
	w     *SettingsWindow
	store *facts.Store // the selected preset's; nil before one is selected
	stop  func()       // stops watching store
	all   []facts.Fact
	shown []facts.Fact

	search *widget.Entry
	count  *widget.Label
	note   *widget.Label
	list   *widget.List
	forget *widget.Button
}

func newFactsSection(w *SettingsWindow) *factsSection {
	s := &factsSection{w: w}
	s.search = widget.NewEntry()
	s.search.SetPlaceHolder(lang.L("Search what she remembers"))
	s.search.OnChanged = func(string) { s.filter() }
	s.count = widget.NewLabel("")
	s.note = helpText("")
	s.list = widget.NewList(func() int { return len(s.shown) }, newFactRow, func(i widget.ListItemID, o fyne.CanvasObject) {
		if i < len(s.shown) {
			o.(*factRow).set(s.shown[i], s.edit, s.remove)
		}
	})
	s.forget = widget.NewButtonWithIcon(lang.L("Forget everything"), theme.DeleteIcon(), s.confirmForgetAll)
	s.forget.Importance = widget.DangerImportance
	return s
}

func (s *factsSection) content() fyne.CanvasObject {
	help := helpText(lang.L("Over Chat Completions and the Responses API the character keeps short facts about you with her remember tool " +
		"and drops them with forget. The newest and most used go into every request after the card, within a tenth of the " +
		"context window. Reset conversation keeps them; Forget everything clears them. A push backend keeps its own memory."))
	add := widget.NewButtonWithIcon(lang.L("Add…"), theme.ContentAddIcon(), func() { s.edit(facts.Fact{}) })
	export := widget.NewButtonWithIcon(lang.L("Export…"), theme.DocumentSaveIcon(), s.export)
	imp := widget.NewButtonWithIcon(lang.L("Import…"), theme.FolderOpenIcon(), s.importFile)
	bar := container.NewBorder(nil, nil, nil, container.NewHBox(add, export, imp, s.forget), s.search)
	top := container.NewVBox(widget.NewLabelWithStyle(lang.L("Memory"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), help, s.note, bar, s.count)
	return container.NewPadded(container.NewBorder(top, nil, nil, nil, s.list))
}

// attach shows preset id's facts and follows their changes.
func (s *factsSection) attach(id string, p settings.Preset) {
	s.detach()
	s.store = s.w.b.Facts(id)
	if s.store == nil {
		return
	}
	if p.ChatAPI == settings.ChatAPIPush {
		s.note.SetText(lang.L("This preset talks to a push backend, which keeps its own memory: the facts here are used when it talks over Chat Completions or the Responses API."))
		s.note.Show()
	} else {
		s.note.Hide()
	}
	st := s.store
	s.stop = st.Watch(func() {
		fyne.Do(func() {
			if s.store == st {
				s.reload()
			}
		})
	})
	s.reload()
}

func (s *factsSection) detach() {
	if s.stop != nil {
		s.stop()
		s.stop = nil
	}
	s.store = nil
}

func (s *factsSection) reload() {
	if s.store == nil {
		return
	}
	s.all = s.store.List()
	s.filter()
}

// filter shows the facts whose text holds every word of the search.
func (s *factsSection) filter() {
	words := strings.Fields(strings.ToLower(s.search.Text))
	s.shown = s.shown[:0]
	for _, f := range s.all {
		text := strings.ToLower(f.Text)
		ok := true
		for _, w := range words {
			ok = ok && strings.Contains(text, w)
		}
		if ok {
			s.shown = append(s.shown, f)
		}
	}
	switch {
	case len(s.all) == 0:
		s.count.SetText(lang.L("Nothing remembered yet."))
	case len(words) > 0:
		s.count.SetText(lang.N("{{.Count}} of {{.All}} facts match (at most {{.Max}} are kept)", len(s.all), map[string]any{"Count": len(s.shown), "All": len(s.all), "Max": facts.MaxFacts}))
	default:
		s.count.SetText(lang.N("{{.Count}} facts (at most {{.Max}} are kept; past that the least recently used go)", len(s.all), map[string]any{"Count": len(s.all), "Max": facts.MaxFacts}))
	}
	s.forget.Disable()
	if len(s.all) > 0 {
		s.forget.Enable()
	}
	s.list.UnselectAll()
	s.list.Refresh()
}

// change runs a store edit off the UI thread; an error is shown.
func (s *factsSection) change(what string, edit func(st *facts.Store) error) {
	st := s.store
	if st == nil {
		return
	}
	s.w.log.Info("memory_page_edit", "op", what)
	s.w.run(memoryWait, func(context.Context) func() {
		err := edit(st)
		return func() {
			if err != nil {
				s.w.showError(fmt.Errorf("memory: %s: %w", what, err))
			}
		}
	})
}

// edit opens the editor of f; a fact with id 0 is a new one.
func (s *factsSection) edit(f facts.Fact) {
	text := widget.NewMultiLineEntry()
	text.Wrapping = fyne.TextWrapWord
	text.SetText(f.Text)
	text.SetMinRowsVisible(3)
	text.Validator = func(v string) error {
		if n := len([]rune(strings.Join(strings.Fields(v), " "))); n == 0 {
			return facts.ErrEmpty
		} else if n > facts.MaxFactLen {
			return facts.ErrTooLong
		}
		return nil
	}
	about := widget.NewSelect([]string{aboutLabel(facts.AboutUser), aboutLabel(facts.AboutWorld), aboutLabel(facts.AboutUs)}, nil)
	a := f.About
	if a == "" {
		a = facts.AboutUser
	}
	about.SetSelected(aboutLabel(a))
	title, confirm := lang.L("Edit fact"), lang.L("Save")
	if f.ID == 0 {
		title, confirm = lang.L("Add a fact"), lang.L("Add")
	}
	d := dialog.NewForm(title, confirm, lang.L("Cancel"), []*widget.FormItem{
		widget.NewFormItem(lang.L("Fact"), text),
		widget.NewFormItem(lang.L("About"), about),
	}, func(ok bool) {
		if !ok {
			return
		}
		v, ab := text.Text, aboutOf(about.Selected)
		if f.ID == 0 {
			s.change("add", func(st *facts.Store) error { _, _, err := st.Remember(v, ab); return err })
		} else {
			s.change("edit", func(st *facts.Store) error { return st.Edit(f.ID, v, ab) })
		}
	}, s.w.win)
	d.Resize(fyne.NewSize(560, 280))
	d.Show()
	s.w.win.Canvas().Focus(text)
	s.w.log.Info("memory_dialog", "dialog", title)
}

func (s *factsSection) remove(f facts.Fact) {
	s.change("delete", func(st *facts.Store) error { return st.Forget(f.ID) })
}

func (s *factsSection) confirmForgetAll() {
	if s.store == nil {
		return
	}
	d := dialog.NewConfirm(lang.L("Forget everything"),
		lang.N("Forget all {{.Count}} facts she remembers about you?\nThis cannot be undone; export them first to keep a copy.", len(s.all), map[string]any{"Count": len(s.all)}),
		func(ok bool) {
			if ok {
				s.change("forget_everything", func(st *facts.Store) error { return st.Clear() })
			}
		}, s.w.win)
	d.SetConfirmText(lang.L("Forget everything"))
	d.SetConfirmImportance(widget.DangerImportance)
	d.SetDismissText(lang.L("Cancel"))
	d.Show()
	s.w.log.Info("memory_dialog", "dialog", "Forget everything")
}

func (s *factsSection) export() {
	st := s.store
	if st == nil {
		return
	}
	d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil || wc == nil {
			if err != nil {
				s.w.showError(err)
			}
			return
		}
		s.change("export", func(st *facts.Store) error {
			defer wc.Close()
			data, err := st.Export()
			if err == nil {
				_, err = wc.Write(data)
			}
			return err
		})
	}, s.w.win)
	d.SetFileName("memory.json")
	d.SetFilter(storage.NewExtensionFileFilter([]string{".json"}))
	d.Show()
}

func (s *factsSection) importFile() {
	d := dialog.NewFileOpen(func(rc fyne.URIReadCloser, err error) {
		if err != nil || rc == nil {
			if err != nil {
				s.w.showError(err)
			}
			return
		}
		s.change("import", func(st *facts.Store) error {
			defer rc.Close()
			data, err := io.ReadAll(io.LimitReader(rc, 8<<20))
			if err != nil {
				return err
			}
			_, err = st.Import(data)
			return err
		})
	}, s.w.win)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".json"}))
	d.Show()
}

func aboutLabel(a facts.About) string {
	switch a {
	case facts.AboutWorld:
		return lang.L("the world")
	case facts.AboutUs:
		return lang.L("the two of you")
	}
	return "you"
}

func aboutOf(label string) facts.About {
	for _, a := range []facts.About{facts.AboutWorld, facts.AboutUs} {
		if aboutLabel(a) == label {
			return a
		}
	}
	return facts.AboutUser
}

// factRow is one fact in the list: its text, when it was learnt and last
// used, and its edit and delete buttons.
type factRow struct {
	widget.BaseWidget
	fact     facts.Fact
	text     *widget.Label
	meta     *widget.Label
	edit     *widget.Button
	del      *widget.Button
	onEdit   func(facts.Fact)
	onDelete func(facts.Fact)
}

func newFactRow() fyne.CanvasObject {
	r := &factRow{text: widget.NewLabel(""), meta: widget.NewLabel("")}
	r.text.Truncation = fyne.TextTruncateEllipsis
	r.meta.Truncation = fyne.TextTruncateEllipsis
	r.meta.SizeName = theme.SizeNameCaptionText
	r.edit = widget.NewButtonWithIcon("", theme.DocumentCreateIcon(), func() { r.onEdit(r.fact) })
	r.del = widget.NewButtonWithIcon("", theme.DeleteIcon(), func() { r.onDelete(r.fact) })
	r.ExtendBaseWidget(r)
	return r
}

func (r *factRow) set(f facts.Fact, edit, del func(facts.Fact)) {
	r.fact, r.onEdit, r.onDelete = f, edit, del
	r.text.SetText(f.Text)
	used := lang.L("never used yet")
	if !f.LastUsed.IsZero() {
		used = lang.L("last used {{.Date}}", map[string]any{"Date": widgets.FormatDateTime(f.LastUsed.Local())})
	}
	r.meta.SetText(lang.L("#{{.ID}} · about {{.About}} · learnt {{.Date}} · {{.Used}}", map[string]any{"ID": f.ID, "About": aboutLabel(f.About), "Date": widgets.FormatDateTime(f.Created.Local()), "Used": used}))
}

func (r *factRow) CreateRenderer() fyne.WidgetRenderer {
	lines := container.NewVBox(r.text, r.meta)
	return widget.NewSimpleRenderer(container.NewBorder(nil, nil, nil, container.NewHBox(r.edit, r.del), lines))
}
