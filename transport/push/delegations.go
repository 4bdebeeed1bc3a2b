package push

// delegations frames: the chip's list and the history, and their expiry.

import (
	"time"

	"yui/transport"
	"yui/transport/delegation"
)

func (c *Client) onDelegations(data []byte) {
	var f delegationsIn
	if !c.decode("delegations", data, &f) {
		return
	}
	if f.Items == nil {
		c.malformed("delegations", "missing items")
		return
	}
	items := delegation.Sanitize(*f.Items)
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.clk.Now()
	hist := c.hist.Update(items, now)
	c.deleg.items = items
	c.log.Info("push.delegations", "items", len(items))
	c.emit(&transport.DelegationsEvent{Items: delegation.Visible(items, now), History: hist})
	c.armDelegationExpiryLocked(now)
}

// armDelegationExpiryLocked schedules a fresh DelegationsEvent for when the
// next done item leaves the chip.
func (c *Client) armDelegationExpiryLocked(now time.Time) {
	if c.deleg.timer != nil {
		c.deleg.timer.Stop()
		c.deleg.timer = nil
	}
	// NextExpiry counts a done item without ended_at from its start, as
	// Visible does, so such an item leaves the chip on time too.
	next, ok := delegation.NextExpiry(c.deleg.items, now)
	if !ok {
		return
	}
	c.deleg.timer = c.clk.AfterFunc(next.Sub(now), func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.closed {
			return
		}
		now := c.clk.Now()
		c.emit(&transport.DelegationsEvent{Items: delegation.Visible(c.deleg.items, now), History: c.hist.Items()})
		c.armDelegationExpiryLocked(now)
	})
}
