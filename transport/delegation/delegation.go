// Package delegation keeps the backend's delegations list and the client's
// history of it (push-transport.md "delegations").
package delegation

import (
	"time"

	"yui/transport"
)

// Limits of push-transport.md.
const (
	MaxTitle   = 120  // code points
	MaxSummary = 2000 // code points
	MaxItems   = 50
	DoneKept   = 30 * time.Minute // a done item leaves the chip this long after ended_at
	MaxHistory = 200
)

// Sanitize returns a frame's items cut to the limits: at most MaxItems,
// titles and summaries cut to their code-point limits, items without an id
// or with an unknown state dropped.
func Sanitize(items []transport.Delegation) []transport.Delegation { panic("TODO") }

// Visible returns the items the chip shows at now: running items, and done
// items whose ended_at is less than DoneKept ago.
func Visible(items []transport.Delegation, now time.Time) []transport.Delegation { panic("TODO") }

// History is every item the client has seen, across backend restarts.
type History struct{}

// NewHistory loads the history from store (nil keeps it in memory).
func NewHistory(store transport.DelegationStore) *History { panic("TODO") }

// Update merges a new full list at now: items replace their earlier
// versions by id; a running item the list leaves out is recorded as done
// with status "unknown" and ended_at now; past MaxHistory the oldest done
// items are dropped, never a running one. The result is saved to the store
// and returned (newest first).
func (h *History) Update(list []transport.Delegation, now time.Time) []transport.Delegation {
	panic("TODO")
}

// Items returns the history, newest first.
func (h *History) Items() []transport.Delegation { panic("TODO") }
