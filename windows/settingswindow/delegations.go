package settingswindow

import (
	"cmp"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"yui/transport"
)

// delegationSection lists the delegation history of the selected preset
// (docs/protocol/push-transport.md, delegations): running work first, then finished work
// newest first; a finished item's summary opens under its row.
type delegationSection struct {
	w     *SettingsWindow
	items []transport.Delegation
	open  map[string]bool // summaries opened, by delegation id
	rows  []*delegationRow
	// byID holds the rows shown, by delegation id: a new list reuses the
	// row of every item that did not change. Building all of them anew on
	// every delegations frame made the driver keep a minute of discarded
	// rows (the chaos soak's settings window grew by a few MB a minute).
	byID map[string]*delegationRow

	list  *fyne.Container
	empty *widget.Label
}

func newSessionSection(w *SettingsWindow) *delegationSection {
	s := &delegationSection{w: w, open: map[string]bool{}}
	s.list = container.NewVBox()
	s.empty = helpText(lang.L("No delegated work yet. A push backend lists here the work it hands to background workers."))
	return s
}

func (s *delegationSection) content() fyne.CanvasObject {
	title := widget.NewLabelWithStyle(lang.L("Delegation history"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	return page(title, s.empty, s.list)
}

// show lists history; it keeps the summaries the user opened.
func (s *delegationSection) show(history []transport.Delegation) {
	items := orderHistory(history)
	if slices.Equal(items, s.items) && len(s.rows) == len(items) {
		return
	}
	s.items = items
	s.rows = s.rows[:0]
	objs := make([]fyne.CanvasObject, 0, len(items))
	next := make(map[string]*delegationRow, len(items))
	for _, d := range items {
		r, ok := s.byID[d.ID]
		if _, dup := next[d.ID]; !ok || dup || r.item != d {
			r = newHistoryRow(d, s.open[d.ID], func(id string, open bool) { s.open[id] = open })
		}
		next[d.ID] = r
		s.rows = append(s.rows, r)
		objs = append(objs, r)
	}
	s.byID = next
	s.list.Objects = objs
	s.list.Refresh()
	if len(items) == 0 {
		s.empty.Show()
	} else {
		s.empty.Hide()
	}
}

// orderHistory returns the history as the Session section lists it:
// running items first (newest started first), then done items newest
// first by ended_at, else started_at.
func orderHistory(history []transport.Delegation) []transport.Delegation {
	out := slices.Clone(history)
	when := func(d transport.Delegation) int64 {
		if d.State != "running" && d.EndedAt != 0 {
			return d.EndedAt
		}
		return d.StartedAt
	}
	slices.SortStableFunc(out, func(a, b transport.Delegation) int {
		ar, br := a.State == "running", b.State == "running"
		if ar != br {
			if ar {
				return -1
			}
			return 1
		}
		return cmp.Compare(when(b), when(a))
	})
	return out
}
