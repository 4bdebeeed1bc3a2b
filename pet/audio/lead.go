package audio

import (
	"time"

	"yui/transport/clock"
)

// maxLead is how far ahead of real time an output may pull the mix. A
// sound card pulls what its buffers hold (DeviceBuffer, PlayerBuffer and
// the sound server's own, well under this) and then blocks; a device that
// never blocks (ALSA's null device, a broken plugin) would otherwise pull
// as fast as the mixer can fill, a core spinning for as long as anything
// plays.
const maxLead = 250 * time.Millisecond

// leadGuard keeps an output's pulls within maxLead of real time: it
// counts what was handed out on a timeline that starts again at the
// clock whenever the output falls behind it (it was suspended, or
// stalled), and makes a pull that would run further ahead wait.
//
// For example, a device that pulls 480 samples (20 ms) every time it
// asks, without blocking: the first 12 pulls go at once (240 ms ahead),
// the 13th waits 20 ms, and from then on the device pulls in real time.
// Not safe for concurrent use: one output's reader owns it.
type leadGuard struct {
	clk  clock.Clock
	next time.Time // when what was handed out so far has played
}

func newLeadGuard(c clock.Clock) *leadGuard { return &leadGuard{clk: c} }

// wait returns when n more samples may be handed out.
func (g *leadGuard) wait(n int) {
	now := g.clk.Now()
	if g.next.Before(now) {
		g.next = now
	}
	g.next = g.next.Add(time.Duration(n) * time.Second / Rate)
	// At most one pull's length: a Close waiting on the reader waits
	// no longer than that.
	if ahead := g.next.Sub(now) - maxLead; ahead > 0 {
		done := make(chan struct{})
		g.clk.AfterFunc(ahead, func() { close(done) })
		<-done
	}
}
