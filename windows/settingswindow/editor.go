package settingswindow

import (
	"context"
	"reflect"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"yui/pet/settings"
	"yui/windows"
	"yui/windows/i18n"
	"yui/windows/widgets"
)

// Connection is what the connection test asks the app (the editor's
// Test button, the welcome page's cloud services).
type Connection interface {
	// Probe tests p's backend as edited (not as saved): dial and hello for
	// push, GET /models for the request transports. It honours ctx.
	Probe(ctx context.Context, p settings.Preset) windows.Probe
}

// presetEditor edits one preset: a draft the widgets write into, checked
// with ValidateEdit at every change, saved through the store.
type presetEditor struct {
	w  *SettingsWindow
	id string
	// base is the preset as stored when the draft was last in step with
	// the store; draft holds the user's edits.
	base, draft settings.Preset
	// parseErrs are fields whose text is not a number, by JSON name.
	parseErrs map[string]string
	// fieldErrs is the last validation, by JSON name.
	fieldErrs map[string]string
	loading   bool // widgets being filled from code
	// touched is set once the user changed a field of the preset shown:
	// until then a preset nothing was set up in (a first start) shows no
	// red field, only what Save would need once they start.
	touched  bool
	probeGen int // drops results of a probe for an older draft

	errLabels  map[string]*widget.Label
	fieldNames map[string]string
	rowObjs    map[string][]fyne.CanvasObject // each field's label and cell

	f presetFields

	save, revert *widget.Button
	status       *widget.Label
	elsewhere    *widget.Label
	otherErrs    *widget.Label
}

func newPresetEditor(w *SettingsWindow) *presetEditor {
	e := &presetEditor{w: w, parseErrs: map[string]string{}, fieldErrs: map[string]string{},
		errLabels: map[string]*widget.Label{}, fieldNames: map[string]string{},
		rowObjs: map[string][]fyne.CanvasObject{}}
	e.save = widget.NewButtonWithIcon(lang.L("Save"), theme.DocumentSaveIcon(), e.Save)
	e.save.Importance = widget.HighImportance
	e.revert = widget.NewButtonWithIcon(lang.L("Revert"), theme.ContentUndoIcon(), e.Revert)
	e.status = widget.NewLabel("")
	e.status.Truncation = fyne.TextTruncateEllipsis
	e.elsewhere = widget.NewLabel(lang.L("Changed elsewhere while you were editing: Save keeps your version, Revert takes the saved one."))
	e.elsewhere.Importance = widget.WarningImportance
	e.elsewhere.Wrapping = fyne.TextWrapWord
	e.elsewhere.Hide()
	e.otherErrs = newErrorLabel()
	e.buildFields()
	return e
}

// bar is the line under the tabs: the preset's save state and buttons.
func (e *presetEditor) bar() fyne.CanvasObject {
	buttons := container.NewHBox(e.revert, e.save)
	return container.NewVBox(widget.NewSeparator(), e.elsewhere, e.otherErrs,
		container.NewBorder(nil, nil, nil, buttons, e.status))
}

// editable is the part of a preset the editor changes: the user's
// configuration (settings.Preset.Config), without the id, chat_id, what
// the app learns (positions, relation) and unknown fields.
func editable(p settings.Preset) settings.Preset { return p.Config() }

// applyEdits copies the user's configuration from draft to p.
func applyEdits(p *settings.Preset, draft settings.Preset) { *p = p.WithConfig(draft) }

func sameEdits(a, b settings.Preset) bool { return reflect.DeepEqual(editable(a), editable(b)) }

// dirty reports unsaved edits.
func (e *presetEditor) dirty() bool {
	return e.id != "" && (len(e.parseErrs) > 0 || !sameEdits(e.draft, e.base))
}

// candidate is the preset Save would store: the stored preset with the
// draft's edits.
func (e *presetEditor) candidate() settings.Preset {
	p, ok := e.w.b.Store().Preset(e.id)
	if !ok {
		p = e.base.Clone()
	}
	applyEdits(&p, e.draft)
	return p
}

// load shows preset p, dropping any draft.
func (e *presetEditor) load(p settings.Preset) {
	if e.id != p.ID {
		e.probeGen++
		e.f.probeText.SetText("")
		e.f.setModels(nil)
		e.f.speechResult.SetText("")
		e.f.speechResult.Hide()
		e.f.voiceResult.SetText("")
	}
	e.id = p.ID
	e.base = p.Clone()
	e.draft = p.Clone()
	clear(e.parseErrs)
	e.elsewhere.Hide()
	e.loading = true
	e.f.fill(p, e.w.characters(p.Character))
	e.loading = false
	e.touched = false
	e.status.SetText("")
	e.revalidate()
	e.f.voicesFor = ""
	if e.w.tabs != nil && e.w.tabs.Selected() != nil && e.w.tabs.Selected().Text == lang.L("Speech") {
		e.loadVoices()
	}
	e.restartMeter()
}

// forget drops the editor's preset (it was deleted).
func (e *presetEditor) forget() {
	e.id = ""
	e.probeGen++
	clear(e.parseErrs)
}

// changedElsewhere follows a saved change of the edited preset.
func (e *presetEditor) changedElsewhere(p settings.Preset) {
	e.f.showRelation(p.Relation)
	switch {
	case sameEdits(p, e.draft) && len(e.parseErrs) == 0:
		// Our own save, or the same edit made elsewhere.
		e.base = p.Clone()
		e.elsewhere.Hide()
	case sameEdits(p, e.base):
		// Only fields the editor does not change (relation, positions).
		e.base = p.Clone()
	case !e.dirty():
		e.load(p)
	default:
		e.base = p.Clone()
		e.elsewhere.Show()
	}
	e.revalidate()
}

// edit applies a widget's change to the draft.
func (e *presetEditor) edit(fn func(p *settings.Preset)) {
	if e.loading || e.id == "" {
		return
	}
	fn(&e.draft)
	e.touched = true
	e.revalidate()
}

// editInt applies an integer field typed as text; text that is not a
// whole number marks the field.
func (e *presetEditor) editInt(field, text string, set func(p *settings.Preset, n int)) {
	if e.loading || e.id == "" {
		return
	}
	e.touched = true
	n, err := parseInt(text)
	if err != nil {
		e.parseErrs[field] = i18n.Error(err)
	} else {
		delete(e.parseErrs, field)
		set(&e.draft, n)
	}
	e.revalidate()
}

// editFloat is editInt for a decimal number.
func (e *presetEditor) editFloat(field, text string, set func(p *settings.Preset, x float64)) {
	if e.loading || e.id == "" {
		return
	}
	e.touched = true
	x, err := parseFloat(text)
	if err != nil {
		e.parseErrs[field] = i18n.Error(err)
	} else {
		delete(e.parseErrs, field)
		set(&e.draft, x)
	}
	e.revalidate()
}

// revalidate checks the draft, shows each reason at its field, and
// fits the save bar to it.
func (e *presetEditor) revalidate() {
	clear(e.fieldErrs)
	if e.id != "" {
		c := e.candidate()
		for _, fe := range c.ValidateEdit() {
			if prev, ok := e.fieldErrs[fe.Field]; ok {
				e.fieldErrs[fe.Field] = prev + lang.L("; ") + i18n.Reason(fe.Code, fe.Args)
			} else {
				e.fieldErrs[fe.Field] = i18n.Reason(fe.Code, fe.Args)
			}
		}
		for f, r := range e.parseErrs {
			e.fieldErrs[f] = r
		}
	}
	var other []string
	for f, reason := range e.fieldErrs {
		if !e.touched {
			break // nothing red before the user touches the preset
		}
		if _, ok := e.errLabels[f]; !ok {
			other = append(other, fieldReason(f, reason))
		}
	}
	slices.Sort(other)
	for f, l := range e.errLabels {
		setError(l, e.reasonText(f))
	}
	setError(e.otherErrs, strings.Join(other, "\n"))
	var inClear []string
	if e.id != "" {
		inClear = e.draft.KeysInClear()
	}
	e.f.showKeyWarning(inClear)
	e.showEngineFields()
	e.updateBar()
}

// reasonText is the reason shown at field f, with the field's name:
// "Base URL must start with ws:// or wss:// for push".
func (e *presetEditor) reasonText(f string) string {
	r, ok := e.fieldErrs[f]
	if !ok || !e.touched {
		return ""
	}
	return fieldReason(e.fieldNames[f], r)
}

// fieldError is the reason shown at field f, "" when it is valid.
func (e *presetEditor) fieldError(f string) string {
	if l, ok := e.errLabels[f]; ok && l.Visible() {
		return l.Text
	}
	return ""
}

func (e *presetEditor) updateBar() {
	switch {
	case e.id == "":
		e.save.Disable()
		e.revert.Disable()
		return
	case len(e.fieldErrs) > 0 && !e.touched:
		e.save.Disable()
		e.status.SetText("")
	case len(e.fieldErrs) > 0:
		e.save.Disable()
		var names []string
		for f := range e.fieldErrs {
			name := e.fieldNames[f]
			if name == "" {
				name = f
			}
			names = append(names, name)
		}
		slices.Sort(names)
		e.status.Importance = widget.DangerImportance
		e.status.SetText(lang.L("Fix before saving: {{.Fields}}", map[string]any{"Fields": strings.Join(names, lang.L(", "))}))
	case e.dirty():
		e.save.Enable()
		e.status.Importance = widget.MediumImportance
		e.status.SetText(lang.L("Unsaved changes"))
	default:
		e.save.Disable()
		if e.status.Text != lang.L("Saved") {
			e.status.Importance = widget.MediumImportance
			e.status.SetText("")
		}
	}
	if e.dirty() {
		e.revert.Enable()
	} else {
		e.revert.Disable()
	}
}

// Save stores the draft; it is refused while a field is invalid. The app
// applies the saved preset live (a changed key reconnects it).
func (e *presetEditor) Save() {
	if e.id == "" {
		return
	}
	e.revalidate()
	if len(e.fieldErrs) > 0 {
		return
	}
	draft := e.draft.Clone()
	err := e.w.b.Store().UpdatePreset(e.id, func(p *settings.Preset) error {
		applyEdits(p, draft)
		return nil
	})
	if err != nil {
		e.status.Importance = widget.DangerImportance
		e.status.SetText(lang.L("Not saved: {{.Reason}}", map[string]any{"Reason": i18n.Error(err)}))
		return
	}
	if p, ok := e.w.b.Store().Preset(e.id); ok {
		e.base = p.Clone()
	}
	e.elsewhere.Hide()
	e.status.Importance = widget.SuccessImportance
	e.status.SetText(lang.L("Saved"))
	e.revalidate()
}

// Revert drops the draft and shows the preset as stored.
func (e *presetEditor) Revert() {
	if p, ok := e.w.b.Store().Preset(e.id); ok {
		e.load(p)
	}
}

// probe tests the backend as edited and fills the model list.
func (e *presetEditor) probe() {
	if e.id == "" {
		return
	}
	if r, bad := e.fieldErrs["chat_base_url"]; bad {
		e.f.probeText.SetText(lang.L("Fix the base URL first: it {{.Reason}}", map[string]any{"Reason": r}))
		return
	}
	p := e.candidate()
	e.probeGen++
	gen, id := e.probeGen, e.id
	e.f.probeText.Importance = widget.MediumImportance
	e.f.probeText.SetText(lang.L("Testing {{.URL}} …", map[string]any{"URL": p.ChatBaseURL}))
	e.f.testConn.Disable()
	e.f.refreshModels.Disable()
	e.w.run(probeTimeout, func(ctx context.Context) func() {
		res := e.w.b.Probe(ctx, p)
		if ctx.Err() != nil && !res.OK && res.Text == "" {
			res = windows.Probe{Code: windows.ProbeTimeout}
		}
		return func() {
			e.f.testConn.Enable()
			e.f.refreshModels.Enable()
			if gen != e.probeGen || id != e.id {
				return // the draft or the preset changed meanwhile
			}
			e.showProbe(res)
		}
	})
}

func (e *presetEditor) showProbe(res windows.Probe) {
	if res.OK {
		e.f.probeText.Importance = widget.SuccessImportance
	} else {
		e.f.probeText.Importance = widget.DangerImportance
	}
	e.f.probeText.SetText(probeText(res))
	if len(res.Models) > 0 {
		e.f.setModels(res.Models)
	}
}

// speakSample speaks a sentence with the speech settings as edited.
func (e *presetEditor) speakSample() { e.speakSampleWith(e.f.speechTest, e.f.speechResult) }

// speakSampleWith is speakSample from button, saying how it went in result
// (the voice row's, or the command row's).
func (e *presetEditor) speakSampleWith(button *widget.Button, result *widget.Label) {
	if e.id == "" {
		return
	}
	p := e.candidate()
	id := e.id
	button.Disable()
	result.Importance = widget.MediumImportance
	result.SetText(lang.L("Speaking…"))
	result.Show()
	e.w.run(speakTimeout, func(ctx context.Context) func() {
		err := e.w.b.SpeakSample(ctx, p)
		return func() {
			button.Enable()
			if id != e.id {
				return
			}
			setResult(result, lang.L("Spoke the sample sentence."), err)
		}
	})
}

// testVoice records a few seconds with the voice settings as edited.
func (e *presetEditor) testVoice() {
	if e.id == "" {
		return
	}
	p := e.candidate()
	id := e.id
	e.f.voiceTest.Disable()
	e.f.voiceResult.Importance = widget.MediumImportance
	e.f.voiceResult.SetText(lang.L("Listening… say something."))
	e.w.run(voiceTimeout, func(ctx context.Context) func() {
		text, err := e.w.b.TestVoice(ctx, p)
		return func() {
			e.f.voiceTest.Enable()
			if id != e.id {
				return
			}
			if err == nil && strings.TrimSpace(text) == "" {
				text = lang.L("(nothing recognised)")
			}
			setResult(e.f.voiceResult, lang.L("Heard: {{.Text}}", map[string]any{"Text": text}), err)
		}
	})
}

func setResult(l *widget.Label, ok string, err error) {
	if err != nil {
		l.Importance = widget.DangerImportance
		l.SetText(lang.L("Failed: {{.Reason}}", map[string]any{"Reason": i18n.Error(err)}))
		return
	}
	l.Importance = widget.SuccessImportance
	l.SetText(ok)
}

func newErrorLabel() *widget.Label {
	l := widget.NewLabel("")
	l.Importance = widget.DangerImportance
	l.Wrapping = fyne.TextWrapWord
	l.Hide()
	return l
}

func setError(l *widget.Label, text string) {
	if l.Text != text {
		l.SetText(text)
	}
	widgets.SetShown(l, text != "")
}

// formRows lays out label/field pairs with the labels in one aligned
// column.
func formRows(objs ...fyne.CanvasObject) *fyne.Container {
	return container.New(layout.NewFormLayout(), objs...)
}

// fieldReason is a field's name with why its value is refused: "Base URL
// must start with …" in English, "ベース URL: …" where the reason is a
// sentence of its own.
func fieldReason(name, reason string) string {
	return lang.L("{{.Field}} {{.Reason}}", map[string]any{"Field": name, "Reason": reason})
}
