package audio

import (
	"errors"
	"math"
	"sync"
)

// SampleWriter receives the mix as it is handed to the output (the WAV
// tee of --audio-out).
type SampleWriter interface {
	WriteSamples(s []float32) error
}

// Mixer sums the Players of every pet into one mono stream at Rate. Its
// Read never blocks: a player whose synthesis lags behind plays silence.
// All methods are safe for concurrent use.
type Mixer struct {
	mu      sync.Mutex
	players []*Player
	tee     SampleWriter
	teeErr  error
	teeAt   int        // samples written to the tee
	onMark  func(Mark) // hears where each stream starts in the tee
	marks   []Mark     // to deliver after the lock
	err     error      // the output failed: every clip fails with it
	scratch []float32
	// wake, when set, hears each stream a player starts: an output that
	// sleeps while nothing plays wakes on it.
	wake chan struct{}
	ref  *Reference // hears the mix: the echo canceller's far end
	kept int        // KeepAwake holds not yet released
	held int        // Hold holds not yet released
}

// Hold pauses every player where it is, until release is called (once;
// later calls do nothing): the mix is silence, and no stream moves on or
// ends. Hands-free listening holds it the moment the user may be talking
// over the pet (pet/voice's outputHolder): her voice stops at once instead
// of once the detector is sure, which also takes her echo off the user's
// words while it decides; it stops her for good (a barge-in) or lets her
// go on where she paused (docs/hands-free.md).
func (m *Mixer) Hold() (release func()) { return m.count(&m.held) }

// KeepAwake keeps the output running, on silence when nothing plays,
// until release is called (once; later calls do nothing). The echo
// canceller holds it while it listens: an output that sleeps and wakes
// again comes back with another latency, and every reply would start
// with an echo the canceller has to find again (docs/hands-free.md).
func (m *Mixer) KeepAwake() (release func()) {
	release = m.count(&m.kept)
	m.mu.Lock()
	wake := m.wake
	m.mu.Unlock()
	if wake != nil {
		signal(wake)
	}
	return release
}

// count adds one to *n, a counter m.mu guards, and returns the release
// that takes it back, once.
func (m *Mixer) count(n *int) (release func()) {
	m.mu.Lock()
	*n++
	m.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			m.mu.Lock()
			*n--
			m.mu.Unlock()
		})
	}
}

// keptAwake reports whether a KeepAwake hold is on.
func (m *Mixer) keptAwake() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.kept > 0
}

// signal tells an output's wake channel, without waiting: one signal
// pending is as good as two.
func signal(wake chan struct{}) {
	select {
	case wake <- struct{}{}:
	default:
	}
}

// NewMixer returns a mixer with no players.
func NewMixer() *Mixer { return &Mixer{} }

// wakeChan returns the channel Start signals, making it on first use.
func (m *Mixer) wakeChan() <-chan struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.wake == nil {
		m.wake = make(chan struct{}, 1)
	}
	return m.wake
}

// SetTee makes Read also write the mix to w while any player plays; the
// time when nothing plays is left out, so the file holds every sentence
// in the order played and no idle hours. nil removes it.
func (m *Mixer) SetTee(w SampleWriter) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tee, m.teeErr = w, nil
}

// Mark says where a stream's first sample lies in the tee's output.
type Mark struct {
	Label string
	At    int // samples from the start of the tee
}

// SetMarks makes the mixer call f, outside its lock and on the goroutine
// reading it, each time a stream's first sample goes to the tee: where
// each sentence lies in the --audio-out file.
func (m *Mixer) SetMarks(f func(Mark)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.onMark = f
}

// TeeErr is the first error the tee returned; the tee is dropped then.
func (m *Mixer) TeeErr() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.teeErr
}

// Fail marks the output failed (the device went away): the clips playing
// end with err and later ones fail at once.
func (m *Mixer) Fail(err error) {
	var done []func()
	m.mu.Lock()
	if m.err == nil {
		m.err = err
		for _, p := range m.players {
			if v := p.cur; v != nil {
				p.cur = nil
				done = append(done, func() { v.finish(err) })
			}
		}
	}
	m.mu.Unlock()
	for _, f := range done {
		f()
	}
}

// Err is the error Fail recorded.
func (m *Mixer) Err() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.err
}

// Active reports whether any player has a stream to play.
func (m *Mixer) Active() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, p := range m.players {
		if p.cur != nil {
			return true
		}
	}
	return false
}

// Read fills dst with the next len(dst) samples of the mix, clipped to
// [-1, 1], and updates each player's envelope with what it handed out.
func (m *Mixer) Read(dst []float32) {
	m.mu.Lock()
	m.read(dst)
	marks, f := m.marks, m.onMark
	m.marks = nil
	m.mu.Unlock()
	for _, mk := range marks {
		f(mk)
	}
}

func (m *Mixer) read(dst []float32) {
	clear(dst)
	if cap(m.scratch) < len(dst) {
		m.scratch = make([]float32, len(dst))
	}
	tmp := m.scratch[:len(dst)]
	active := false
	for _, p := range m.players {
		v := p.cur
		if v == nil || m.held > 0 {
			p.env.add(nil, len(dst))
			continue
		}
		active = true
		n, end, err := v.stream.read(tmp)
		vol := float32(p.volume)
		for i, s := range tmp[:n] {
			s *= vol
			tmp[i] = s
			dst[i] += s
		}
		p.env.add(tmp[:n], len(dst))
		p.handed += n
		if n > 0 && !v.started {
			v.started = true
			if m.tee != nil && m.onMark != nil {
				m.marks = append(m.marks, Mark{Label: v.stream.Label, At: m.teeAt})
			}
		}
		if end {
			p.cur = nil
			// finish only closes a channel: safe under the lock, and
			// the clip's own goroutine reports it.
			v.finish(err)
		}
	}
	for i, s := range dst {
		dst[i] = max(-1, min(1, s))
	}
	if m.ref != nil {
		m.ref.write(dst)
	}
	if active && m.tee != nil {
		if err := m.tee.WriteSamples(dst); err != nil {
			m.teeErr, m.tee = err, nil
		}
		m.teeAt += len(dst)
	}
}

// NewPlayer returns a pet's player at full volume.
func (m *Mixer) NewPlayer() *Player {
	p := &Player{m: m, volume: 1}
	m.mu.Lock()
	m.players = append(m.players, p)
	m.mu.Unlock()
	return p
}

// Player is one pet's voice in the mixer: it plays one stream at a time.
type Player struct {
	m *Mixer
	// Guarded by m.mu.
	cur    *voice
	volume float64
	env    envelope
	handed int // samples handed to the mix, for tests and benchmarks
	closed bool
}

// voice is one stream playing on a player.
type voice struct {
	stream   *Stream
	finished chan error // buffered: the stream's end, once
	stopped  chan struct{}
	started  bool // its first sample was handed out
	once     sync.Once
	stopOnce sync.Once
}

func (v *voice) finish(err error) {
	v.once.Do(func() { v.finished <- err })
}

// ErrClosed is what a closed player's clips end with.
var ErrClosed = errors.New("audio: player closed")

// SetVolume sets the player's volume, 0 (silent) to 1 (as synthesised).
func (p *Player) SetVolume(v float64) {
	if math.IsNaN(v) {
		v = 1
	}
	p.m.mu.Lock()
	p.volume = max(0, min(1, v))
	p.m.mu.Unlock()
}

// Start plays s, replacing the stream playing (that one ends without its
// done). done runs once, on a goroutine of its own, when s has played to
// its end (with s's Close error) or the output failed; not after stop.
// stop silences the player at once: the next Read hands out none of s.
func (p *Player) Start(s *Stream, done func(error)) (stop func()) {
	v := &voice{stream: s, finished: make(chan error, 1), stopped: make(chan struct{})}
	p.m.mu.Lock()
	switch {
	case p.closed:
		v.finish(ErrClosed)
	case p.m.err != nil:
		v.finish(p.m.err)
	default:
		if old := p.cur; old != nil {
			old.stopOnce.Do(func() { close(old.stopped) })
		}
		p.cur = v
		if wake := p.m.wake; wake != nil {
			signal(wake)
			// A sentence starts before its speech comes: wake the
			// output again with its first samples, so that an output
			// that pulls when woken (Paced) hands them on at once.
			go func() {
				select {
				case <-s.Ready():
					signal(wake)
				case <-v.stopped:
				}
			}()
		}
	}
	p.m.mu.Unlock()
	go func() {
		select {
		case err := <-v.finished:
			select {
			case <-v.stopped: // a stop that came with the end wins
			default:
				done(err)
			}
		case <-v.stopped:
		}
	}()
	return func() {
		p.m.mu.Lock()
		if p.cur == v {
			p.cur = nil
		}
		p.m.mu.Unlock()
		v.stopOnce.Do(func() { close(v.stopped) })
	}
}

// Stop silences the player at once; the stream playing ends without its done.
func (p *Player) Stop() {
	p.m.mu.Lock()
	v := p.cur
	p.cur = nil
	p.m.mu.Unlock()
	if v != nil {
		v.stopOnce.Do(func() { close(v.stopped) })
	}
}

// Playing reports whether the player has a stream.
func (p *Player) Playing() bool {
	p.m.mu.Lock()
	defer p.m.mu.Unlock()
	return p.cur != nil
}

// Level is the loudness of the samples the player handed out last, 0
// (silence) to 1 (loud speech), smoothed so that the mouth closes
// between words without flickering; playing is false when no stream plays.
func (p *Player) Level() (level float64, playing bool) {
	p.m.mu.Lock()
	defer p.m.mu.Unlock()
	return p.env.level, p.cur != nil
}

// Handed is how many samples the player has handed to the mix.
func (p *Player) Handed() int {
	p.m.mu.Lock()
	defer p.m.mu.Unlock()
	return p.handed
}

// Close stops the player and takes it out of the mixer; clips started
// after it fail with ErrClosed.
func (p *Player) Close() {
	p.Stop()
	p.m.mu.Lock()
	defer p.m.mu.Unlock()
	p.closed = true
	for i, q := range p.m.players {
		if q == p {
			p.m.players = append(p.m.players[:i], p.m.players[i+1:]...)
			break
		}
	}
}

// Envelope mapping: RMS loudness in dBFS from EnvelopeFloor (level 0) to
// EnvelopeCeil (level 1). Speech from espeak-ng and OpenAI voices sits
// around -30 to -15 dBFS.
const (
	EnvelopeFloor = -50.0
	EnvelopeCeil  = -14.0
	// envelopeRelease is how fast the level falls: a mouth snaps open on a
	// syllable and closes over about 30 ms.
	envelopeRelease = 0.030
)

// envelope follows the loudness of a player's output.
type envelope struct {
	level float64
}

// add takes the next block handed out: s, then silence up to n samples.
func (e *envelope) add(s []float32, n int) {
	if n == 0 {
		return
	}
	var sum float64
	for _, x := range s {
		sum += float64(x) * float64(x)
	}
	target := LevelOf(math.Sqrt(sum / float64(n)))
	if target >= e.level {
		e.level = target
		return
	}
	k := min(1, float64(n)/Rate/envelopeRelease)
	e.level += (target - e.level) * k
	if e.level < 1e-3 {
		e.level = 0
	}
}

// LevelOf maps an RMS amplitude (full scale 1) to a mouth level in [0, 1].
func LevelOf(rms float64) float64 {
	if rms <= 0 {
		return 0
	}
	db := 20 * math.Log10(rms)
	return max(0, min(1, (db-EnvelopeFloor)/(EnvelopeCeil-EnvelopeFloor)))
}
