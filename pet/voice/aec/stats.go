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
	nearMic  float64 // microphone power, smoothed (nearEnd)
	nearFar  float64 // delayed reference power, smoothed
	nearGain float64 // the room's power gain from reference to microphone; 0 before the far end played
	nearHold int     // blocks the near end counts as present
	nearSeen int     // far-end blocks the gain has heard
}

// Near-end detection that does not lean on the filter's error (which a
// moved echo or a filter gone wrong raises as much as the user's voice):
// the microphone louder than the room's gain makes the reference, both
// averaged over about half a second, so that where in time the echo
// lies does not matter. The gain follows the least ratio seen (down fast,
// up over seconds): the user's voice only ever raises it.
const (
	nearSmooth = 0.985
	nearRatio  = 3.0 // 4.8 dB
	nearHold   = 38  // 300 ms
	gainFall   = 0.02
	gainRise   = 0.002
	// gainLearn is how long the gain rises as fast as it falls: the
	// first echo comes after the first reference, and a gain learned from
	// those blocks alone is too low.
	gainLearn = 250 // 2 s
)

// nearEnd takes one block's energies and reports whether the user is
// talking over the far end (or was within nearHold).
func (s *stats) nearEnd(st blockStats) bool {
	n := float64(Block)
	s.nearMic = nearSmooth*s.nearMic + (1-nearSmooth)*st.sdd
	s.nearFar = nearSmooth*s.nearFar + (1-nearSmooth)*st.sxx
	if s.nearHold > 0 {
		s.nearHold--
	}
	if st.sxx <= farActiveMS*n || s.nearFar <= 0 {
		return s.nearHold > 0
	}
	g := max(s.nearMic-s.noise*n, 0) / s.nearFar
	s.nearSeen++
	switch {
	case s.nearGain == 0:
		s.nearGain = max(g, tinyEcho)
	case g < s.nearGain || s.nearSeen < gainLearn:
		s.nearGain += gainFall * (g - s.nearGain)
	default:
		s.nearGain += gainRise * (g - s.nearGain)
	}
	if s.nearSeen < gainLearn {
		return s.nearHold > 0
	}
	if s.nearMic > nearRatio*s.nearGain*s.nearFar+4*s.noise*n {
		s.nearHold = nearHold
	}
	return s.nearHold > 0
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
