package life

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/pet/settings"
	"yui/transport"
	"yui/transport/clock/clocktest"
)

var zone = time.FixedZone("KST", 9*3600)

// rig is a scheduler over a fake clock, a settable gate, an in-memory
// reminder list and a recorded log.
type rig struct {
	t     *testing.T
	clk   *clocktest.Fake
	s     *Scheduler
	mu    sync.Mutex
	life  settings.Life
	gate  Reason
	turns []Turn
	logs  bytes.Buffer
	input time.Time // the user's last input
	rem   *memReminders
	shot  *fakeScreen
}

func newRig(t *testing.T, at time.Time, edit func(*settings.Life)) *rig {
	t.Helper()
	r := &rig{t: t, clk: clocktest.NewFake(at), life: settings.DefaultLife(), rem: &memReminders{}, shot: &fakeScreen{}}
	r.life.QuietHours = ""
	if edit != nil {
		edit(&r.life)
	}
	r.input = at
	r.s = New(Options{
		Clock: r.clk, Location: zone,
		Log:           slog.New(slog.NewJSONHandler(&lockedWriter{w: &r.logs, mu: &r.mu}, nil)),
		Life:          func() settings.Life { r.mu.Lock(); defer r.mu.Unlock(); return r.life },
		Gate:          func() Reason { r.mu.Lock(); defer r.mu.Unlock(); return r.gate },
		ScreenAllowed: func() bool { return true },
		Screen:        r.shot,
		Reminders:     r.rem,
		Start: func(t Turn) bool {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.turns = append(r.turns, t)
			return true
		},
	})
	t.Cleanup(r.s.Close)
	return r
}

type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (r *rig) setGate(g Reason) { r.mu.Lock(); r.gate = g; r.mu.Unlock() }

// sample feeds one desktop sample; touch first makes it show new input.
func (r *rig) sample(touch bool, w *Window) {
	if touch {
		r.input = r.clk.Now()
	}
	smp := Sample{Idle: r.clk.Now().Sub(r.input), IdleKnown: true}
	if w != nil {
		smp.Window, smp.HasWindow = *w, true
	}
	r.s.Observe(smp)
}

// idleFor lets d pass with a sample each second and no input.
func (r *rig) idleFor(d time.Duration) {
	for end := r.clk.Now().Add(d); r.clk.Now().Before(end); {
		r.clk.Advance(time.Second)
		r.sample(false, nil)
	}
}

func (r *rig) triggers() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, t := range r.turns {
		out = append(out, string(t.Trigger))
	}
	return out
}

// records returns the life_* records as "name trigger reason".
func (r *rig) records() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(r.logs.String()), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) != nil {
			continue
		}
		msg, _ := m["msg"].(string)
		if !strings.HasPrefix(msg, "life_") {
			continue
		}
		s := msg + " " + str(m["trigger"])
		if reason := str(m["reason"]); reason != "" {
			s += " " + reason
		}
		out = append(out, s)
	}
	return out
}

func str(v any) string { s, _ := v.(string); return s }

func (r *rig) wantTriggers(want ...string) {
	r.t.Helper()
	if got := r.triggers(); !slices.Equal(got, want) {
		r.t.Fatalf("turns = %q, want %q", got, want)
	}
}

func (r *rig) wantRecords(want ...string) {
	r.t.Helper()
	if got := r.records(); !slices.Equal(got, want) {
		r.t.Fatalf("records = %q, want %q", got, want)
	}
}

type memReminders struct {
	mu   sync.Mutex
	list []settings.Reminder
}

func (m *memReminders) Reminders() []settings.Reminder {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.list)
}

func (m *memReminders) RemoveReminder(id int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	i := slices.IndexFunc(m.list, func(r settings.Reminder) bool { return r.ID == id })
	if i < 0 {
		return settings.ErrNoReminder
	}
	m.list = slices.Delete(m.list, i, i+1)
	return nil
}

type fakeScreen struct {
	mu      sync.Mutex
	data    string
	private bool
	shots   int
}

func (f *fakeScreen) set(data string, private bool) {
	f.mu.Lock()
	f.data, f.private = data, private
	f.mu.Unlock()
}

func (f *fakeScreen) Shot() (*transport.Screenshot, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.private {
		return nil, ErrPrivate
	}
	f.shots++
	return &transport.Screenshot{Image: transport.Image{MIME: "image/jpeg", Data: []byte(f.data)}}, nil
}

// 09:00 on a Monday.
var monday9 = time.Date(2026, 9, 14, 9, 0, 0, 0, zone)

func TestFirstActivityOncePerDay(t *testing.T) {
	r := newRig(t, monday9, func(l *settings.Life) { l.BackFromAwayMinutes = 0 })
	r.sample(false, nil) // the baseline: no turn at start
	r.wantTriggers()
	r.clk.Advance(time.Second)
	r.sample(true, nil)
	r.wantTriggers("first activity today")
	r.clk.Advance(2 * time.Second)
	r.sample(true, nil)
	r.idleFor(3 * time.Second)
	r.sample(true, nil)
	r.wantTriggers("first activity today")
	// 04:59 the next day is still the same day; 05:00 starts a new one.
	r.clk.Advance(time.Date(2026, 9, 15, 4, 59, 0, 0, zone).Sub(r.clk.Now()))
	r.sample(true, nil)
	r.wantTriggers("first activity today")
	r.clk.Advance(time.Minute)
	r.sample(true, nil)
	r.wantTriggers("first activity today", "first activity today")
	r.wantRecords("life_turn first_activity", "life_turn first_activity")
}

func TestBackFromAway(t *testing.T) {
	r := newRig(t, monday9, func(l *settings.Life) { l.FirstActivity, l.BackFromAwayMinutes = false, 30 })
	r.sample(false, nil)
	r.idleFor(29 * time.Minute)
	r.sample(true, nil) // 29 minutes is not away
	r.wantTriggers()
	r.idleFor(42*time.Minute + 30*time.Second)
	r.clk.Advance(time.Second)
	r.sample(true, nil)
	r.wantTriggers("back from away (42 min)")
	r.wantRecords("life_turn back_from_away")
}

func TestAppSwitch(t *testing.T) {
	r := newRig(t, monday9, func(l *settings.Life) {
		l.FirstActivity, l.WatchApps = false, []string{"steam", "YouTube"}
	})
	term := Window{ID: 1, App: "xterm", Title: "bash"}
	r.sample(false, &term)
	r.sample(false, &Window{ID: 2, App: "Steam", Title: "Library"})
	r.sample(false, &Window{ID: 2, App: "Steam", Title: "Library — store"}) // same window
	r.sample(false, &term)
	r.sample(false, &Window{ID: 3, App: "", Title: "Cats - youtube"})
	r.sample(false, &Window{ID: 4, App: "firefox", Title: "YouTube — Private Browsing"})
	r.wantTriggers(`app switch to "Steam"`, `app switch to "Cats - youtube"`)
	r.wantRecords("life_turn app_switch", "life_turn app_switch", "life_skipped app_switch private")
}

func TestScreenWatchOnlyWhenChanged(t *testing.T) {
	r := newRig(t, monday9, func(l *settings.Life) { l.FirstActivity, l.ScreenWatchMinutes, l.Talk = false, 5, settings.TalkChatty })
	r.shot.set("screen A", false)
	r.clk.Advance(5 * time.Minute)
	r.wantTriggers("screen watch")
	if r.turns[0].Screenshot == nil || string(r.turns[0].Screenshot.Image.Data) != "screen A" {
		t.Fatalf("screen watch turn without its screenshot: %+v", r.turns[0])
	}
	r.clk.Advance(5 * time.Minute) // unchanged: nothing
	r.wantTriggers("screen watch")
	r.shot.set("screen B", false)
	r.clk.Advance(5 * time.Minute)
	r.wantTriggers("screen watch", "screen watch")
	r.shot.set("screen C", true) // a private window: nothing is captured
	before := r.shot.shots
	r.clk.Advance(5 * time.Minute)
	r.wantTriggers("screen watch", "screen watch")
	if r.shot.shots != before {
		t.Fatal("a screenshot was taken while a private window was active")
	}
	r.wantRecords("life_turn screen_watch", "life_turn screen_watch", "life_skipped screen_watch private")
}

func TestScreenWatchPrivateTitleSkipsCapture(t *testing.T) {
	r := newRig(t, monday9, func(l *settings.Life) { l.FirstActivity, l.ScreenWatchMinutes = false, 5 })
	r.shot.set("screen A", false)
	r.sample(false, &Window{ID: 9, App: "KeePassXC", Title: "Passwords.kdbx - KeePassXC"})
	r.clk.Advance(5 * time.Minute)
	r.wantTriggers()
	if r.shot.shots != 0 {
		t.Fatal("captured under a private title")
	}
	r.wantRecords("life_skipped screen_watch private")
}

func TestScheduleAtItsTime(t *testing.T) {
	r := newRig(t, monday9, func(l *settings.Life) {
		l.FirstActivity = false
		l.Schedules = []settings.Schedule{{At: "09:02", Days: settings.DaysDaily, Note: "stand up"},
			{At: "09:02", Days: settings.DaysWeekends, Note: "weekend only"}}
	})
	r.clk.Advance(time.Minute + 59*time.Second)
	r.wantTriggers()
	r.clk.Advance(time.Second)
	r.wantTriggers(`schedule "stand up"`)
	r.clk.Advance(24 * time.Hour)
	r.wantTriggers(`schedule "stand up"`, `schedule "stand up"`)
	r.wantRecords("life_turn schedule", "life_turn schedule")
}

func TestReminderOnTimeLateAndDropped(t *testing.T) {
	r := newRig(t, monday9, nil)
	r.rem.list = []settings.Reminder{
		{ID: 1, Text: "call mum", At: monday9.Add(-25 * time.Minute)}, // due while the app was stopped
		{ID: 2, Text: "too old", At: monday9.Add(-13 * time.Hour)},
		{ID: 3, Text: "tea", At: monday9.Add(90 * time.Second)},
	}
	r.clk.Advance(time.Second)
	r.wantTriggers(`reminder "call mum" (25 min late)`)
	r.clk.Advance(time.Minute + 29*time.Second)
	r.wantTriggers(`reminder "call mum" (25 min late)`, `reminder "tea"`)
	if len(r.rem.Reminders()) != 0 {
		t.Fatalf("reminders left: %+v", r.rem.Reminders())
	}
	r.wantRecords("life_turn reminder", "life_skipped reminder late", "life_turn reminder")
}

func TestHoldsWaitThenRunLate(t *testing.T) {
	r := newRig(t, monday9, func(l *settings.Life) { l.FirstActivity = false })
	r.rem.list = []settings.Reminder{{ID: 1, Text: "tea", At: monday9.Add(time.Minute)}}
	r.setGate(ReasonBusy) // the composer holds text
	r.clk.Advance(10 * time.Minute)
	r.wantTriggers()
	r.setGate(ReasonNone)
	r.clk.Advance(time.Second)
	r.wantTriggers(`reminder "tea" (9 min late)`)
	r.wantRecords("life_skipped reminder busy", "life_turn reminder")
}

func TestCapAndQuietHours(t *testing.T) {
	r := newRig(t, time.Date(2026, 9, 14, 22, 0, 0, 0, zone), func(l *settings.Life) {
		l.Talk, l.QuietHours, l.WatchApps, l.FirstActivity = settings.TalkRare, "23:00-07:00", []string{"steam"}, false
		l.Schedules = []settings.Schedule{{At: "23:30", Days: settings.DaysDaily, Note: "bed"}}
	})
	steam := func(id uint64) *Window { return &Window{ID: id, App: "steam"} }
	other := &Window{ID: 100, App: "xterm"}
	r.sample(false, other)
	r.sample(false, steam(1)) // the one turn of the hour
	r.sample(false, other)
	r.sample(false, steam(2)) // cap
	if r.s.AllowCheckIn() {
		t.Fatal("a check-in passed the cap")
	}
	r.clk.Advance(time.Hour + time.Minute) // 23:01: quiet hours
	r.sample(true, other)
	r.sample(false, steam(3))
	r.rem.list = []settings.Reminder{{ID: 1, Text: "pills", At: r.clk.Now().Add(time.Minute)}}
	r.clk.Advance(30 * time.Minute) // 23:31: the reminder and the schedule still run
	r.clk.Advance(time.Second)
	r.wantTriggers(`app switch to "steam"`, `reminder "pills"`, `schedule "bed"`)
	r.wantRecords("life_turn app_switch", "life_skipped app_switch cap", "life_skipped check_in cap",
		"life_skipped app_switch quiet_hours", "life_turn reminder", "life_turn schedule")
}

func TestCapIsASlidingHour(t *testing.T) {
	r := newRig(t, monday9, func(l *settings.Life) { l.Talk, l.FirstActivity = settings.TalkNormal, false })
	for i := range 2 {
		if !r.s.AllowCheckIn() {
			t.Fatalf("check-in %d held", i)
		}
		r.clk.Advance(20 * time.Minute)
	}
	if r.s.AllowCheckIn() {
		t.Fatal("third check-in within the hour passed")
	}
	r.clk.Advance(21 * time.Minute) // the first one is an hour old
	if !r.s.AllowCheckIn() {
		t.Fatal("check-in held after the hour slid on")
	}
}

func TestAwayHoldsButReturnRuns(t *testing.T) {
	r := newRig(t, monday9, func(l *settings.Life) { l.FirstActivity, l.BackFromAwayMinutes = false, 10 })
	r.sample(false, nil)
	r.idleFor(11 * time.Minute)
	if err := r.s.Event("build", "done"); err != nil {
		t.Fatal(err)
	}
	r.idleFor(5 * time.Second)
	r.wantTriggers()
	r.clk.Advance(time.Second)
	r.sample(true, nil) // the return runs; the event waits for it
	r.setGate(ReasonBusy)
	r.clk.Advance(time.Second)
	r.setGate(ReasonNone)
	r.clk.Advance(time.Second)
	r.wantTriggers("back from away (11 min)", `event from "build": "done"`)
	r.wantRecords("life_skipped event away", "life_turn back_from_away", "life_turn event")
}

func TestEventsQueueAndSourceCap(t *testing.T) {
	r := newRig(t, monday9, nil)
	r.setGate(ReasonOffline)
	for i := range MaxEvents {
		if err := r.s.Event("a", "x"); err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
	}
	if err := r.s.Event("b", "x"); !errors.Is(err, ErrEventsFull) {
		t.Fatalf("11th waiting event: %v", err)
	}
	if err := r.s.Event("", " "); !errors.Is(err, ErrEmptyEvent) {
		t.Fatalf("empty event: %v", err)
	}
	r.setGate(ReasonNone)
	for range MaxEvents {
		r.clk.Advance(time.Second)
	}
	if n := len(r.triggers()); n != MaxEvents {
		t.Fatalf("%d events ran", n)
	}
	r.s.Event("a", "x")
	r.s.Event("a", "x")
	if err := r.s.Event("a", "x"); !errors.Is(err, ErrSourceCap) {
		t.Fatalf("13th event of a source in an hour: %v", err)
	}
	if err := r.s.Event("", "from the cli"); err != nil {
		t.Fatal(err)
	}
	r.clk.Advance(3 * time.Second)
	if got := r.triggers(); got[len(got)-1] != `event from "cli": "from the cli"` {
		t.Fatalf("last = %q", got[len(got)-1])
	}
}

func TestOffTalkHoldsEveryCappedKind(t *testing.T) {
	r := newRig(t, monday9, func(l *settings.Life) { l.Talk = settings.TalkOff })
	r.sample(false, nil)
	r.clk.Advance(time.Second)
	r.sample(true, nil)
	r.wantTriggers()
	r.wantRecords("life_skipped first_activity cap")
}

func TestMatches(t *testing.T) {
	for _, c := range []struct {
		words []string
		s     string
		want  bool
	}{
		{[]string{"password"}, "Enter PASSWORD", true},
		{[]string{"private browsing"}, "Mozilla Firefox Private Browsing", true},
		{[]string{"", " "}, "anything", false},
		{[]string{"code"}, "", false},
		{nil, "x", false},
	} {
		if got := Matches(c.words, c.s); got != c.want {
			t.Errorf("Matches(%q, %q) = %v", c.words, c.s, got)
		}
	}
}
