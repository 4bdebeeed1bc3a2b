//go:build e2e

package room

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
	"yui/pet/voice"
	"yui/pet/voice/room"
)

// The rig's stream: the voice input's format, in blocks of 10 ms.
const (
	rate  = 16000
	block = rate / 100
)

// Thresholds on the speaker's monitor, which is digital silence between
// replies: a block above loudDB is the pet speaking, and quietHang without
// one ends her speech (espeak-ng's word gaps are far shorter).
const (
	loudDB    = -50
	quietHang = 400 * time.Millisecond
)

// clip is a user's recorded sentence, at rate, full scale 1.
type clip struct {
	text  string
	pcm   []float64
	onset int // first voiced sample
}

// placed is a clip the rig mixed in, from sample at of its stream.
type placed struct {
	c  *clip
	at int
}

// onset is where the clip's speech starts in the rig's stream.
func (p placed) onset() int { return p.at + p.c.onset }

// rig is the room between the sound server's speaker and its microphone:
// every 10 ms it reads what the pet played from the speaker's monitor
// (parec), runs it through the room (echo and noise), adds the user's
// speech and writes the block into the microphone (pacat). Its clock is the
// count of samples it passed: a reply's start and end in the monitor and
// the user's speech share it, so a latency is a difference of positions.
type rig struct {
	t    testing.TB
	sim  *room.Sim
	pcm  io.Writer // pacat's input
	loop sync.WaitGroup

	mu       sync.Mutex
	pos      int
	lastLoud int // end of the last loud block, -1 before any
	speaking bool
	starts   []int // where each run of the pet's speech began
	ends     []int // and ended
	peakDB   float64
	noise    float64 // the noise floor set, dBFS
	queue    []placed
	next     *clip // mixed in at the next start, after nextAfter
	nextWait int
	said     []placed
	wall     []time.Time // when each block was written to the microphone, by block index
	err      error

	// What the rig heard from the speaker and fed the microphone (run
	// owns them; kept with the test's artifacts): set beside the app's
	// --voice-debug files, they tell a step of the output's timing from
	// one of the capture's (docs/hands-free.md).
	heard, fed []int16
}

// save writes the rig's recordings into the test's artifacts, once run
// has ended.
func (r *rig) save() {
	dir := harness.Artifacts(r.t)
	for name, pcm := range map[string][]int16{"rig-speaker.wav": r.heard, "rig-mic.wav": r.fed} {
		if err := os.WriteFile(filepath.Join(dir, name), voice.EncodeWAV(pcm, voice.Mono16k), 0o644); err != nil {
			r.t.Errorf("the rig's recording: %v", err)
		}
	}
}

// startRig starts the room's recorder and player on server p.
func startRig(t testing.TB, p *pulse, rm room.Room) *rig {
	t.Helper()
	r := &rig{t: t, sim: rm.Start(), lastLoud: -1, noise: rm.NoiseDB, peakDB: -100}
	format := []string{"--format=s16le", "--rate=16000", "--channels=1", "--raw"}
	// Short buffers keep the path's own delay near a real device's; the
	// player's is larger so the 2-core machine's scheduling cannot starve it.
	rec := p.command("parec", append([]string{"-d", "speaker.monitor", "--latency-msec=10"}, format...)...)
	play := p.command("pacat", append([]string{"--playback", "-d", "micsink", "--latency-msec=40"}, format...)...)
	out, err := rec.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	in, err := play.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []*exec.Cmd{play, rec} {
		if err := c.Start(); err != nil {
			t.Fatalf("start %s: %v", c.Path, err)
		}
	}
	r.pcm = in
	r.loop.Add(1)
	go r.run(out)
	t.Cleanup(func() {
		for _, c := range []*exec.Cmd{rec, play} {
			_ = c.Process.Kill()
			_ = c.Wait()
		}
		r.loop.Wait()
		r.save()
	})
	return r
}

// run passes the monitor's blocks through the room until the recorder ends.
func (r *rig) run(out io.Reader) {
	defer r.loop.Done()
	raw := make([]byte, 2*block)
	spk := make([]float64, block)
	mic := make([]float64, block)
	pcm := make([]int16, block)
	for {
		if _, err := io.ReadFull(out, raw); err != nil {
			r.fail(fmt.Errorf("parec: %w", err))
			return
		}
		for i := range spk {
			v := int16(binary.LittleEndian.Uint16(raw[2*i:]))
			spk[i] = float64(v) / 32768
			r.heard = append(r.heard, v)
		}
		r.sim.Process(spk, mic)
		r.mu.Lock()
		r.watch(spk)
		r.mix(mic)
		r.wall = append(r.wall, time.Now())
		r.pos += block
		r.mu.Unlock()
		room.ToInt16(pcm, mic)
		for i, s := range pcm {
			binary.LittleEndian.PutUint16(raw[2*i:], uint16(s))
		}
		r.fed = append(r.fed, pcm...)
		if _, err := r.pcm.Write(raw); err != nil {
			r.fail(fmt.Errorf("pacat: %w", err))
			return
		}
	}
}

func (r *rig) fail(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == nil {
		r.err = err
	}
}

// watch follows the pet's speech in the monitor's block spk (r.mu held).
func (r *rig) watch(spk []float64) {
	var ms float64
	for _, v := range spk {
		ms += v * v
	}
	db := 10 * math.Log10(ms/float64(len(spk))+1e-12)
	hang := int(quietHang * rate / time.Second)
	switch {
	case db > loudDB:
		r.peakDB = max(r.peakDB, db)
		if !r.speaking {
			r.speaking = true
			r.starts = append(r.starts, r.pos)
			if r.next != nil {
				r.queue = append(r.queue, placed{r.next, r.pos + r.nextWait})
				r.said = append(r.said, r.queue[len(r.queue)-1])
				r.next = nil
			}
		}
		r.lastLoud = r.pos + len(spk)
	case r.speaking && r.pos+len(spk)-r.lastLoud >= hang:
		r.speaking = false
		r.ends = append(r.ends, r.lastLoud)
	}
}

// mix adds the user's speech due in this block to mic (r.mu held).
func (r *rig) mix(mic []float64) {
	kept := r.queue[:0]
	for _, p := range r.queue {
		for i := range mic {
			if j := r.pos + i - p.at; j >= 0 && j < len(p.c.pcm) {
				mic[i] += p.c.pcm[j]
			}
		}
		if r.pos+len(mic)-p.at < len(p.c.pcm) {
			kept = append(kept, p)
		}
	}
	r.queue = kept
}

// setNoise changes the room's noise floor from the next block.
func (r *rig) setNoise(db float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sim.SetNoise(db)
	r.noise = db
}

// sayNow mixes c in from the next block and returns where it went.
func (r *rig) sayNow(c *clip) placed {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := placed{c, r.pos}
	r.queue = append(r.queue, p)
	r.said = append(r.said, p)
	return p
}

// sayInNextReply mixes c in after the pet's next speech starts, after d.
func (r *rig) sayInNextReply(c *clip, d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next, r.nextWait = c, int(d*rate/time.Second)
}

// counts are how many runs of the pet's speech started and ended so far.
func (r *rig) counts() (starts, ends int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.starts), len(r.ends)
}

// waitEnds waits until n runs of the pet's speech have ended in the monitor.
func (r *rig) waitEnds(limit time.Duration, n int) {
	r.t.Helper()
	harness.WaitFor(r.t, limit, fmt.Sprintf("%d replies heard to their end in the speaker's monitor", n), func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.err != nil {
			r.t.Fatalf("room: %v", r.err)
		}
		return len(r.ends) >= n
	})
}

// waitSilent waits until the pet's speech, if any, has ended in the monitor.
func (r *rig) waitSilent(limit time.Duration) {
	r.t.Helper()
	harness.WaitFor(r.t, limit, "the speaker's monitor to fall silent", func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.err != nil {
			r.t.Fatalf("room: %v", r.err)
		}
		return !r.speaking
	})
}

// endAfter is the end of the first run of the pet's speech that ends after
// sample at, and whether there is one yet.
func (r *rig) endAfter(at int) (int, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range r.ends {
		if e > at {
			return e, true
		}
	}
	return 0, false
}

// silentSince reports whether the pet's speech is over and its last run
// ended before sample at.
func (r *rig) silentSince(at int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return !r.speaking && (len(r.ends) == 0 || r.ends[len(r.ends)-1] <= at) && r.pos > at
}

// lastSaid is the clip placed last and how many were placed.
func (r *rig) lastSaid() (placed, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.said) == 0 {
		return placed{}, 0
	}
	return r.said[len(r.said)-1], len(r.said)
}

// quiet reports whether the user's speech has all been played out.
func (r *rig) quiet() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.queue) == 0 && r.next == nil
}

func (r *rig) peak() float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.peakDB
}

// wallAt is when the block holding sample at went through the room: read
// from the speaker's monitor and written to the microphone.
func (r *rig) wallAt(at int) time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	if i := at / block; i >= 0 && i < len(r.wall) {
		return r.wall[i]
	}
	return time.Time{}
}

func samplesToDur(n int) time.Duration { return time.Duration(n) * time.Second / rate }
