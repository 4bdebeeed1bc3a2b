package voice

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"yui/transport/clock"
	"yui/transport/textcut"
)

// Audio kept around an utterance for the recogniser: the VAD opens on the
// first voiced frame, after a soft onset, and closes on the last one. The
// tail holds what the VAD does not count as voice after the last voiced
// frame, an unvoiced "s" or "t" and the room's decay; it is also how long
// the speech must pause before its early transcription leaves (early.go),
// so it is the floor of the voice round trip's detection time. 160 ms
// split a wake-word room's follow-up in two (TestRoomWakeWord).
const (
	preRoll = 300 * time.Millisecond
	tailPad = 200 * time.Millisecond
	// minPress is the shortest push-to-talk hold that is transcribed.
	minPress = 250 * time.Millisecond
	// DefaultTranscribeTimeout bounds one transcription.
	DefaultTranscribeTimeout = 60 * time.Second
	// queued utterances waiting for the transcriber; more are dropped.
	maxQueued = 4
	// captured blocks waiting for the frame loop; more are dropped.
	maxBlocks = 512
)

// ListenerOptions wire a Listener.
type ListenerOptions struct {
	Mode        Mode
	Capture     Capture
	Transcriber Transcriber
	Target      Target
	VAD         VADConfig // zero fields take DefaultVADConfig's
	Logger      *slog.Logger
	// OnText receives each transcript just before its turn starts, so the
	// windows can show what was heard. It may be nil.
	OnText func(text string)
	// TranscribeTimeout bounds one transcription; 0 is DefaultTranscribeTimeout.
	TranscribeTimeout time.Duration
	// FarEnd, when set with EchoCancel, is the speakers' reference the echo
	// canceller takes out of the microphone (echo.go).
	FarEnd     FarEnd
	EchoCancel bool
	// WakeWords are the words a wake_word utterance must begin with.
	WakeWords []string
	// DebugDir, when set, receives the --voice-debug WAV files (debug.go).
	DebugDir string
	// Clock stamps captured blocks and times the follow-up; nil is the wall clock.
	Clock clock.Clock
}

// stamped is a captured block and when its last sample was captured
// (captureTimeline).
type stamped struct {
	pcm []int16
	at  time.Time
}

// utterance is a closed utterance and whether it came within a follow-up.
type utterance struct {
	pcm      []int16
	followUp bool
	// early, when set, is the transcription of this very audio, started
	// at the speech's pause (early.go).
	early *early
}

// Listener turns captured audio into spoken turns. In hands-free mode the
// VAD opens and closes each utterance; in push-to-talk mode Press and
// Release do, and the VAD only watches for barge-in. In both, speech that
// starts while the pet speaks (Target.SpeechOwed) must pass the raised
// threshold for the raised onset, then stops the pet (Target.BargeIn).
//
// Run owns two goroutines: the frame loop (VAD and mode state, cheap) and
// the transcriber, which handles one utterance at a time outside every
// lock. Capture callbacks only copy a block into a channel.
type Listener struct {
	o       ListenerOptions
	rate    int
	blocks  chan stamped
	presses chan bool
	wake    wakeState
	dropped atomic.Int64
	running atomic.Bool
	// afterBlock, when set (tests), runs after each block is processed.
	afterBlock func()
}

// NewListener returns a Listener; Run starts it.
func NewListener(o ListenerOptions) *Listener {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.TranscribeTimeout <= 0 {
		o.TranscribeTimeout = DefaultTranscribeTimeout
	}
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	if o.EchoCancel && o.FarEnd != nil {
		if o.VAD.Raise == 0 {
			o.VAD.Raise = EchoRaise
		}
		if o.VAD.RaisedOnset == 0 {
			o.VAD.RaisedOnset = EchoRaisedOnset
		}
	}
	return &Listener{
		o:       o,
		rate:    Mono16k.SampleRate,
		blocks:  make(chan stamped, maxBlocks),
		presses: make(chan bool, 8),
	}
}

// Press starts a push-to-talk utterance (the mic button or shortcut held).
func (l *Listener) Press() { l.push(true) }

// Release ends it and sends it to the transcriber.
func (l *Listener) Release() { l.push(false) }

func (l *Listener) push(down bool) {
	if l.o.Mode != ModePushToTalk || !l.running.Load() {
		return
	}
	select {
	case l.presses <- down:
	default:
	}
}

// ErrNoMicrophone is Run's error when the capture could not start.
var ErrNoMicrophone = errors.New("no microphone")

// Run captures until ctx ends. Mode off returns at once. A capture that
// fails to start logs one line, shows "no microphone" in the pill once,
// and returns an error wrapping ErrNoMicrophone; text input is untouched.
func (l *Listener) Run(ctx context.Context) error {
	if l.o.Mode != ModePushToTalk && !l.o.Mode.handsFree() {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	utts := make(chan utterance, maxQueued)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); l.transcribeLoop(ctx, utts) }()
	go func() { defer wg.Done(); l.frameLoop(ctx, utts) }()
	l.running.Store(true)
	defer l.running.Store(false)

	var got atomic.Bool
	// Stamped here, before a full queue can drop the block: the
	// timeline counts every sample the device gave (stamp.go).
	tl := captureTimeline{rate: l.rate}
	err := l.o.Capture.Start(ctx, Mono16k, func(pcm []int16) {
		got.Store(true)
		at := tl.stamp(len(pcm), l.o.Clock.Now())
		select {
		case l.blocks <- stamped{append([]int16(nil), pcm...), at}:
		default:
			l.dropped.Add(1)
		}
	})
	if ctx.Err() == nil {
		if err == nil {
			err = errors.New("capture ended")
		}
		if !got.Load() {
			l.o.Logger.Warn("voice_no_microphone", "err", err.Error())
			l.o.Target.SetVoiceStatus(StatusNoMicrophone)
			err = fmt.Errorf("%w: %v", ErrNoMicrophone, err)
		} else {
			l.o.Logger.Warn("voice_capture_stopped", "err", err.Error())
			l.o.Target.SetVoiceStatus(StatusNoMicrophone)
		}
	} else {
		err = nil
	}
	cancel()
	wg.Wait()
	if n := l.dropped.Load(); n > 0 {
		l.o.Logger.Warn("voice_blocks_dropped", "count", n)
	}
	return err
}

func (l *Listener) enqueue(u utterance, utts chan<- utterance) {
	l.o.Logger.Info("voice_utterance", "ms", len(u.pcm)*1000/l.rate, "early", u.early != nil)
	select {
	case utts <- u:
		l.o.Target.SetVoiceStatus(StatusTranscribing)
	default:
		u.early.void(l)
		l.o.Logger.Warn("voice_utterance_dropped", "reason", "transcriber busy")
	}
}

func (l *Listener) transcribeLoop(ctx context.Context, utts <-chan utterance) {
	for {
		select {
		case <-ctx.Done():
			return
		case u := <-utts:
			text, err := l.transcribe(ctx, u)
			if ctx.Err() != nil {
				return
			}
			switch {
			case err != nil:
				l.o.Logger.Warn("voice_transcribe_failed", "err", err.Error())
				l.o.Target.SetVoiceStatus(FailureText(err))
			case text == "":
				l.o.Logger.Info("voice_transcribed", "chars", 0)
				l.o.Target.SetVoiceStatus("")
			default:
				var ok bool
				if text, ok = l.wakeFilter(text, u.followUp); !ok {
					continue
				}
				if l.o.OnText != nil {
					l.o.OnText(text)
				}
				l.o.Target.VoiceTurn(text)
			}
		}
	}
}

// transcribe is u's text: its early transcription's, or one asked now.
func (l *Listener) transcribe(ctx context.Context, u utterance) (string, error) {
	if u.early != nil {
		text, took, err := u.early.wait(ctx)
		if err == nil {
			l.o.Logger.Info("voice_transcribed", "chars", len([]rune(text)), "stt_ms", took.Milliseconds(), "early", true)
			return text, nil
		}
		if ctx.Err() != nil {
			return "", err
		}
		// A failed early request is asked once more, as the utterance.
		l.o.Logger.Debug("voice_early_failed", "err", err.Error())
	}
	ctx, cancel := context.WithTimeout(ctx, l.o.TranscribeTimeout)
	defer cancel()
	t0 := time.Now()
	text, err := l.o.Transcriber.Transcribe(ctx, EncodeWAV(u.pcm, Mono16k))
	if err == nil {
		l.o.Logger.Info("voice_transcribed", "chars", len([]rune(text)), "stt_ms", time.Since(t0).Milliseconds())
	}
	return text, err
}

// FailureText is the pill's text for a failed transcription: its reason
// on one line, cut as a failed turn's server text is.
func FailureText(err error) string {
	return textcut.OneLine("transcription failed: "+err.Error(), 200)
}

// Record captures d of 16 kHz mono audio from c.
func Record(ctx context.Context, c Capture, d time.Duration) ([]int16, error) {
	want := int(d * time.Duration(Mono16k.SampleRate) / time.Second)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu  sync.Mutex
		out = make([]int16, 0, want)
	)
	err := c.Start(ctx, Mono16k, func(pcm []int16) {
		mu.Lock()
		defer mu.Unlock()
		if len(out) >= want {
			return
		}
		out = append(out, pcm[:min(len(pcm), want-len(out))]...)
		if len(out) >= want {
			cancel()
		}
	})
	mu.Lock()
	defer mu.Unlock()
	if len(out) >= want {
		return out, nil
	}
	if err == nil {
		err = context.Canceled
	}
	return nil, err
}

// RecordAndTranscribe records d from c and transcribes it with t: the
// settings window's voice Test button (three seconds).
func RecordAndTranscribe(ctx context.Context, c Capture, t Transcriber, d time.Duration) (string, error) {
	pcm, err := Record(ctx, c, d)
	if err != nil {
		return "", err
	}
	return t.Transcribe(ctx, EncodeWAV(pcm, Mono16k))
}

// newEcho is the frame loop's echo path, nil when echo cancelling is off
// or there is no reference.
func (l *Listener) newEcho() *echoPath {
	if !l.o.EchoCancel || l.o.FarEnd == nil {
		return nil
	}
	var rec *debugRecorder
	if l.o.DebugDir != "" {
		var err error
		if rec, err = newDebugRecorder(l.o.DebugDir, l.o.Logger); err != nil {
			l.o.Logger.Warn("voice_debug_failed", "err", err.Error())
		}
	}
	l.o.Logger.Info("voice_echo_cancel", "debug", rec != nil)
	return newEchoPath(l.o.FarEnd, rec)
}

// wakeFilter applies wake_word mode to a transcript: a follow-up passes
// whole; otherwise it must begin with a wake word, which is taken off. A
// wake word said alone opens the follow-up window and starts no turn.
func (l *Listener) wakeFilter(text string, followUp bool) (string, bool) {
	if l.o.Mode != ModeWakeWord {
		return text, true
	}
	rest, ok := MatchWake(text, l.o.WakeWords)
	switch {
	case ok && rest == "":
		l.o.Logger.Info("voice_wake", "alone", true)
		l.wake.open(l.o.Clock.Now().Add(FollowUp))
		l.o.Target.SetVoiceStatus(StatusListening)
		return "", false
	case ok:
		l.o.Logger.Info("voice_wake", "alone", false)
		return rest, true
	case followUp:
		return text, true
	}
	l.o.Logger.Info("voice_ignored", "reason", "no wake word", "chars", len([]rune(text)))
	l.o.Target.SetVoiceStatus("")
	return "", false
}

// round1 rounds a level to a tenth of a decibel for a log record.
func round1(db float64) float64 { return math.Round(db*10) / 10 }
