package settingswindow

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"yui/pet/character"
	"yui/pet/settings"
	"yui/windows/widgets"
)

// presetFields are the editor's widgets, one per preset field.
type presetFields struct {
	name          *widget.Entry
	enabled       *widget.Check
	character     *choice
	card          *widget.Entry
	chatAPI       *choice
	baseURL       *widget.Entry
	key           *widget.Entry
	keyWarning    *widget.Label
	model         *widget.SelectEntry
	models        []string // the model list, as the server gave it
	refreshModels *widget.Button
	effort        *choice
	contextWindow *widget.Entry
	budget        *widget.Label
	chatID        *widget.Label
	testConn      *widget.Button
	probeText     *widget.Label
	screenOnTurn  *choice
	greeting      *widget.Check
	poke          *widget.Check
	gravity       *widget.Check
	gaze          *widget.Check
	checkIn       *widget.Entry
	relation      *widget.ProgressBar

	audioFields
	serverFields // servers.go
}

var (
	effortOptions = []option{{"", "Server default"}, {"minimal", "minimal"}, {"low", "low"},
		{"medium", "medium"}, {"high", "high"}}
	screenOnTurnOptions = []option{{"never", "Never"}, {"toggle", "When the composer's toggle is on"},
		{"always", "Always"}}
)

func (e *presetEditor) buildFields() {
	f := &e.f
	entry := func(set func(p *settings.Preset, s string)) *widget.Entry {
		en := widget.NewEntry()
		en.OnChanged = func(s string) { e.edit(func(p *settings.Preset) { set(p, s) }) }
		return en
	}
	password := func(set func(p *settings.Preset, s string)) *widget.Entry {
		en := widget.NewPasswordEntry()
		en.OnChanged = func(s string) { e.edit(func(p *settings.Preset) { set(p, s) }) }
		return en
	}
	check := func(label string, set func(p *settings.Preset, b bool)) *widget.Check {
		return widget.NewCheck(label, func(b bool) { e.edit(func(p *settings.Preset) { set(p, b) }) })
	}
	pick := func(opts []option, set func(p *settings.Preset, v string)) *choice {
		return newChoice(opts, func(v string) { e.edit(func(p *settings.Preset) { set(p, v) }) })
	}

	f.name = entry(func(p *settings.Preset, s string) { p.Name = s })
	f.enabled = check(lang.L("Run this preset's pet"), func(p *settings.Preset, b bool) { p.Enabled = b })
	f.character = pick(nil, func(p *settings.Preset, v string) { p.Character = v })
	f.card = widget.NewMultiLineEntry()
	f.card.Wrapping = fyne.TextWrapWord
	f.card.SetMinRowsVisible(5)
	f.card.SetPlaceHolder(lang.L("Who the character is and how it talks, sent as the system prompt. Empty: the character's own card"))
	f.card.OnChanged = func(s string) { e.edit(func(p *settings.Preset) { p.Card = s }) }

	f.chatAPI = pick(chatAPIOptions, func(p *settings.Preset, v string) { p.ChatAPI = v })
	f.baseURL = entry(func(p *settings.Preset, s string) { p.ChatBaseURL = strings.TrimSpace(s) })
	f.key = password(func(p *settings.Preset, s string) { p.Key = s })
	f.keyWarning = widget.NewLabel(lang.L("The key crosses the network unencrypted (ws:// or http:// to another machine). Use wss:// or https://."))
	f.keyWarning.Importance = widget.WarningImportance
	f.keyWarning.Wrapping = fyne.TextWrapWord
	f.keyWarning.Hide()
	f.model = widget.NewSelectEntry(nil)
	f.model.SetPlaceHolder(lang.L("Type a model or pick one from the server's list"))
	f.model.OnChanged = func(s string) { e.edit(func(p *settings.Preset) { p.Model = strings.TrimSpace(s) }) }
	f.refreshModels = widget.NewButtonWithIcon("", theme.ViewRefreshIcon(), e.probe)
	f.effort = pick(effortOptions, func(p *settings.Preset, v string) { p.ReasoningEffort = v })
	f.contextWindow = widget.NewEntry()
	f.budget = newBudgetLabel()
	f.contextWindow.SetPlaceHolder(lang.L("0 = unknown"))
	f.contextWindow.OnChanged = func(s string) {
		e.editInt("context_window", s, func(p *settings.Preset, n int) { p.ContextWindow = n })
	}
	f.chatID = widget.NewLabel("")
	f.chatID.Selectable = true
	f.testConn = widget.NewButtonWithIcon(lang.L("Test connection"), theme.MediaPlayIcon(), e.probe)
	f.probeText = widget.NewLabel("")
	f.probeText.Wrapping = fyne.TextWrapWord

	f.screenOnTurn = pick(screenOnTurnOptions, func(p *settings.Preset, v string) { p.ScreenOnTurn = v })
	f.greeting = check(lang.L("Greet me when the pet starts"), func(p *settings.Preset, b bool) { p.Greeting = b })
	f.poke = check(lang.L("A click on the pet starts a turn"), func(p *settings.Preset, b bool) { p.Poke = b })
	f.gaze = check(lang.L("The eyes follow the pointer when it is near"), func(p *settings.Preset, b bool) { p.Gaze = b })
	f.gravity = check(lang.L("A dropped pet falls onto the window under it"), func(p *settings.Preset, b bool) { p.Gravity = b })
	f.checkIn = widget.NewEntry()
	f.checkIn.SetPlaceHolder(lang.L("0 = off"))
	f.checkIn.OnChanged = func(s string) {
		e.editInt("check_in_minutes", s, func(p *settings.Preset, n int) { p.CheckInMinutes = n })
	}
	f.relation = widget.NewProgressBar()
	f.relation.Min, f.relation.Max = settings.RelationMin, settings.RelationMax
	f.relation.TextFormatter = func() string {
		return fmt.Sprintf("%d / %d", int(f.relation.Value), settings.RelationMax)
	}

	e.buildAudioFields(entry, password, pick)
}

// row is one label/field pair of a form; field names the JSON field whose
// reason shows under the widget ("" for none).
func (e *presetEditor) row(field, label string, obj fyne.CanvasObject, below ...fyne.CanvasObject) []fyne.CanvasObject {
	cell := container.NewVBox(obj)
	if field != "" {
		l := newErrorLabel()
		e.errLabels[field] = l
		e.fieldNames[field] = fieldName(field, label)
		cell.Add(l)
	}
	for _, b := range below {
		cell.Add(b)
	}
	objs := []fyne.CanvasObject{formLabel(label), cell}
	if field != "" {
		e.rowObjs[field] = objs
	}
	return objs
}

// fieldName is how a reason names a field: its label, with the section
// for speech and voice fields ("Speech base URL").
func fieldName(field, label string) string {
	section, _, ok := strings.Cut(field, ".")
	if !ok || label == "" {
		return label
	}
	name := strings.ToUpper(section[:1]) + section[1:] + " "
	if len(label) > 1 && !strings.ContainsAny(label[1:2], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		return name + strings.ToLower(label[:1]) + label[1:]
	}
	return name + label // an acronym stays: "URL"
}

// formLabel is a form's label, at the top of its row so that it stays by
// its field when a reason opens under the field.
func formLabel(text string) fyne.CanvasObject {
	return container.NewVBox(widget.NewLabelWithStyle(text, fyne.TextAlignTrailing, fyne.TextStyle{}))
}

// heading is a section title inside a form, across both columns.
func heading(text string) []fyne.CanvasObject {
	return []fyne.CanvasObject{
		widget.NewLabelWithStyle(text, fyne.TextAlignTrailing, fyne.TextStyle{Bold: true}),
		container.NewVBox(layout.NewSpacer(), widget.NewSeparator(), layout.NewSpacer()),
	}
}

// helpText is an explanation under a section or field: wrapped, in the
// normal text colour (the theme's low-importance grey is too faint to
// read), set apart by italics.
func helpText(text string) *widget.Label {
	l := widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
	l.Wrapping = fyne.TextWrapWord
	return l
}

// page is a tab's content: padded and scrolling inside the window.
func page(objs ...fyne.CanvasObject) fyne.CanvasObject {
	return container.NewVScroll(container.NewPadded(container.NewVBox(objs...)))
}

func rows(parts ...[]fyne.CanvasObject) *fyne.Container {
	return formRows(slices.Concat(parts...)...)
}

func (e *presetEditor) presetTab() fyne.CanvasObject {
	f := &e.f
	model := container.NewBorder(nil, nil, nil, f.refreshModels, f.model)
	test := container.NewBorder(nil, nil, f.testConn, nil, f.probeText)
	return page(rows(
		heading(lang.L("General")),
		e.row("name", lang.L("Name"), f.name),
		e.row("enabled", lang.L("Enabled"), f.enabled),
		e.row("character", lang.L("Character"), f.character.Select),
		e.row("card", lang.L("Card"), f.card),
		heading(lang.L("Backend")),
		e.row("chat_api", lang.L("Chat API"), f.chatAPI.Select),
		e.row("chat_base_url", lang.L("Base URL"), f.baseURL),
		e.row("key", lang.L("Key"), f.key, f.keyWarning),
		e.row("model", lang.L("Model"), model),
		e.row("reasoning_effort", lang.L("Reasoning effort"), f.effort.Select),
		e.row("context_window", lang.L("Context window"), f.contextWindow, f.budget),
		e.row("chat_id", lang.L("Chat id"), f.chatID),
		e.row("", "", test),
		heading(lang.L("Behaviour")),
		e.row("screen_on_turn", lang.L("Screen on a turn"), f.screenOnTurn.Select),
		e.row("greeting", lang.L("Greeting"), f.greeting),
		e.row("poke", lang.L("Poke"), f.poke),
		e.row("gravity", lang.L("Gravity"), f.gravity),
		e.row("gaze", lang.L("Gaze"), f.gaze),
		e.row("check_in_minutes", lang.L("Check in after (min)"), f.checkIn),
		e.row("relation", lang.L("Relation"), f.relation),
	))
}

// fill shows p in the widgets; chars are the character packs to pick from.
func (f *presetFields) fill(p settings.Preset, chars []string) {
	f.name.SetText(p.Name)
	f.enabled.SetChecked(p.Enabled)
	f.character.SetOptions(plainOptions(chars...))
	f.character.SetValue(p.Character)
	f.card.SetText(p.Card)
	f.chatAPI.SetValue(p.ChatAPI)
	f.baseURL.SetText(p.ChatBaseURL)
	f.key.SetText(p.Key)
	f.model.SetText(p.Model)
	f.effort.SetValue(p.ReasoningEffort)
	f.contextWindow.SetText(strconv.Itoa(p.ContextWindow))
	f.chatID.SetText(p.ChatID)
	f.screenOnTurn.SetValue(p.ScreenOnTurn)
	f.greeting.SetChecked(p.Greeting)
	f.poke.SetChecked(p.Poke)
	f.gravity.SetChecked(p.Gravity)
	f.gaze.SetChecked(p.Gaze)
	f.checkIn.SetText(strconv.Itoa(p.CheckInMinutes))
	f.showRelation(p.Relation)

	f.fillAudio(p)
}

// setModels fills the model picker.
func (f *presetFields) setModels(models []string) {
	f.models = slices.Clone(models)
	f.model.SetOptions(f.models)
}

func (f *presetFields) showRelation(score int) { f.relation.SetValue(float64(score)) }

// showKeyWarning shows the clear-text warning for the keys named (the
// fields of settings.Preset.KeysInClear), or hides it when there are none.
func (f *presetFields) showKeyWarning(fields []string) {
	if len(fields) > 0 {
		f.keyWarning.SetText(KeyWarningText(fields))
	}
	widgets.SetShown(f.keyWarning, len(fields) > 0)
}

// KeyWarningText is the settings window's warning for keys that would
// cross the network unencrypted.
func KeyWarningText(fields []string) string {
	if len(fields) == 1 && fields[0] == "key" {
		return lang.L("The key crosses the network unencrypted (ws:// or http:// to another machine). Use wss:// or https://.")
	}
	return lang.L("These keys cross the network unencrypted ({{.Keys}}; ws:// or http:// to another machine). Use wss:// or https://.",
		map[string]any{"Keys": strings.Join(fields, ", ")})
}

// characters lists the packs to pick from: the built-in one and the
// folders under <config dir>/characters, plus current when it is neither
// (a pack folder that went away still shows what the preset holds).
func (w *SettingsWindow) characters(current string) []string {
	out := character.BuiltinIDs()
	entries, err := os.ReadDir(character.Dir(w.b.Store().Dir(), ""))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		w.log.Warn("settings_characters", "err", err)
	}
	for _, de := range entries {
		if de.IsDir() && character.ValidID(de.Name()) && !slices.Contains(out, de.Name()) {
			out = append(out, de.Name())
		}
	}
	if current != "" && !slices.Contains(out, current) {
		out = append(out, current)
	}
	n := len(character.BuiltinIDs())
	slices.Sort(out[n:])
	return out
}

func parseInt(s string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, &settings.Invalid{Code: settings.CodeNotWholeNumber}
	}
	return n, nil
}

func parseFloat(s string) (float64, error) {
	x, err := strconv.ParseFloat(strings.TrimSpace(strings.ReplaceAll(s, ",", ".")), 64)
	if err != nil {
		return 0, &settings.Invalid{Code: settings.CodeNotNumber}
	}
	return x, nil
}
