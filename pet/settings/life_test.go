package settings

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"
)

func TestLifeDefaults(t *testing.T) {
	l := DefaultLife()
	if l.Talk != TalkNormal || l.QuietHours != "23:00-07:00" || !l.FirstActivity || l.BackFromAwayMinutes != 30 ||
		len(l.WatchApps) != 0 || l.ScreenWatchMinutes != 0 || len(l.Schedules) != 0 ||
		!slices.Equal(l.PrivateTitles, []string{"password", "1password", "keepass", "bitwarden", "incognito", "inprivate", "private browsing"}) {
		t.Fatalf("defaults = %+v", l)
	}
	if errs := l.Validate("p"); len(errs) != 0 {
		t.Fatalf("defaults invalid: %v", errs)
	}
	for talk, n := range map[Talk]int{TalkOff: 0, TalkRare: 1, TalkNormal: 2, TalkChatty: 4} {
		if talk.PerHour() != n {
			t.Errorf("%s.PerHour() = %d, want %d", talk, talk.PerHour(), n)
		}
	}
}

func TestLifeDecode(t *testing.T) {
	dir := t.TempDir()
	content := `{"version":2,"active_preset":"a","presets":[
	 {"id":"a","name":"A","enabled":true,"character":"yui","chat_id":"yui-00000001","chat_api":"push","chat_base_url":"wss://example.com/ws",
	  "speech":{"engine":"none","rate":1,"volume":1},"voice":{"mode":"off","engine":"openai"},"screen_on_turn":"never"},
	 {"id":"b","name":"B","enabled":true,"character":"yui","chat_id":"yui-00000002","chat_api":"push","chat_base_url":"wss://example.com/ws",
	  "speech":{"engine":"none","rate":1,"volume":1},"voice":{"mode":"off","engine":"openai"},"screen_on_turn":"never",
	  "life":{"talk":"chatty","schedules":[{"at":"12:30","days":"weekdays","note":"lunch"}]}}]}`
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	s, n := open(t, dir)
	if n != nil {
		t.Fatalf("notice = %+v", n)
	}
	a, _ := s.Preset("a")
	if !reflect.DeepEqual(a.Life, DefaultLife()) {
		t.Errorf("a preset with no life object: %+v", a.Life)
	}
	b, _ := s.Preset("b")
	want := DefaultLife()
	want.Talk = TalkChatty
	want.Schedules = []Schedule{{At: "12:30", Days: DaysWeekdays, Note: "lunch"}}
	if !reflect.DeepEqual(b.Life, want) {
		t.Errorf("life = %+v, want %+v", b.Life, want)
	}
}

func TestLifeValidate(t *testing.T) {
	for _, c := range []struct {
		edit  func(*Life)
		field string
	}{
		{func(l *Life) { l.Talk = "loud" }, "life.talk"},
		{func(l *Life) { l.QuietHours = "23:00" }, "life.quiet_hours"},
		{func(l *Life) { l.QuietHours = "25:00-07:00" }, "life.quiet_hours"},
		{func(l *Life) { l.QuietHours = "07:00-07:00" }, "life.quiet_hours"},
		{func(l *Life) { l.BackFromAwayMinutes = 721 }, "life.back_from_away_minutes"},
		{func(l *Life) { l.BackFromAwayMinutes = -1 }, "life.back_from_away_minutes"},
		{func(l *Life) { l.ScreenWatchMinutes = 4 }, "life.screen_watch_minutes"},
		{func(l *Life) { l.ScreenWatchMinutes = 241 }, "life.screen_watch_minutes"},
		{func(l *Life) { l.WatchApps = []string{" "} }, "life.watch_apps"},
		{func(l *Life) { l.PrivateTitles = []string{""} }, "life.private_titles"},
		{func(l *Life) { l.Schedules = []Schedule{{At: "12:60", Days: DaysDaily, Note: "x"}} }, "life.schedules.0.at"},
		{func(l *Life) { l.Schedules = []Schedule{{At: "12:00", Days: "monday", Note: "x"}} }, "life.schedules.0.days"},
		{func(l *Life) { l.Schedules = []Schedule{{At: "12:00", Days: DaysDaily, Note: ""}} }, "life.schedules.0.note"},
	} {
		l := DefaultLife()
		c.edit(&l)
		errs := l.Validate("p")
		if len(errs) != 1 || errs[0].Field != c.field || errs[0].PresetID != "p" || errs[0].Code == "" {
			t.Errorf("%s: errs = %v", c.field, errs)
		}
	}
	l := DefaultLife()
	l.QuietHours, l.BackFromAwayMinutes, l.ScreenWatchMinutes = "", 720, 240
	if errs := l.Validate("p"); len(errs) != 0 {
		t.Errorf("valid life refused: %v", errs)
	}
}

func TestQuietHoursAndDays(t *testing.T) {
	from, to, err := ParseQuietHours("23:00-07:00")
	if err != nil || from != 23*time.Hour || to != 7*time.Hour {
		t.Fatalf("ParseQuietHours = %v %v %v", from, to, err)
	}
	if f, to, err := ParseQuietHours(""); err != nil || f != -1 || to != -1 {
		t.Fatalf("empty quiet hours = %v %v %v", f, to, err)
	}
	if !DaysWeekdays.On(time.Monday) || DaysWeekdays.On(time.Sunday) || !DaysWeekends.On(time.Saturday) || !DaysDaily.On(time.Wednesday) {
		t.Fatal("Days.On")
	}
}

func TestRemindersSurviveReopen(t *testing.T) {
	dir := t.TempDir()
	s, _ := open(t, dir)
	id := s.Get().Presets[0].ID
	rs := s.ReminderStore(id)
	at := time.Date(2026, 9, 14, 15, 0, 0, 0, time.UTC)
	r1, err := rs.AddReminder("tea", at)
	if err != nil || r1.ID != 1 {
		t.Fatalf("AddReminder = %+v, %v", r1, err)
	}
	r2, _ := rs.AddReminder("stretch", at.Add(-time.Hour))
	if r2.ID != 2 {
		t.Fatalf("second id = %d", r2.ID)
	}
	if err := rs.RemoveReminder(9); !errors.Is(err, ErrNoReminder) {
		t.Fatalf("RemoveReminder(9) = %v", err)
	}
	s.Close()
	info, err := os.Stat(s.statePath(id))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("state file: %v %v", info, err)
	}
	s2, _ := open(t, dir)
	got := s2.ReminderStore(id).Reminders()
	if len(got) != 2 || got[0].Text != "stretch" || got[1].Text != "tea" || !got[1].At.Equal(at) {
		t.Fatalf("reminders after reopen = %+v", got)
	}
	if err := s2.ReminderStore(id).RemoveReminder(1); err != nil {
		t.Fatal(err)
	}
	r3, _ := s2.ReminderStore(id).AddReminder("again", at)
	if r3.ID != 3 {
		t.Fatalf("ids are not reused: got %d", r3.ID)
	}
}
