package audio

// refTimeline decides where each pull of the output goes on the
// reference's timeline (Reference.write): on from where the last pull
// ended, as the count of samples handed out says, unless the pulls prove
// the count wrong.
//
// The count is right while the output plays what it pulls one sample
// after the other. It is wrong in two ways:
//
//   - The output ran dry (an underrun): it played silence, and everything
//     after plays that much later. A pull that comes behind the count
//     cannot play when the count says: the timeline moves up to the clock
//     at once, silence left where nothing was handed. (The first pull
//     after an underrun is the one that shows it: the output then refills
//     its buffer at once and runs ahead of the clock again.)
//   - The output dropped what it had pulled. On issue 35's rig
//     (PulseAudio through ALSA's pulse plugin, docs/hands-free.md), after
//     an underrun the plugin took 230 ms of the mix at once and played it
//     from the next pull on: the count ran 230 ms ahead of the clock for
//     good, the speaker played each sample that much before the reference
//     said, and the echo came before its reference, where no canceller can
//     reach it, for the rest of the run (in 3 runs of 4). Pulls that all
//     run more than refFarAhead ahead of the clock for refAheadHold move
//     the timeline back by the least of their leads. What a sound card
//     buffers for Yui stays well under it (DeviceBuffer and PlayerBuffer:
//     40 ms); a real buffer that large only becomes a longer echo delay
//     once moved back, which the canceller finds, where a dropped one left
//     it none.
//
// For example, pulls 230 ms ahead of the clock for half a second, the
// least of them 228 ms ahead, move the timeline back by 227 ms (the pull
// then lands a millisecond ahead of the clock). Positions are slots of
// 1/RefRate. Not safe for concurrent use: Reference.mu guards it.
type refTimeline struct {
	ahead     int64 // the slot since when every pull ran far ahead; -1: none
	leastLead int64 // the least lead over the hold's second half; -1: none yet
}

// Timeline tuning, in slots.
const (
	refFarAhead  = RefRate / 10 // 100 ms
	refAheadHold = RefRate / 2  // half a second
)

func newRefTimeline() refTimeline { return refTimeline{ahead: -1} }

// place returns where a pull at slot now goes, w being where the last
// one ended.
func (t *refTimeline) place(w, now int64) int64 {
	switch lead := w - now; {
	case lead < -refSlack:
		t.ahead = -1
		return now
	case lead > refFarAhead:
		if t.ahead < 0 {
			t.ahead, t.leastLead = now, -1
		}
		if now-t.ahead >= refAheadHold/2 && (t.leastLead < 0 || lead < t.leastLead) {
			t.leastLead = lead
		}
		if now-t.ahead >= refAheadHold {
			t.ahead = -1
			return w - t.leastLead + refSlack
		}
	default:
		t.ahead = -1
	}
	return w
}
