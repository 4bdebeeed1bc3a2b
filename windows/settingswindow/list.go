package settingswindow

import (
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"yui/pet/settings"
	"yui/windows/i18n"
)

// presetList is the left pane: the presets, the buttons that add,
// duplicate, delete, enable and activate them, and the presets the
// settings file held but that could not be used.
type presetList struct {
	w       *SettingsWindow
	presets []settings.Preset
	active  string
	syncing bool // selecting from code, not the user

	list                        *widget.List
	add, dup, del, activate, on *widget.Button
	refused                     *widget.Label
	refusedBox                  *fyne.Container
}

func newPresetList(w *SettingsWindow) *presetList {
	l := &presetList{w: w}
	l.list = widget.NewList(
		func() int { return len(l.presets) },
		func() fyne.CanvasObject {
			name := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
			name.Truncation = fyne.TextTruncateEllipsis
			detail := widget.NewLabel("")
			detail.SizeName = theme.SizeNameCaptionText
			detail.Truncation = fyne.TextTruncateEllipsis
			return container.NewVBox(name, detail)
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i < 0 || i >= len(l.presets) {
				return
			}
			box := o.(*fyne.Container)
			box.Objects[0].(*widget.Label).SetText(l.presets[i].Name)
			box.Objects[1].(*widget.Label).SetText(l.detail(l.presets[i]))
		},
	)
	l.list.OnSelected = func(i widget.ListItemID) {
		if l.syncing || i < 0 || i >= len(l.presets) {
			return
		}
		w.selectPreset(l.presets[i].ID)
	}
	l.add = widget.NewButtonWithIcon(lang.L("Add"), theme.ContentAddIcon(), l.addPreset)
	l.dup = widget.NewButtonWithIcon(lang.L("Duplicate"), theme.ContentCopyIcon(), l.duplicate)
	l.del = widget.NewButtonWithIcon(lang.L("Delete"), theme.DeleteIcon(), l.confirmDelete)
	l.activate = widget.NewButtonWithIcon(lang.L("Make active"), theme.ConfirmIcon(), l.makeActive)
	l.on = widget.NewButtonWithIcon(lang.L("Disable"), theme.VisibilityOffIcon(), l.toggleEnabled)
	l.refused = widget.NewLabel("")
	l.refused.Wrapping = fyne.TextWrapWord
	l.refused.Importance = widget.DangerImportance
	l.refusedBox = container.NewVBox(
		widget.NewLabelWithStyle(lang.L("Left out of the settings file"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		l.refused)
	return l
}

func (l *presetList) content() fyne.CanvasObject {
	buttons := container.NewGridWithColumns(2, l.add, l.dup, l.on, l.del)
	bottom := container.NewVBox(buttons, l.activate, l.refusedBox)
	// The welcome page's local servers, from the title row (the list and
	// its buttons keep their places).
	find := widget.NewButtonWithIcon(lang.L("Find local servers"), theme.SearchIcon(), l.w.findServers)
	find.Importance = widget.LowImportance
	title := container.NewBorder(nil, nil, nil, find,
		widget.NewLabelWithStyle(lang.L("Presets"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	return container.NewPadded(container.NewBorder(title, bottom, nil, nil, l.list))
}

// detail is the line under a preset's name.
func (l *presetList) detail(p settings.Preset) string {
	var parts []string
	if p.ID == l.active {
		parts = append(parts, lang.L("active"))
	}
	if !p.Enabled {
		parts = append(parts, lang.L("off"))
	}
	parts = append(parts, chatAPILabel(p.ChatAPI))
	return strings.Join(parts, " · ")
}

// refresh shows the presets of st.
func (l *presetList) refresh(st settings.Settings) {
	l.presets = st.Presets
	l.active = st.ActivePreset
	l.list.Refresh()
	var why []string
	for _, r := range l.w.b.Store().Refused() {
		why = append(why, "• "+i18n.Refusal(r))
	}
	l.refused.SetText(strings.Join(why, "\n"))
	if len(why) == 0 {
		l.refusedBox.Hide()
	} else {
		l.refusedBox.Show()
	}
	l.sync(l.w.selected)
}

// sync selects id in the list and fits the buttons to it.
func (l *presetList) sync(id string) {
	l.syncing = true
	defer func() { l.syncing = false }()
	p, i := l.find(id)
	if p == nil {
		l.list.UnselectAll()
		l.dup.Disable()
		l.del.Disable()
		l.on.Disable()
		l.activate.Disable()
		return
	}
	l.list.Select(i)
	l.dup.Enable()
	l.del.Enable()
	l.on.Enable()
	if p.Enabled {
		l.on.SetText(lang.L("Disable"))
		l.on.SetIcon(theme.VisibilityOffIcon())
	} else {
		l.on.SetText(lang.L("Enable"))
		l.on.SetIcon(theme.VisibilityIcon())
	}
	if p.ID == l.active {
		l.activate.SetText(lang.L("Active preset"))
		l.activate.Disable()
	} else {
		l.activate.SetText(lang.L("Make active"))
		l.activate.Enable()
	}
}

func (l *presetList) find(id string) (*settings.Preset, int) {
	for i := range l.presets {
		if l.presets[i].ID == id {
			return &l.presets[i], i
		}
	}
	return nil, -1
}

func (l *presetList) addPreset() {
	store := l.w.b.Store()
	// A new pet looks unlike the others: the character no other preset uses.
	unused := l.w.unusedCharacter(store.Get())
	p, err := store.AddPreset(lang.L("Preset {{.N}}", map[string]any{"N": len(l.presets) + 1}))
	if err != nil {
		l.w.showError(fmt.Errorf("add a preset: %w", err))
		return
	}
	if id := unused; id != "" && id != p.Character {
		if err := store.UpdatePreset(p.ID, func(q *settings.Preset) error { q.Character = id; return nil }); err != nil {
			l.w.showError(fmt.Errorf("give the new preset a character: %w", err))
		}
	}
	l.w.selectPreset(p.ID)
}

func (l *presetList) duplicate() {
	p, err := l.w.b.Store().DuplicatePreset(l.w.selected)
	if err != nil {
		l.w.showError(fmt.Errorf("duplicate the preset: %w", err))
		return
	}
	l.w.selectPreset(p.ID)
}

// lastPresetReason says why the only preset stays.
const lastPresetReason = "It is the only preset, and Yui needs one to run. Add another preset first, then delete this one."

func (l *presetList) confirmDelete() {
	p, _ := l.find(l.w.selected)
	if p == nil {
		return
	}
	if len(l.presets) == 1 {
		dialog.ShowInformation(lang.L("This preset cannot be deleted"), lang.L(lastPresetReason), l.w.win)
		return
	}
	id := p.ID
	d := dialog.NewConfirm(lang.L("Delete preset"),
		lang.L("Delete \"{{.Name}}\"?\nIts settings and delegation history go with it; this cannot be undone.", map[string]any{"Name": p.Name}),
		func(ok bool) {
			if ok {
				l.delete(id)
			}
		}, l.w.win)
	d.SetConfirmText(lang.L("Delete"))
	d.SetConfirmImportance(widget.DangerImportance)
	d.SetDismissText(lang.L("Keep it"))
	d.Show()
}

func (l *presetList) delete(id string) {
	// The store's change moves the selection and drops the editor's draft.
	err := l.w.b.Store().DeletePreset(id)
	switch {
	case errors.Is(err, settings.ErrLastPreset):
		dialog.ShowInformation(lang.L("This preset cannot be deleted"), lang.L(lastPresetReason), l.w.win)
	case err != nil:
		l.w.showError(fmt.Errorf("delete the preset: %w", err))
	}
}

func (l *presetList) toggleEnabled() {
	err := l.w.b.Store().UpdatePreset(l.w.selected, func(p *settings.Preset) error {
		p.Enabled = !p.Enabled
		return nil
	})
	if err != nil {
		l.w.showError(fmt.Errorf("switch the preset: %w", err))
	}
}

func (l *presetList) makeActive() {
	if err := l.w.b.Store().SetActive(l.w.selected); err != nil {
		l.w.showError(fmt.Errorf("make the preset active: %w", err))
	}
}

// chatAPILabel names a chat API for the user.
func chatAPILabel(api string) string {
	for _, o := range chatAPIOptions {
		if o.value == api {
			return lang.L(o.label) // the choice's label, translated as the choice does
		}
	}
	return api
}

var chatAPIOptions = []option{
	{settings.ChatAPIPush, "Push (WebSocket)"},
	{settings.ChatAPIChatCompletions, "Chat Completions"},
	{settings.ChatAPIResponses, "Responses"},
}
