package settingswindow

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"yui/pet/settings"
	"yui/windows/i18n"
	"yui/windows/widgets"
)

// lifeSection is the Life tab (docs/product.md §11): how chatty the
// selected preset's character may be on her own, her quiet hours, each
// trigger, the watch list, the private titles, the schedules (add, edit,
// delete) and the pending reminders (delete). Its own Save writes the life
// object only; the change applies at once, with no reconnect.
type lifeSection struct {
	w  *SettingsWindow
	id string // the selected preset; "" before one is

	talk      *choice
	quiet     *widget.Entry
	first     *widget.Check
	away      *widget.Entry
	watch     *widget.Entry
	screen    *widget.Entry
	private   *widget.Entry
	errs      map[string]*widget.Label // life.<field> → its reason
	schedules []settings.Schedule      // as edited, saved with Save
	schedList *fyne.Container
	remList   *fyne.Container
	saved     *widget.Label
}

func newLifeSection(w *SettingsWindow) *lifeSection {
	s := &lifeSection{w: w, errs: map[string]*widget.Label{}}
	s.talk = newChoice(talkOptions, nil)
	s.quiet = widget.NewEntry()
	s.quiet.SetPlaceHolder("23:00-07:00")
	s.first = widget.NewCheck(lang.L("Say hello at the first activity of the day"), nil)
	s.away = widget.NewEntry()
	s.away.SetPlaceHolder(lang.L("0 = off"))
	s.watch = widget.NewEntry()
	s.watch.SetPlaceHolder(lang.L("words, separated by commas"))
	s.screen = widget.NewEntry()
	s.screen.SetPlaceHolder(lang.L("0 = off"))
	s.private = widget.NewEntry()
	s.private.SetPlaceHolder(lang.L("words, separated by commas"))
	s.schedList = container.NewVBox()
	s.remList = container.NewVBox()
	s.saved = widget.NewLabel("")
	store := w.b.Store()
	w.unsub = append(w.unsub, store.Subscribe(func(settings.Change) {
		fyne.Do(s.reloadReminders) // a reminder set, fired or cancelled
	}))
	return s
}

// field is one labelled row with its reason under it.
func (s *lifeSection) field(key, label string, obj fyne.CanvasObject) fyne.CanvasObject {
	l := newErrorLabel()
	s.errs["life."+key] = l
	return container.NewVBox(widget.NewLabelWithStyle(label, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), obj, l)
}

func (s *lifeSection) content() fyne.CanvasObject {
	help := helpText(lang.L("She sometimes speaks first: at your first activity of the day, when you come back, when you switch to an app you name, on a look at a changed screen, at your schedules, reminders and events. Talkativeness and quiet hours hold the first kinds back; schedules, reminders and events are what you asked for and always come. Nothing starts while you type, while she is busy or hidden, or while you are away."))
	addSched := widget.NewButtonWithIcon(lang.L("Add schedule…"), theme.ContentAddIcon(), func() { s.editSchedule(-1) })
	save := widget.NewButtonWithIcon(lang.L("Save"), theme.DocumentSaveIcon(), s.save)
	save.Importance = widget.HighImportance
	return page(
		widget.NewLabelWithStyle(lang.L("Life"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), help,
		s.field("talk", lang.L("Talkativeness (turns of her own an hour: off 0, rare 1, normal 2, chatty 4)"), s.talk.Select),
		s.field("quiet_hours", lang.L("Quiet hours (HH:MM-HH:MM, empty for none)"), s.quiet),
		s.first,
		s.field("back_from_away_minutes", lang.L("Welcome back after this many minutes away (1–720)"), s.away),
		s.field("watch_apps", lang.L("Apps to notice a switch to"), s.watch),
		s.field("screen_watch_minutes", lang.L("Look at the screen every this many minutes when it changed (5–240; needs screen access)"), s.screen),
		s.field("private_titles", lang.L("Private windows: no screenshot while the active window's title holds one of these words"), s.private),
		s.field("schedules", lang.L("Schedules"), container.NewVBox(s.schedList, addSched)),
		container.NewHBox(save, s.saved),
		widget.NewSeparator(),
		widget.NewLabelWithStyle(lang.L("Pending reminders"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		helpText(lang.L("Reminders she set with her remind tool (Chat Completions and the Responses API).")),
		s.remList,
	)
}

// attach shows preset p's life settings and reminders.
func (s *lifeSection) attach(id string, p settings.Preset) {
	s.id = id
	l := p.Life
	s.talk.SetValue(string(l.Talk))
	s.quiet.SetText(l.QuietHours)
	s.first.SetChecked(l.FirstActivity)
	s.away.SetText(strconv.Itoa(l.BackFromAwayMinutes))
	s.watch.SetText(strings.Join(l.WatchApps, ", "))
	s.screen.SetText(strconv.Itoa(l.ScreenWatchMinutes))
	s.private.SetText(strings.Join(l.PrivateTitles, ", "))
	s.schedules = slices.Clone(l.Schedules)
	s.showErrors(nil)
	s.saved.SetText("")
	s.showSchedules()
	s.reloadReminders()
}

// words splits a comma-separated entry.
func words(s string) []string {
	out := []string{}
	for _, w := range strings.Split(s, ",") {
		if w = strings.TrimSpace(w); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// number reads a minutes entry; text that is not a number is reported at the field.
func number(s string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	return n, err == nil
}

// draft is the life object the fields say, and the reasons of the
// fields that are not numbers.
func (s *lifeSection) draft() (settings.Life, []settings.FieldError) {
	var errs []settings.FieldError
	l := settings.Life{Talk: settings.Talk(s.talk.Value()), QuietHours: strings.TrimSpace(s.quiet.Text),
		FirstActivity: s.first.Checked, WatchApps: words(s.watch.Text), PrivateTitles: words(s.private.Text),
		Schedules: slices.Clone(s.schedules)}
	var ok bool
	if l.BackFromAwayMinutes, ok = number(s.away.Text); !ok {
		errs = append(errs, settings.FieldError{Field: "life.back_from_away_minutes", Code: settings.CodeNotWholeNumber})
	}
	if l.ScreenWatchMinutes, ok = number(s.screen.Text); !ok {
		errs = append(errs, settings.FieldError{Field: "life.screen_watch_minutes", Code: settings.CodeNotWholeNumber})
	}
	return l, errs
}

// save validates the fields, showing each reason at its field, and saves.
func (s *lifeSection) save() {
	if s.id == "" {
		return
	}
	l, errs := s.draft()
	errs = append(errs, l.Validate(s.id)...)
	s.showErrors(errs)
	if len(errs) > 0 {
		s.saved.SetText(lang.L("Not saved: see the reasons above."))
		return
	}
	if err := s.w.b.Store().UpdatePreset(s.id, func(p *settings.Preset) error { p.Life = l; return nil }); err != nil {
		s.saved.SetText(lang.L("Not saved: {{.Reason}}", map[string]any{"Reason": i18n.Error(err)}))
		return
	}
	// The preset editor's Save writes the whole preset from its draft: the
	// draft takes the saved life object so that it does not put it back.
	if ed := s.w.ed; ed != nil && ed.id == s.id {
		ed.base.Life, ed.draft.Life = l, l
	}
	s.w.log.Info("settings_life_saved", "preset", s.id)
	s.saved.SetText(lang.L("Saved."))
}

// showErrors shows each field's reason; a schedule's go under Schedules.
func (s *lifeSection) showErrors(errs []settings.FieldError) {
	for _, l := range s.errs {
		l.SetText("")
		l.Hide()
	}
	for _, e := range errs {
		key := e.Field
		if strings.HasPrefix(key, "life.schedules.") {
			key = "life.schedules"
		}
		if l, ok := s.errs[key]; ok {
			why := i18n.Reason(e.Code, e.Args)
			if l.Text != "" {
				why = l.Text + lang.L("; ") + why
			}
			l.SetText(why)
			l.Show()
		}
	}
}

// showSchedules lists the schedules as edited.
func (s *lifeSection) showSchedules() {
	s.schedList.RemoveAll()
	if len(s.schedules) == 0 {
		s.schedList.Add(widget.NewLabel(lang.L("No schedules.")))
	}
	for i, sc := range s.schedules {
		edit := widget.NewButtonWithIcon("", theme.DocumentCreateIcon(), func() { s.editSchedule(i) })
		del := widget.NewButtonWithIcon("", theme.DeleteIcon(), func() {
			s.schedules = slices.Delete(s.schedules, i, i+1)
			s.showSchedules()
		})
		row := widget.NewLabel(fmt.Sprintf("%s  %s  %s", sc.At, options(daysOptions).label(string(sc.Days)), sc.Note))
		s.schedList.Add(container.NewBorder(nil, nil, nil, container.NewHBox(edit, del), row))
	}
	s.schedList.Refresh() // Add and RemoveAll do not repaint (servers.go, setObjects)
}

// editSchedule opens the form of schedule i, or of a new one (i < 0).
func (s *lifeSection) editSchedule(i int) {
	sc := settings.Schedule{At: "12:30", Days: settings.DaysDaily}
	if i >= 0 && i < len(s.schedules) {
		sc = s.schedules[i]
	}
	at := widget.NewEntry()
	at.SetText(sc.At)
	days := newChoice(daysOptions, nil)
	days.SetValue(string(sc.Days))
	note := widget.NewEntry()
	note.SetText(sc.Note)
	reason := newErrorLabel()
	items := []*widget.FormItem{
		widget.NewFormItem(lang.L("At (HH:MM)"), at),
		widget.NewFormItem(lang.L("Days"), days.Select),
		widget.NewFormItem(lang.L("Note"), note),
		widget.NewFormItem("", reason),
	}
	var d dialog.Dialog
	d = dialog.NewForm(lang.L("Schedule"), lang.L("OK"), lang.L("Cancel"), items, func(ok bool) {
		if !ok {
			return
		}
		next := settings.Schedule{At: strings.TrimSpace(at.Text), Days: settings.Days(days.Value()), Note: strings.TrimSpace(note.Text)}
		if errs := next.Validate(); len(errs) > 0 {
			var why []string
			for _, e := range errs {
				why = append(why, i18n.Field(e))
			}
			reason.SetText(strings.Join(why, lang.L("; ")))
			reason.Show()
			d.Show() // the form stays open with its reason
			return
		}
		if i >= 0 && i < len(s.schedules) {
			s.schedules[i] = next
		} else {
			s.schedules = append(s.schedules, next)
		}
		s.showSchedules()
		s.saved.SetText(lang.L("Not saved yet."))
	}, s.w.win)
	d.Resize(fyne.NewSize(420, 260))
	d.Show()
}

// reloadReminders lists the preset's pending reminders, with delete.
func (s *lifeSection) reloadReminders() {
	if s.id == "" || s.w.win == nil {
		return
	}
	rs := s.w.b.Store().ReminderStore(s.id)
	list := rs.Reminders()
	s.remList.RemoveAll()
	if len(list) == 0 {
		s.remList.Add(widget.NewLabel(lang.L("No reminders.")))
	}
	for _, r := range list {
		id := r.ID
		del := widget.NewButtonWithIcon("", theme.DeleteIcon(), func() {
			if err := rs.RemoveReminder(id); err != nil {
				s.w.log.Warn("settings_reminder_delete", "id", id, "err", err.Error())
			}
			s.reloadReminders()
		})
		row := widget.NewLabel(fmt.Sprintf("#%d  %s  %s", r.ID, widgets.FormatDateTime(r.At.Local()), r.Text))
		s.remList.Add(container.NewBorder(nil, nil, nil, del, row))
	}
	s.remList.Refresh() // Add and RemoveAll do not repaint (servers.go, setObjects)
}

// talkOptions and daysOptions label the life settings' values for the
// user; the values are what settings.json holds (pet/settings/life.go).
var (
	talkOptions = []option{{string(settings.TalkOff), "Off"}, {string(settings.TalkRare), "Rare"},
		{string(settings.TalkNormal), "Normal"}, {string(settings.TalkChatty), "Chatty"}}
	daysOptions = []option{{string(settings.DaysDaily), "Every day"}, {string(settings.DaysWeekdays), "Weekdays"},
		{string(settings.DaysWeekends), "Weekends"}}
)
