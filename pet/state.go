package pet

// The Controller's state, grouped by concern; all of it is under
// Controller.mu (see the package doc).

import (
	"time"

	"yui/transport"
	"yui/transport/clock"
	"yui/transport/outbox"
)

// turnBook is what the controller knows of the turns in flight.
type turnBook struct {
	// running holds the turns the client sent that have not ended, with
	// their trigger (which says where a failure's text shows).
	running map[string]transport.Trigger
	// stopped holds turns a user action stopped; their frames already in
	// flight are dropped until their turn end.
	stopped *idSet
	// sending counts Sends that have not returned; sent holds the turns
	// registered since. A frame of a turn the client sent that names no
	// registered turn while a Send is under way belongs to that Send: it
	// waits in early, in arrival order, until the turn is registered, so
	// the turn starts running (thinking, filler) before its render or
	// turn end plays, however fast the backend answers.
	sending int
	sent    *idSet
	early   []transport.Event
}

// motionState is what the motion and the bubble follow.
type motionState struct {
	thinking  bool
	speaking  bool
	cueMotion string     // motion a cue asked for; "" for the base motion
	motionTmr clock.Slot // a cue motion that plays once ends
	bubbleTmr clock.Slot // the bubble clears after its hold
}

// toolSegment is the pill's tool segment.
type toolSegment struct {
	turn    string
	running bool
	tmr     clock.Slot // a done or failed tool segment clears
}

// clear empties the tool segment of pill, the view's.
func (t *toolSegment) clear(pill *Pill) {
	t.tmr.Stop()
	pill.Tool = ""
	t.running = false
	t.turn = ""
}

// reasoningState is the reasoning text's turn and whether it streams.
type reasoningState struct {
	turn      string
	streaming bool
}

// clear takes the reasoning text off v, the view.
func (r *reasoningState) clear(v *View) {
	v.Reasoning = ""
	r.turn = ""
	r.streaming = false
}

// idleTurns are the turns the pet starts by itself.
type idleTurns struct {
	greetPending bool          // the greeting waits for the first ready
	every        time.Duration // a check-in after this long without a turn; 0 is off
	gate         CheckInGate   // Options.CheckInGate; nil lets every check-in go
	tmr          clock.Slot
}

// publisher hands the view's snapshots to OnChange, in order, outside mu.
type publisher struct {
	onChange     func(View)
	lastHead     viewHead // the last snapshot queued, to skip unchanged ones
	listsChanged bool     // the delegation lists changed since that snapshot
	hold         int      // > 0 while flow is held: unlockFlow publishes
	views        *outbox.Outbox[View]
}

// put queues a snapshot of v for OnChange; mu is held. An unchanged view
// is not published again. The comparison is of the view's fixed-size
// part; the delegation lists say themselves when they changed
// (listsChanged), so no change pays for comparing them.
func (p *publisher) put(v *View) {
	if p.onChange == nil {
		return
	}
	if head := headOf(*v); head != p.lastHead || p.listsChanged {
		p.lastHead, p.listsChanged = head, false
		p.views.Put(v.clone())
	}
}

// flush delivers the queued snapshots outside mu, in order.
func (p *publisher) flush() {
	if p.views != nil {
		p.views.Flush()
	}
}

// hooks are what the controller asks the app (Options.Place, Screenshot,
// Mouth); nil ones are left out.
type hooks struct {
	place func() string
	shot  func(transport.Trigger) *transport.Screenshot
	mouth AudioLevel
}

// lockedTimers arms the controller's timers: a timer's function changes
// state as every change does, under mu through update, and does nothing
// once its slot was re-armed or stopped (a stale generation).
type lockedTimers struct {
	clock  clock.Clock
	update func(func()) // Controller.update
}

// arm runs f under mu after d, unless slot is re-armed or stopped first.
// It is called with mu held.
func (t lockedTimers) arm(slot *clock.Slot, d time.Duration, f func()) {
	slot.Arm(t.clock, d, func(gen int) {
		t.update(func() {
			if slot.Current(gen) {
				f()
			}
		})
	})
}
