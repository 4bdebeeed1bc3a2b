package voice

import "time"

// captureTimeline stamps captured blocks with when their last sample was
// captured, on the capture's own count rather than each callback's clock.
//
// A callback runs some time after its block was captured: the device's
// period, then however long the machine takes to schedule it. On a busy
// machine callbacks come late and then in a burst, and stamping each block
// with its callback's time piles a burst onto one instant: the echo
// canceller (echo.go) would look up the same stretch of the reference for
// different sound, and the echo's delay would move with every stall. The
// samples themselves come at the device's rate, so a block ends one
// block's length after the one before. The timeline starts at the first
// callback and moves only when the callbacks prove it wrong:
//
//   - a block that would end after its callback ran ends at the callback
//     (the first callback was itself late, or the device runs fast against
//     the clock): the timeline settles on the earliest callbacks;
//   - callbacks that all run more than captureLoss behind it for
//     captureHold (samples were lost before they reached Yui, or the
//     device runs slow) move it up by the least of their lags.
//
// For example, 10 ms blocks whose callbacks run at 10, 20, 75, 76, 77, 78,
// 79 and 80 ms (a 50 ms stall, then the backlog) are stamped 10, 20, 30,
// 40, 50, 60, 70 and 80 ms. Not safe for concurrent use: the capture's
// callback owns it.
type captureTimeline struct {
	rate   int
	end    time.Time     // the last block's end
	behind time.Time     // since when every callback lagged past captureLoss; zero: not lagging
	least  time.Duration // the least lag since behind
}

// captureLoss is the lag no stall explains (a callback that late with
// nothing lost would hold a fifth of a second of sound in the device);
// captureHold is how long it must last: a stall's backlog drains in a
// burst well within it.
const (
	captureLoss = 200 * time.Millisecond
	captureHold = time.Second
)

// stamp returns the end of a block of n samples whose callback runs at cb.
func (c *captureTimeline) stamp(n int, cb time.Time) time.Time {
	if c.end.IsZero() {
		c.end = cb
		return cb
	}
	end := c.end.Add(time.Duration(n) * time.Second / time.Duration(c.rate))
	switch lag := cb.Sub(end); {
	case lag < 0:
		end = cb
		c.behind = time.Time{}
	case lag <= captureLoss:
		c.behind = time.Time{}
	case c.behind.IsZero():
		c.behind, c.least = cb, lag
	default:
		c.least = min(c.least, lag)
		if cb.Sub(c.behind) >= captureHold {
			end = end.Add(c.least)
			c.behind = time.Time{}
		}
	}
	c.end = end
	return end
}
