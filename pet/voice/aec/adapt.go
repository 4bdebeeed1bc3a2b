package aec

import "math"

// Learning-rate constants, from Valin 2007 (see filter.go) in this
// package's scale (full scale 1, unnormalised FFTs).
const (
	minLeak  = 0.005
	maxRate  = 0.5
	startMu  = 0.25 // the step before the leak estimate can be trusted
	tinyEcho = 1e-12
	// constrainEvery: each partition's gradient is constrained every this
	// many blocks (see update).
	constrainEvery = 1
)

// update adapts the partitions on the block process just ran.
func (f *filter) update(st blockStats) {
	a := &f.adapt
	a.leak = f.leak(st)
	rer := (1e-4*st.sxx + 3*a.leak*st.syy) / (st.see + tinyEcho)
	if v := st.sey * st.sey / (tinyEcho + st.see*st.syy); rer < v {
		rer = v
	}
	rer = min(rer, maxRate)
	if !a.adapted && a.sumAdapt > float64(f.p) && a.sumAdapt*a.leak > 1 {
		a.adapted = true
	}
	start := 0.0
	if !a.adapted {
		if st.sxx > farActiveMS*float64(f.b) {
			start = startMu * min(1, st.sxx/(st.see+tinyEcho))
		}
		a.sumAdapt += start
	}
	// mu[k] goes into ef, which update needs no more after this loop.
	delta := regulariser * float64(f.n*f.n)
	for k := range f.ef {
		mu := start
		if a.adapted {
			e := f.ef[k] + tinyEcho
			r := min(0.7*a.leak*f.yf[k]+0.3*rer*e, maxRate*e)
			mu = r / e
		}
		f.ef[k] = 2 * mu / (f.power[k] + delta)
	}
	if start == 0 && !a.adapted {
		return
	}
	f.proportion()
	// Every partition's gradient is constrained each block: leaving some
	// unconstrained in turn (Speex's AUMDF) halves the cost but cost 8 dB
	// of ERLE in TestERLEInIssueRoom.
	f.turn = (f.turn + 1) % constrainEvery
	for j := range f.p {
		f.gradient(j, j == 0 || j%constrainEvery == f.turn)
	}
}

// leak is the share of the echo estimate's power the error still holds:
// the covariance of their power spectra over time, smoothed at a rate
// that slows when the error is loud (double talk).
func (f *filter) leak(st blockStats) float64 {
	a := &f.adapt
	ss := float64(f.b) / 16000
	var pey, pyy float64
	for k := range f.ef {
		eh := f.ef[k] - a.eh[k]
		yh := f.yf[k] - a.yh[k]
		pey += eh * yh
		pyy += yh * yh
		a.eh[k] = (1-ss)*a.eh[k] + ss*f.ef[k]
		a.yh[k] = (1-ss)*a.yh[k] + ss*f.yf[k]
	}
	pyy = math.Sqrt(pyy)
	if pyy > 0 {
		pey /= pyy
	}
	alpha := min(2*ss*st.syy, 0.5*ss*st.see) / (st.see + tinyEcho)
	a.pey = (1-alpha)*a.pey + alpha*pey
	a.pyy = (1-alpha)*a.pyy + alpha*pyy
	a.pyy = max(a.pyy, tinyEcho)
	a.pey = max(min(a.pey, a.pyy), minLeak*a.pyy)
	return a.pey / a.pyy
}

// proportion spreads the step over the partitions by their weight, so
// that a sparse room (a bulk delay, a few reflections) converges faster.
func (f *filter) proportion() {
	maxSum := 0.0
	for j, w := range f.w {
		var s float64
		for _, c := range w {
			s += sq(c)
		}
		f.prop[j] = math.Sqrt(s)
		maxSum = max(maxSum, f.prop[j])
	}
	maxSum = max(maxSum, 1e-6)
	var sum float64
	for j := range f.prop {
		f.prop[j] += 0.1 * maxSum
		sum += f.prop[j]
	}
	for j := range f.prop {
		f.prop[j] = 0.99 * f.prop[j] / sum
	}
}

// gradient adds partition j's step: conj(X_{m-j}) E times the per-bin
// rate (in ef), constrained to b taps when constrain is set.
func (f *filter) gradient(j int, constrain bool) {
	xj, wj := f.x[(f.head+j)%f.p], f.w[j]
	g := f.fy
	pj := f.prop[j]
	for k := range g {
		x := xj[k]
		g[k] = complex(real(x), -imag(x)) * f.fe[k] * complex(f.ef[k]*pj, 0)
	}
	if constrain {
		f.fft.Sequence(f.tf, g)
		inv := 1 / float64(f.n)
		for i := range f.b {
			f.tf[i] *= inv
		}
		clear(f.tf[f.b:])
		f.fft.Coefficients(g, f.tf)
	}
	for k := range wj {
		wj[k] += g[k]
	}
}
