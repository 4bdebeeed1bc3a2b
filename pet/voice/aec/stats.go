package aec

import "math"

// stats follows the block energies for the double-talk detector, the
// suppressor's start-up echo path gain and the ERLE report.
type stats struct {
	noise    float64 // error mean square while the far end is silent
	pathGain float64 // echo-to-reference power, smoothed (start-up)
	sdd, see float64 // smoothed, far-end single talk only (ERLE)
	hold     int     // blocks the adaptation stays held (double talk)
	ratio    float64 // error-to-microphone power in single talk, smoothed
}

// Double-talk detection: the error jumps far above the share of the
// microphone the filter has been leaving in single talk (a measured ratio,
// so it holds while the filter converges) and above the room's noise.
// The hold covers the gaps between the user's syllables.
const (
	dtRatio = 10.0
	dtHold  = 25 // 200 ms
	// ratioFall and ratioRise are the single-talk ratio's smoothing per block.
	ratioFall = 0.01
	ratioRise = 0.002
)

// block takes one block's energies and reports double talk.
func (s *stats) block(st blockStats, adapted bool) bool {
	n := float64(Block)
	farOn := st.sxx > farActiveMS*n
	if !farOn {
		// The room's noise: a floor, fast down and slow up, since the
		// user talking while the pet is silent is no noise.
		x := st.see / n
		switch {
		case s.noise == 0:
			s.noise = x
		case x < s.noise:
			s.noise += 0.1 * (x - s.noise)
		default:
			s.noise += 0.002 * (x - s.noise)
		}
	} else if s.hold == 0 {
		g := st.sdd / (st.sxx + tinyEcho)
		s.pathGain = 0.95*s.pathGain + 0.05*min(g, 1)
	}
	if s.hold > 0 {
		s.hold--
	}
	if s.ratio == 0 {
		s.ratio = 1
	}
	if farOn && st.see > dtRatio*s.ratio*st.sdd+4*s.noise*n {
		s.hold = dtHold
	}
	// The ratio falls fast and rises slowly (about 4 s): double talk the
	// detector missed at its start must not lift it to where it misses
	// the rest, as a symmetric average did.
	if r := min(st.see/(st.sdd+tinyEcho), 1); farOn && s.hold == 0 {
		k := ratioRise
		if r < s.ratio {
			k = ratioFall
		}
		s.ratio += k * (r - s.ratio)
	}
	if farOn && s.hold == 0 {
		const a = 0.99 // about a second of blocks
		s.sdd = a*s.sdd + (1-a)*st.sdd
		s.see = a*s.see + (1-a)*st.see
	}
	return s.hold > 0
}

func (s *stats) erle() float64 {
	if s.see <= 0 || s.sdd <= 0 {
		return 0
	}
	return 10 * math.Log10(s.sdd/s.see)
}
