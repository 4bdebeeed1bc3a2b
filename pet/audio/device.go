package audio

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/ebitengine/oto/v3"

	"yui/transport/clock"
)

// Device buffering: the device's own buffer and the one oto keeps per
// player bound how much audio still plays after a stop (the mixer itself
// drops a stopped stream at once).
const (
	DeviceBuffer = 30 * time.Millisecond
	PlayerBuffer = 10 * time.Millisecond
	// deviceIdle is how long the device runs on silence before it is
	// suspended: an idle pet costs no audio wake-ups.
	deviceIdle = 2 * time.Second
	// deviceOpenWait bounds the wait for the device to open.
	deviceOpenWait = 5 * time.Second
)

// ErrNoDevice is the error of OpenDevice when no audio output can be opened.
var ErrNoDevice = errors.New("no audio device")

// Device plays the mix on the system's audio output through oto: one
// context per process (oto allows no second one), one oto player reading
// the mixer.
type Device struct {
	m      *Mixer
	ctx    *oto.Context
	player *oto.Player
	done   chan struct{}
	wg     sync.WaitGroup
	once   sync.Once
}

// OpenDevice opens the audio output and starts playing m on it. It fails
// with an error wrapping ErrNoDevice when there is no device; it may be
// called once per process.
func OpenDevice(m *Mixer) (*Device, error) {
	ctx, ready, err := oto.NewContext(&oto.NewContextOptions{
		SampleRate:   Rate,
		ChannelCount: 1,
		Format:       oto.FormatFloat32LE,
		BufferSize:   DeviceBuffer,
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoDevice, err)
	}
	select {
	case <-ready:
	case <-time.After(deviceOpenWait):
		return nil, fmt.Errorf("%w: the device did not open within %v", ErrNoDevice, deviceOpenWait)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoDevice, err)
	}
	d := &Device{m: m, ctx: ctx, done: make(chan struct{})}
	d.player = ctx.NewPlayer(&mixReader{m: m, lead: newLeadGuard(clock.Real{})})
	d.player.SetBufferSize(int(PlayerBuffer * Rate / time.Second * 4))
	d.player.Play()
	// Nothing plays yet: the device starts suspended and wakes with the
	// first stream, as after any idle spell (watch). Running it on
	// silence from the start cost an idle pet its first seconds of audio
	// wake-ups, and on a device that takes samples as fast as they come
	// (ALSA's null device) a core for those seconds, beside the pet's
	// first frame.
	suspended := ctx.Suspend() == nil
	d.wg.Add(1)
	go d.watch(m.wakeChan(), suspended)
	return d, nil
}

// watch suspends the device while nothing plays, wakes it when a stream
// starts, and fails the mixer when the device goes away. Its ticker runs
// only while the device is awake: a suspended device waits for Start or
// KeepAwake, which both signal wake (a signal that comes while it is
// suspending stays pending in the channel), so an idle pet's audio costs
// no wake-up at all (docs/performance.md, idle).
func (d *Device) watch(wake <-chan struct{}, suspended bool) {
	defer d.wg.Done()
	tick := time.NewTicker(deviceCheck)
	defer tick.Stop()
	ticks := tick.C
	if suspended {
		tick.Stop()
		ticks = nil
	}
	idleSince := time.Now()
	for {
		select {
		case <-d.done:
			return
		case <-wake:
			if suspended {
				if err := d.ctx.Resume(); err != nil {
					d.m.Fail(fmt.Errorf("audio device: %w", err))
					return
				}
				suspended = false
				tick.Reset(deviceCheck)
				ticks = tick.C
			}
			idleSince = time.Now()
		case now := <-ticks:
			if err := d.ctx.Err(); err != nil {
				d.m.Fail(fmt.Errorf("audio device: %w", err))
				return
			}
			if d.m.Active() || d.m.keptAwake() {
				idleSince = now
				continue
			}
			if now.Sub(idleSince) > deviceIdle && d.ctx.Suspend() == nil {
				suspended = true
				tick.Stop()
				ticks = nil
			}
		}
	}
}

// deviceCheck is how often an awake device is checked for idleness and
// for an error (a device unplugged while playing).
const deviceCheck = 250 * time.Millisecond

// Close stops playing. oto cannot close its context: the process keeps it.
func (d *Device) Close() error {
	d.once.Do(func() {
		close(d.done)
		d.wg.Wait()
		d.player.Pause()
		_ = d.ctx.Suspend()
	})
	return nil
}

// mixReader is the mixer as the float32 little-endian byte stream oto reads.
type mixReader struct {
	m    *Mixer
	buf  []float32
	lead *leadGuard
}

func (r *mixReader) Read(p []byte) (int, error) {
	n := len(p) / 4
	if n == 0 {
		return 0, nil
	}
	if cap(r.buf) < n {
		r.buf = make([]float32, n)
	}
	b := r.buf[:n]
	r.lead.wait(n)
	r.m.Read(b)
	for i, x := range b {
		binary.LittleEndian.PutUint32(p[4*i:], math.Float32bits(x))
	}
	return 4 * n, nil
}
