package settingswindow

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"yui/pet/settings"
)

func TestLifeTabSavesAtTheFieldAndListsReminders(t *testing.T) {
	b := newFakeBackend(t)
	id := b.Settings.Get().ActivePreset
	rs := b.Settings.ReminderStore(id)
	if _, err := rs.AddReminder("tea", time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	h := openSettings(t, b, id)
	s := h.sw.life
	if s.talk.Value() != "normal" || s.quiet.Text != "23:00-07:00" || s.away.Text != "30" {
		t.Fatalf("fields = %q %q %q", s.talk.Value(), s.quiet.Text, s.away.Text)
	}
	if n := len(s.remList.Objects); n != 1 {
		t.Fatalf("%d reminder rows", n)
	}
	// A bad value is refused at its field and nothing is saved.
	s.quiet.SetText("late")
	s.screen.SetText("3")
	s.save()
	if !s.errs["life.quiet_hours"].Visible() || !s.errs["life.screen_watch_minutes"].Visible() {
		t.Fatal("reasons not shown at the fields")
	}
	if p, _ := b.Settings.Preset(id); p.Life.QuietHours != "23:00-07:00" {
		t.Fatalf("saved an invalid life: %+v", p.Life)
	}
	s.quiet.SetText("")
	s.screen.SetText("10")
	s.talk.SetValue("chatty")
	s.watch.SetText("steam, YouTube")
	s.schedules = append(s.schedules, settings.Schedule{At: "12:30", Days: settings.DaysWeekdays, Note: "lunch"})
	s.save()
	p, _ := b.Settings.Preset(id)
	if p.Life.Talk != settings.TalkChatty || p.Life.QuietHours != "" || p.Life.ScreenWatchMinutes != 10 ||
		len(p.Life.WatchApps) != 2 || len(p.Life.Schedules) != 1 {
		t.Fatalf("saved life = %+v", p.Life)
	}
	if h.sw.ed.dirty() {
		t.Fatal("the Life tab's save left the preset editor dirty")
	}
	// Delete a reminder from its row.
	del := firstButton(s.remList)
	if del == nil {
		t.Fatal("no delete button")
	}
	test.Tap(del)
	if got := rs.Reminders(); len(got) != 0 {
		t.Fatalf("reminders after delete: %+v", got)
	}
}

// findButton is the first button under o.
func firstButton(o fyne.CanvasObject) *widget.Button {
	switch v := o.(type) {
	case *widget.Button:
		return v
	case *fyne.Container:
		for _, c := range v.Objects {
			if b := firstButton(c); b != nil {
				return b
			}
		}
	}
	return nil
}
