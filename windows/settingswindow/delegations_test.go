package settingswindow

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"yui/pet"
	"yui/pet/settings"
	"yui/transport"
	"yui/windows/widgets"
)

var sampleHistory = []transport.Delegation{
	{ID: "d-1", Title: "Old finished", StartedAt: 1_000, EndedAt: 5_000, State: "done", Status: "ok", Summary: "All good."},
	{ID: "d-2", Title: "Running early", StartedAt: 2_000, State: "running"},
	{ID: "d-3", Title: "New finished", StartedAt: 3_000, EndedAt: 9_000, State: "done", Status: "error", Summary: "It broke."},
	{ID: "d-4", Title: "Running late", StartedAt: 8_000, State: "running"},
	{ID: "d-5", Title: "Done, no end", StartedAt: 7_000, State: "done", Status: "unknown"},
}

func ids(ds []transport.Delegation) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.ID
	}
	return out
}

func TestOrderHistory(t *testing.T) {
	got := ids(orderHistory(sampleHistory))
	want := []string{"d-4", "d-2", "d-3", "d-5", "d-1"}
	if !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
}

func rowIDs(s *delegationSection) []string {
	var out []string
	for _, r := range s.rows {
		out = append(out, r.item.ID)
	}
	return out
}

func TestSettingsSessionFromStoreAndExpansion(t *testing.T) {
	h := openSettings(t, nil, "")
	id := h.sw.selected
	s := h.sw.session
	if !s.empty.Visible() {
		t.Fatal("no empty note with no history")
	}
	if err := h.b.Settings.Update(func(st *settings.Settings) error {
		st.DelegationHistory[id] = sampleHistory
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got := rowIDs(s); !slices.Equal(got, []string{"d-4", "d-2", "d-3", "d-5", "d-1"}) {
		t.Fatalf("rows %v", got)
	}
	done := s.rows[2] // d-3
	if done.summary.Visible() {
		t.Fatal("summary open before a tap")
	}
	test.Tap(done)
	if !done.summary.Visible() || done.summary.Text != "It broke." {
		t.Fatal("summary did not open")
	}
	if !strings.HasPrefix(done.meta.Text, "Done · failed · ") {
		t.Fatalf("meta %q", done.meta.Text)
	}
	// A refresh keeps it open.
	more := append(slices.Clone(sampleHistory), transport.Delegation{ID: "d-6", Title: "Newest", StartedAt: 9_500, EndedAt: 9_900, State: "done", Status: "ok"})
	if err := h.b.Settings.Update(func(st *settings.Settings) error {
		st.DelegationHistory[id] = more
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got := rowIDs(s); !slices.Equal(got, []string{"d-4", "d-2", "d-6", "d-3", "d-5", "d-1"}) {
		t.Fatalf("rows %v", got)
	}
	if !s.rows[3].summary.Visible() {
		t.Fatal("the opened summary closed on refresh")
	}
	test.Tap(s.rows[3])
	if s.rows[3].summary.Visible() {
		t.Fatal("a second tap did not close it")
	}
	// A running item has nothing to open.
	test.Tap(s.rows[0])
	if s.rows[0].summary.Visible() {
		t.Fatal("a running item opened")
	}
}

func TestSettingsConnectionMirrorsPreset(t *testing.T) {
	h := openSettings(t, nil, "")
	c := h.sw.conn
	if c.state.Text != "not running" || !c.reconnect.Disabled() || !c.reset.Disabled() {
		t.Fatalf("state %q, buttons %v %v", c.state.Text, c.reconnect.Disabled(), c.reset.Disabled())
	}
	conn := h.b.Run(h.sw.selected)
	if c.state.Text != "ready" || c.reconnect.Disabled() {
		t.Fatalf("after start: state %q", c.state.Text)
	}
	conn.Publish(pet.View{Pill: pet.Pill{Conn: "key rejected", ConnState: transport.StateKeyRejected},
		History: sampleHistory[:2]})
	if c.state.Text != "key rejected" || c.dot.FillColor != widgets.ColFailed {
		t.Fatalf("state %q colour %v", c.state.Text, c.dot.FillColor)
	}
	if got := rowIDs(h.sw.session); !slices.Equal(got, []string{"d-2", "d-1"}) {
		t.Fatalf("session rows from the view %v", got)
	}
	test.Tap(c.reconnect)
	if conn.Reconnects != 1 {
		t.Fatalf("reconnects %d", conn.Reconnects)
	}
	test.Tap(c.reset)
	test.Tap(h.overlayButton("Cancel"))
	if conn.Resets != 0 {
		t.Fatal("reset without confirmation")
	}
	test.Tap(c.reset)
	test.Tap(h.overlayButton("Reset"))
	if conn.Resets != 1 {
		t.Fatalf("resets %d", conn.Resets)
	}

	// Another preset selected: the first one's views no longer land.
	p, err := h.b.Settings.AddPreset("Second")
	if err != nil {
		t.Fatal(err)
	}
	h.sw.selectPreset(p.ID)
	conn.Publish(pet.View{Pill: pet.Pill{Conn: "ready", ConnState: transport.StateReady}})
	if c.state.Text != "not running" {
		t.Fatalf("state %q for a preset that is not running", c.state.Text)
	}
	// Closing stops the watch.
	h.sw.Close()
	n := conn.Watchers()
	if n != 0 {
		t.Fatalf("%d watchers left after Close", n)
	}
}

// A new history reuses the rows of the items that did not change and
// builds rows only for new or changed items.
func TestSessionReusesUnchangedRows(t *testing.T) {
	test.NewTempApp(t)
	s := newSessionSection(nil)
	s.show(sampleHistory)
	before := map[string]*delegationRow{}
	for _, r := range s.rows {
		before[r.item.ID] = r
	}
	next := slices.Clone(sampleHistory)
	next[1].State, next[1].EndedAt, next[1].Status = "done", 9_500, "ok" // d-2 finished
	next = append(next, transport.Delegation{ID: "d-6", Title: "Newest", StartedAt: 9_000, State: "running"})
	s.show(next)
	if got := rowIDs(s); !slices.Equal(got, []string{"d-6", "d-4", "d-2", "d-3", "d-5", "d-1"}) {
		t.Fatalf("rows %v", got)
	}
	for _, r := range s.rows {
		switch id := r.item.ID; id {
		case "d-2", "d-6":
			if before[id] == r {
				t.Errorf("%s changed or is new, and kept an old row", id)
			}
		default:
			if before[id] != r {
				t.Errorf("%s did not change, and got a new row", id)
			}
		}
	}
	if s.rows[2].item.State != "done" {
		t.Errorf("d-2's row shows %q", s.rows[2].item.State)
	}
}
