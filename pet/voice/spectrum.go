package voice

import (
	"math"

	"gonum.org/v1/gonum/dsp/fourier"
)

// spectrum holds the VAD's per-frame spectral analysis (vad.go): a Hann
// window over a 20 ms frame zero-padded to specSize, its power spectrum
// in the speech band, and the per-bin noise floor.
type spectrum struct {
	fft      *fourier.FFT
	win, buf []float64
	coef     []complex128
	lo, hi   int       // speech band bins, 300–3400 Hz
	pow      []float64 // this frame's power per band bin
	noise    []float64 // the noise floor per band bin; nil until the first frame
	scale    float64   // band power sum to mean square
}

// Speech band and FFT size of the detector.
const (
	specSize   = 512
	bandLowHz  = 300
	bandHighHz = 3400
)

func newSpectrum(rate, frame int) *spectrum {
	s := &spectrum{
		fft:  fourier.NewFFT(specSize),
		win:  make([]float64, frame),
		buf:  make([]float64, specSize),
		coef: make([]complex128, specSize/2+1),
		lo:   bandLowHz * specSize / rate,
		hi:   bandHighHz * specSize / rate,
	}
	var w2 float64
	for i := range s.win {
		s.win[i] = 0.5 - 0.5*math.Cos(2*math.Pi*(float64(i)+0.5)/float64(frame))
		w2 += s.win[i] * s.win[i]
	}
	// Parseval: a real tone's power shows twice in the two half spectra.
	s.scale = 2 / (float64(specSize) * w2)
	s.pow = make([]float64, s.hi-s.lo+1)
	return s
}

// analyse computes the frame's band powers.
func (s *spectrum) analyse(pcm []int16) {
	clear(s.buf)
	for i, v := range pcm[:min(len(pcm), len(s.win))] {
		s.buf[i] = float64(v) / 32768 * s.win[i]
	}
	s.fft.Coefficients(s.coef, s.buf)
	for k := range s.pow {
		c := s.coef[s.lo+k]
		s.pow[k] = (real(c)*real(c)+imag(c)*imag(c))*s.scale + 1e-14
	}
}

// level is the band's power in dBFS; floor the noise floor's.
func (s *spectrum) level() float64 { return dbOf(sum(s.pow)) }

func (s *spectrum) floor() float64 { return dbOf(sum(s.noise)) }

// flatness is the band's spectral flatness in dB (geometric over
// arithmetic mean of the power): near -2.5 dB for noise and for the
// broadband click of a key, far lower for a voice's harmonics.
func (s *spectrum) flatness() float64 {
	var lg, ar float64
	for _, p := range s.pow {
		lg += math.Log(p)
		ar += p
	}
	n := float64(len(s.pow))
	return 10 * (lg/n - math.Log(ar/n)) / math.Ln10
}

// track moves the noise floor toward this frame: down at once (a floor
// above the room is what opened utterances on noise), up slowly, more
// slowly on a frame that looks like voice. The first frame seeds it: the
// room as it is, not a level assumed for silence.
func (s *spectrum) track(voiced bool) {
	if s.noise == nil {
		s.noise = append(make([]float64, 0, len(s.pow)), s.pow...)
		return
	}
	up := floorRiseNoise
	if voiced {
		up = floorRiseVoice
	}
	for k, p := range s.pow {
		n := s.noise[k]
		switch {
		case p < n:
			s.noise[k] = 0.7*n + 0.3*p
		default:
			s.noise[k] = min(p, n*up)
		}
	}
}

// Floor rise per 20 ms frame: 10 dB/s on noise-like frames, 1 dB/s on
// voice-like ones (a hum or a held chord is absorbed in seconds, a
// sentence barely lifts it).
var (
	floorRiseNoise = math.Pow(10, 10.0/10/50)
	floorRiseVoice = math.Pow(10, 1.0/10/50)
)

func sum(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s
}

func dbOf(ms float64) float64 {
	if ms <= 1e-10 {
		return -100
	}
	return 10 * math.Log10(ms)
}
