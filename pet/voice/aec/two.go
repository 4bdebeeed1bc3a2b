package aec

import "math"

// twoPath decides between the two filters (filter.go) block by block, by
// Valin's rule in Speex's mdf.c (TWO_PATH): the foreground takes the
// background's weights when the background's error is smaller than the
// foreground's by more than the two filters' own difference explains,
// over this block or over the short (davg1) or the longer (davg2) run of
// blocks; the background is taken back to the foreground when its error
// is larger by four times as much. Double talk pulls an adapting filter
// off the echo: the background then does worse, the foreground keeps what
// it had, and the user's voice leaves the canceller as it came while the
// pet's is still taken out (issue 35's barge-in). An echo path that
// changes makes the background do better, and the foreground follows.
type twoPath struct {
	davg1, davg2 float64 // foreground error less background error, smoothed
	dvar1, dvar2 float64 // its expected spread
}

// The rule's smoothing and thresholds, Speex's.
const (
	var1Smooth   = 0.36
	var2Smooth   = 0.7225
	var1Update   = 0.5
	var2Update   = 0.25
	varBacktrack = 4.0
	// dbfFloor keeps the spread of two equal filters above zero: 10 in
	// Speex's 16-bit scale, here with full scale 1.
	dbfFloor = 10.0 / (32768 * 32768)
)

// decide takes a block's foreground and background error energies, sff and
// see, and the energy of the difference of the two estimates, dbf, and
// says whether the foreground takes the background (update) or the
// background goes back to the foreground (reset). Example: both filters
// equal (sff = see) decide neither; a background that leaves half the
// foreground's error over a few blocks updates; a background whose error
// is suddenly ten times the foreground's resets.
func (t *twoPath) decide(sff, see, dbf float64) (update, reset bool) {
	d := sff - see
	t.davg1 = 0.6*t.davg1 + 0.4*d
	t.davg2 = 0.85*t.davg2 + 0.15*d
	t.dvar1 = var1Smooth*t.dvar1 + 0.16*sff*dbf
	t.dvar2 = var2Smooth*t.dvar2 + 0.0225*sff*dbf
	switch {
	case d*math.Abs(d) > sff*dbf,
		t.davg1*math.Abs(t.davg1) > var1Update*t.dvar1,
		t.davg2*math.Abs(t.davg2) > var2Update*t.dvar2:
		update = true
	case -d*math.Abs(d) > varBacktrack*sff*dbf,
		-t.davg1*math.Abs(t.davg1) > varBacktrack*t.dvar1,
		-t.davg2*math.Abs(t.davg2) > varBacktrack*t.dvar2:
		reset = true
	}
	if update || reset {
		*t = twoPath{}
	}
	return update, reset
}

// choose applies the rule to the block process just ran. On an update the
// foreground takes the background's weights, and this block's output
// fades from the old foreground's estimate to the background's (no step
// in the cleaned stream); on a reset the background takes the
// foreground's, and its estimate and error become the foreground's, so
// that it learns from where the foreground is. It returns the stats of
// the output and those the background learns from.
func (f *filter) choose(fg, bg blockStats, mic, y, e, yb, eb []float64) (blockStats, blockStats) {
	var dbf float64
	for i := range y {
		dbf += sq1(y[i] - yb[i])
	}
	update, reset := f.two.decide(fg.see, bg.see, dbf+dbfFloor*float64(f.b))
	switch {
	case update:
		for j := range f.p {
			copy(f.fw[j], f.w[j])
		}
		n := float64(len(y))
		fg.syy, fg.see, fg.sey = 0, 0, 0
		for i := range y {
			// A half-cosine from the old estimate to the new one.
			a := 0.5 + 0.5*math.Cos(math.Pi*(float64(i)+0.5)/n)
			y[i] = a*y[i] + (1-a)*yb[i]
			e[i] = mic[i] - y[i]
			fg.syy += y[i] * y[i]
			fg.see += e[i] * e[i]
			fg.sey += e[i] * y[i]
		}
	case reset:
		for j := range f.p {
			copy(f.w[j], f.fw[j])
		}
		copy(yb, y)
		copy(eb, e)
		bg.syy, bg.see, bg.sey = fg.syy, fg.see, fg.sey
	}
	return fg, bg
}

func sq1(v float64) float64 { return v * v }
