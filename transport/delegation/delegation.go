// Package delegation keeps the backend's delegations list and the client's
// history of it (docs/protocol/push-transport.md "delegations").
package delegation

import (
	"sort"
	"sync"
	"time"

	"yui/transport"
	"yui/transport/textcut"
)

// Limits of docs/protocol/push-transport.md.
const (
	MaxTitle   = 120  // code points
	MaxSummary = 2000 // code points
	MaxItems   = 50
	DoneKept   = 30 * time.Minute // a done item leaves the chip this long after ended_at
	MaxHistory = 200
	// MaxID bounds an item's id, in bytes. The specification sets no
	// limit; without one a backend could store a frame's worth of id per
	// item in the settings file, 200 times over. An item with a longer id
	// is dropped.
	MaxID = 256
)

// Item states and done statuses.
const (
	StateRunning  = "running"
	StateDone     = "done"
	StatusOK      = "ok"
	StatusError   = "error"
	StatusUnknown = "unknown"
)

// clean returns one item cut to the limits, with a done item's status
// normalised to ok, error or unknown. ok is false for an item to drop.
func clean(it transport.Delegation) (transport.Delegation, bool) {
	if it.ID == "" || len(it.ID) > MaxID {
		return it, false
	}
	switch it.State {
	case StateRunning:
	case StateDone:
		switch it.Status {
		case StatusOK, StatusError, StatusUnknown:
		default:
			it.Status = StatusUnknown
		}
	default:
		return it, false
	}
	// The backend already cuts; the client cuts again so a backend that
	// does not cannot grow the chip or the stored history.
	it.Title = textcut.Prefix(it.Title, MaxTitle)
	it.Summary = textcut.Prefix(it.Summary, MaxSummary)
	return it, true
}

// Sanitize returns a frame's items cut to the limits: at most MaxItems,
// titles and summaries cut to their code-point limits, items without an id,
// with an id over MaxID bytes or with an unknown state dropped. A repeated id keeps its first item; a
// done item's status other than ok, error or unknown reads as unknown.
func Sanitize(items []transport.Delegation) []transport.Delegation {
	out := make([]transport.Delegation, 0, min(len(items), MaxItems))
	seen := make(map[string]bool, len(items))
	for _, it := range items {
		if len(out) == MaxItems {
			break
		}
		c, ok := clean(it)
		if !ok || seen[c.ID] {
			continue
		}
		seen[c.ID] = true
		out = append(out, c)
	}
	return out
}

// endedAt is when a done item ended, in epoch milliseconds; an item the
// backend sent without ended_at counts from its start.
func endedAt(it transport.Delegation) int64 {
	if it.EndedAt != 0 {
		return it.EndedAt
	}
	return it.StartedAt
}

// Visible returns the items the chip shows at now: running items, and done
// items whose ended_at is less than DoneKept ago.
func Visible(items []transport.Delegation, now time.Time) []transport.Delegation {
	limit := now.Add(-DoneKept).UnixMilli()
	out := make([]transport.Delegation, 0, len(items))
	for _, it := range items {
		if it.State == StateRunning || (it.State == StateDone && endedAt(it) > limit) {
			out = append(out, it)
		}
	}
	return out
}

// NextExpiry returns when the next done item of items leaves the chip, and
// false when none will: the caller's cue to refresh the chip then.
func NextExpiry(items []transport.Delegation, now time.Time) (time.Time, bool) {
	var next time.Time
	found := false
	for _, it := range Visible(items, now) {
		if it.State != StateDone {
			continue
		}
		at := time.UnixMilli(endedAt(it)).Add(DoneKept)
		if !found || at.Before(next) {
			next, found = at, true
		}
	}
	return next, found
}

// History is every item the client has seen, across backend restarts.
// It is safe for concurrent use.
type History struct {
	store transport.DelegationStore

	mu      sync.Mutex
	items   []transport.Delegation // newest first
	saveErr error
}

// NewHistory loads the history from store (nil keeps it in memory).
func NewHistory(store transport.DelegationStore) *History {
	h := &History{store: store}
	if store != nil {
		var loaded []transport.Delegation
		for _, it := range store.LoadDelegations() {
			if c, ok := clean(it); ok {
				loaded = append(loaded, c)
			}
		}
		h.items = trim(dedupe(loaded))
	}
	return h
}

// dedupe keeps the first item of each id and sorts newest first.
func dedupe(items []transport.Delegation) []transport.Delegation {
	seen := make(map[string]bool, len(items))
	out := items[:0:0]
	for _, it := range items {
		if !seen[it.ID] {
			seen[it.ID] = true
			out = append(out, it)
		}
	}
	sortNewestFirst(out)
	return out
}

// sortNewestFirst orders by started_at, latest first, then by id so the
// order is stable across loads.
func sortNewestFirst(items []transport.Delegation) {
	sort.SliceStable(items, func(i, j int) bool {
		if items[i].StartedAt != items[j].StartedAt {
			return items[i].StartedAt > items[j].StartedAt
		}
		return items[i].ID < items[j].ID
	})
}

// trim drops the oldest done items past MaxHistory; running items always
// stay, so the result may exceed MaxHistory when more than that are running.
func trim(items []transport.Delegation) []transport.Delegation {
	over := len(items) - MaxHistory
	if over <= 0 {
		return items
	}
	out := make([]transport.Delegation, 0, len(items))
	// Walk from the oldest end, skipping done items until enough are gone.
	drop := make([]bool, len(items))
	for i := len(items) - 1; i >= 0 && over > 0; i-- {
		if items[i].State == StateDone {
			drop[i] = true
			over--
		}
	}
	for i, it := range items {
		if !drop[i] {
			out = append(out, it)
		}
	}
	return out
}

// Update merges a new full list at now: items replace their earlier
// versions by id; a running item the list leaves out is recorded as done
// with status "unknown" and ended_at now; past MaxHistory the oldest done
// items are dropped, never a running one. The result is saved to the store
// and returned (newest first).
//
// The list is sanitized first (see Sanitize).
func (h *History) Update(list []transport.Delegation, now time.Time) []transport.Delegation {
	list = Sanitize(list)
	inList := make(map[string]transport.Delegation, len(list))
	for _, it := range list {
		inList[it.ID] = it
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	merged := make([]transport.Delegation, 0, len(h.items)+len(list))
	merged = append(merged, list...)
	for _, it := range h.items {
		if _, ok := inList[it.ID]; ok {
			continue
		}
		if it.State == StateRunning {
			it.State = StateDone
			it.Status = StatusUnknown
			it.EndedAt = now.UnixMilli()
		}
		merged = append(merged, it)
	}
	sortNewestFirst(merged)
	h.items = trim(merged)
	if h.store != nil {
		h.saveErr = h.store.SaveDelegations(h.snapshot())
	}
	return h.snapshot()
}

func (h *History) snapshot() []transport.Delegation {
	return append([]transport.Delegation(nil), h.items...)
}

// Items returns the history, newest first.
func (h *History) Items() []transport.Delegation {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.snapshot()
}

// SaveErr returns the error of the last save to the store, nil when it
// succeeded. The history in memory stays current either way.
func (h *History) SaveErr() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.saveErr
}
