// Package playback is the playback queue: it turns a transport's render and
// speech events into cues and spoken sentences, in the order and at the
// boundaries docs/protocol/push-transport.md prescribes, and keeps the playback record the
// next turn's "previous turn:" line is built from.
//
// The rules it implements:
//
//   - The speech frames of a turn open one utterance; the next render of that
//     turn plays its segments and closes it (a silent render included). The
//     turn's end, the socket leaving ready and a frame of another turn close
//     it too. Sentences already spoken or queued in a turn's utterance are
//     not spoken again when a speech frame or the render repeats them.
//   - Segments play in order: each segment's cues render, then its speech
//     goes to the engine and the bubble. Empty or [SILENT] speech is silence.
//   - A render plays after the speech already queued, in arrival order.
//   - A cue on a silent segment renders as it arrives when nothing is
//     playing, and at the next playback boundary when speech is still owed;
//     every cue waiting on a boundary fires at the first one playback reaches.
//   - A cue that arrives while the thinking motion of another running turn
//     plays lands when that motion ends.
//   - A turn the client sent plays the thinking motion and speaks a filler
//     line until its first render (or its end, when none comes): the filler
//     is cut there even mid-sentence. A turn that fails speaks a failure line.
//   - The next sentence is synthesised while the current one plays.
//   - Interrupt (the three speech-stopping user actions) stops everything at
//     once and records what was still owed.
//
// The life of an item, and where each part of it is:
//
//   - Enqueue (enqueue.go): a turn the client sent starts (TurnStarted
//     queues its filler line) and its render and speech frames become
//     items, one per fresh sentence carrying its segment's cues, and cues
//     waiting on a playback boundary (Render).
//   - Speak (speak.go): when nothing plays, the next item is taken, its
//     cues render and its sentence plays, synthesised one ahead; its clip's
//     end is the next boundary. A turn's first render cuts its filler.
//   - Settle (settle.go): a turn's end and a closed utterance leave no more
//     to come; once nothing of a turn is owed its playback record is saved.
//     Interrupt cuts every life short and records what was owed.
//
// Ordering and concurrency: every event, from a caller or from a clip
// ending on the engine's goroutine, goes through one step (step.go): under
// the queue's lock the event changes the state, playback advances and the
// touched turn settles; the effects are then delivered outside the lock, in
// the order they happened. So events apply one at a time in the order they
// take the lock, and the Stage sees them in that order.
package playback

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"sync"

	"yui/pet/speech"
	"yui/transport"
	"yui/transport/clock"
	"yui/transport/outbox"
)

// Options wires a Queue.
type Options struct {
	// Engine speaks sentences; nil means the "none" engine on Clock.
	Engine speech.Engine
	Clock  clock.Clock  // nil means the wall clock
	Logger *slog.Logger // nil discards
	// FillerLines and FailureLines are the pack's lines.
	FillerLines  []string
	FailureLines []string
	// Rand picks a line: it returns a number in [0, n). Nil is math/rand/v2.IntN.
	Rand func(n int) int

	// Stage shows what plays; nil shows nothing.
	Stage Stage
	// ReportFailed is called with the id of a turn the client sent whose
	// playback record was saved as failed (push sends a playback frame).
	// It is delivered as the Stage's methods are.
	ReportFailed func(turnID string)
}

// Stage is what playback shows, implemented by its user (the pet's
// controller). Its methods are called in the order the effects happen,
// one at a time, never with the queue's lock held: a method may call back
// into the queue.
type Stage interface {
	// Cue renders one cue of turnID.
	Cue(turnID string, cue transport.Cue)
	// Speech reports the sentence starting to play; text "" means
	// playback went idle.
	Speech(turnID, text string)
	// Thinking reports whether the thinking motion plays: true from a
	// turn the client sent until its first render or its end, while any
	// such turn is waiting.
	Thinking(thinking bool)
	// SpeechFailed reports that a sentence could not be heard and shows
	// in the bubble only, with the reason: as often as speech_failed is
	// logged (a failure that repeats the last one is not reported again
	// until a sentence plays).
	SpeechFailed(reason string)
}

// kind tells reply speech from the lines the client adds on its own; only
// reply speech counts in playback records.
type kind int

const (
	kindReply kind = iota
	kindFiller
	kindFailure
)

func (k kind) String() string {
	switch k {
	case kindFiller:
		return "filler"
	case kindFailure:
		return "failure"
	}
	return "reply"
}

// item is one step of playback: cues, then a sentence ("" for cues only).
type item struct {
	turn     string
	kind     kind
	cues     []transport.Cue
	text     string
	clip     speech.Clip // prepared ahead while the previous sentence plays
	err      error       // the Prepare error, if any
	fallback bool        // playing the reading-speed clip after a failure
	// cancel abandons the synthesis Prepare started; called once the clip
	// has played or the item is dropped.
	cancel context.CancelFunc
}

// MaxQueued bounds the sentences waiting to play, and the cues waiting on
// a playback boundary. Speech plays in real time and a backend may send it
// faster than that: past the bound, a frame's sentences (with the cues
// they carry) and its boundary cues are dropped, with a speech_dropped log
// line. A thousand sentences is an hour or more of speech; a backend that
// keeps to the protocol never comes near.
const MaxQueued = 1024

// heldCue is a cue waiting for a boundary or for the thinking motion to end.
type heldCue struct {
	turn string
	cue  transport.Cue
}

// turnState is what the queue remembers of one turn.
type turnState struct {
	own      bool
	thinking bool
	// open is true while an utterance opened by speech frames is open.
	open bool
	// spoken holds the keys of sentences spoken or queued for the turn's
	// utterance; its render or end forgets them.
	spoken map[string]bool
	// pending is true while a playback record is owed for the turn.
	pending bool
	// failed is the reason speech failed, "" when it did not.
	failed string
	// done is true once the turn ended or its render closed its utterance.
	done bool
}

// Queue is the playback queue of one pet. All methods are safe for
// concurrent use.
type Queue struct {
	opts     Options
	engine   speech.Engine
	fallback *speech.None
	log      *slog.Logger
	rand     func(int) int

	mu       sync.Mutex
	closed   bool
	ctx      context.Context // cancelled by Interrupt and Close: abandons synthesis
	cancel   context.CancelFunc
	gen      int // identifies the playing clip; a stale done is ignored
	stopClip func()
	wg       sync.WaitGroup // goroutines playing blocking clips

	cur       *item // playing
	items     []*item
	boundary  []heldCue // cues waiting for the next playback boundary
	held      []heldCue // cues waiting for the thinking motion to end
	turns     map[string]*turnState
	thinkingN int    // turns playing the thinking motion
	open      string // turn whose utterance is open, "" when none
	speaking  bool
	last      transport.PlaybackRecord
	// lastFail is the speech failure last logged: a missing audio device
	// fails every sentence, and one log line says so.
	lastFail string

	// out delivers effects (the Stage's methods) outside the lock, in order,
	// even when a timer and an event race.
	out *outbox.Outbox[func()]
}

// New returns an idle queue.
func New(opts Options) *Queue {
	c := opts.Clock
	if c == nil {
		c = clock.Real{}
	}
	q := &Queue{
		opts:     opts,
		engine:   opts.Engine,
		fallback: speech.NewNone(c),
		log:      opts.Logger,
		rand:     opts.Rand,
		turns:    make(map[string]*turnState),
		out:      outbox.New(func(f func()) { f() }),
	}
	if q.engine == nil {
		q.engine = q.fallback
	}
	if q.log == nil {
		q.log = slog.New(slog.DiscardHandler)
	}
	if q.rand == nil {
		q.rand = rand.IntN
	}
	q.ctx, q.cancel = context.WithCancel(context.Background())
	return q
}

// Owed reports whether speech is still owed: a sentence playing or queued.
// The push transport logs it with each render (Options.SpeechOwed).
func (q *Queue) Owed() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.owed()
}

// Thinking reports whether the thinking motion plays.
func (q *Queue) Thinking() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.thinkingN > 0
}

// LastRecord is the last saved playback record; the zero value (complete)
// before any.
func (q *Queue) LastRecord() transport.PlaybackRecord {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.last
}

// TakeRecord returns the last saved playback record for the next turn's
// "previous turn:" line and resets it to complete, so that the outcome is
// reported once.
func (q *Queue) TakeRecord() transport.PlaybackRecord {
	q.mu.Lock()
	defer q.mu.Unlock()
	rec := q.last
	q.last = transport.PlaybackRecord{}
	return rec
}

// Close stops playback and waits for the goroutines playing clips. The
// queue ignores every call after it.
func (q *Queue) Close() {
	q.mu.Lock()
	if !q.closed {
		q.closed = true
		q.stopLocked()
		q.cancel()
	}
	q.mu.Unlock()
	q.wg.Wait()
}
