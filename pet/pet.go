// Package pet is the character's behaviour, headless: it consumes a
// transport's events and the user's actions, drives the playback queue and
// speech, and publishes a View snapshot that the pet window draws.
//
// # Concurrency
//
// A Controller is called from three kinds of goroutine: Run's (transport
// events), the callers of its actions (the UI, voice input, tools) and the
// clock's timers. One model covers all of them:
//
//   - State lives under one mutex, mu. Every change goes through update(f):
//     f runs under mu and may only change state and queue the view
//     (changedLocked); it never calls the transport, the playback queue
//     or OnChange. The parts of the state with a job of their own, the
//     stage that playback drives (stage.go) and the pill's connection
//     text (conn.go), are under the same mu and write the same view; the
//     stage's playback.Stage methods go through update as actions do.
//   - flow is taken before mu, never after, and only around whole
//     transport events and the user's stop: a render Run took from the
//     channel just before the user stopped its turn plays before the queue
//     is cleared or is dropped, never after. Calls that may wait on the
//     transport (Send, Interrupt) run outside both.
//   - Views leave through an outbox: changedLocked queues a snapshot when
//     the view's fixed-size part or its delegation lists changed (no
//     whole-view comparison per change), and the publisher hands the
//     snapshots to OnChange in order, outside every lock, so OnChange may
//     call back. While flow is held, publishing waits for its release.
//   - Timers are clock.Slots whose functions change state through update
//     (lockedTimers arms most of them): a timer that fires after being
//     re-armed or stopped sees a stale generation and does nothing.
package pet

import (
	"log/slog"
	"sort"
	"sync"
	"time"

	"yui/pet/character"
	"yui/pet/playback"
	"yui/pet/speech"
	"yui/pet/transcript"
	"yui/transport"
	"yui/transport/clock"
	"yui/transport/outbox"
)

// Timings of the status pill and the delegations chip (docs/protocol/push-transport.md limits).
const (
	// ToolHold is how long a done or failed tool state stays in the pill.
	ToolHold = 1500 * time.Millisecond
	// DelegationKeep is how long a done delegation stays in the chip after ended_at.
	DelegationKeep = 30 * time.Minute
	// DefaultBubbleHold is how long the bubble stays after playback ends.
	DefaultBubbleHold = 4 * time.Second
)

// GenericFailureText is the error line of a failed turn whose transport
// carried no server text.
const GenericFailureText = "The request failed."

// OfflineText is the pill's connection text while the backend cannot be
// reached (docs/product.md §2: the pet says so in its status pill).
const OfflineText = "offline: the backend cannot be reached"

// OfflineRetryText is the pill's shorter form of it while a request
// transport counts down to its next probe: "offline · retrying in 4 s".
const OfflineRetryText = "offline · retrying"

// CloseTakenOver is the close code of a push backend that gave the chat
// to another connection of the same chat_id.
const CloseTakenOver = 4409

// TakenOverText is what the pill says after a 4409 close, before the
// reconnect countdown.
const TakenOverText = "another Yui took over this chat"

// ErrorTextMax is where a failed turn's server text is cut, in characters
// (docs/protocol/push-transport.md error: "one line cut at 200 characters").
const ErrorTextMax = 200

// Options wires a Controller.
type Options struct {
	Transport transport.Transport
	Pack      *character.Pack
	Speech    speech.Engine // nil means the "none" engine (bubble paced by reading speed)
	Clock     clock.Clock
	Logger    *slog.Logger
	// OnChange receives each new View, in order and never concurrently. It
	// runs on whichever goroutine made the change (Run's, an action's
	// caller's, or a clock timer's), so a window hands it to its UI thread;
	// it may call the controller back.
	OnChange func(View)
	// BubbleHold is how long the bubble stays after playback; 0 means 4 s.
	BubbleHold time.Duration
	// Rand picks filler and failure lines: a number in [0, n). Nil is math/rand/v2.
	Rand func(n int) int
	// Mouth is the loudness of the pet's audio; nil when the pet has no
	// audio. The talk motion's mouth follows it (MouthFrame).
	Mouth AudioLevel
	// AudioNotice, when set, shows in the status pill from the start for
	// AudioNoticeHold ("no audio device: …").
	AudioNotice string
	// Place tells where the pet sits for the "character:" line (`sitting on
	// "Notes"`, `on the taskbar`, `walking`); nil or "" leaves it out.
	Place func() string
	// Screenshot, when set, is asked for each typed or spoken turn, on the
	// caller's goroutine and outside every lock (a capture is slow): the
	// screenshot the turn carries, or nil for none (screen_on_turn).
	Screenshot func(trigger transport.Trigger) *transport.Screenshot
	// Transcript records the conversation for the message window; nil
	// records nothing.
	Transcript *transcript.Log
	// Greeting sends the greeting turn once the connection is first ready.
	Greeting bool
	// CheckIn sends a check-in turn after this long without a turn; 0 is off.
	CheckIn time.Duration
	// CheckInGate, when set, is asked outside every lock before a due
	// check-in starts (pet/life's talk cap and quiet hours).
	CheckInGate CheckInGate
}

// AudioLevel is the loudness of the pet's audio: pet/audio's Player is
// one.
type AudioLevel interface {
	// Level is the loudness (0–1) and whether audio plays.
	Level() (level float64, playing bool)
}

// CheckInGate says whether a due check-in may start: pet/life's
// Scheduler is one (its talk cap and quiet hours).
type CheckInGate interface {
	// AllowCheckIn is asked outside every lock; false waits another
	// round.
	AllowCheckIn() bool
}

// maxRemembered bounds the sets of turn ids kept for frames that race with
// an interrupt or a send; a few entries are ever live at a time.
const maxRemembered = 64

// Controller is one pet's behaviour.
type Controller struct {
	t     transport.Transport
	pack  *character.Pack
	clock clock.Clock
	// timers arms the timers whose functions change state: they run
	// under mu, through update (state.go).
	timers lockedTimers
	log    *slog.Logger
	hooks  hooks
	queue  *playback.Queue
	rec    *recorder

	done  chan struct{} // closed by Close: ends Run
	runWG sync.WaitGroup

	// flow orders event handling against an interrupt: a render Run took
	// from the channel just before the user stopped its turn is either
	// played before the queue is cleared or dropped as a stopped turn's,
	// never played after. Send and Interrupt, which may emit events, are
	// never called under it, so a transport blocking on its event channel
	// cannot deadlock with Run; views are published only after it is
	// released, so OnChange may call an action.
	flow sync.Mutex

	mu       sync.Mutex // guards everything below
	closed   bool
	view     View
	stage    stage // what playback and the moods show (stage.go)
	turns    turnBook
	tool     toolSegment
	reason   reasoningState
	conn     connStatus // the pill's connection text (conn.go)
	idle     idleTurns
	delegTmr clock.Slot // the next done delegation expires (events.go)
	quiet    bool       // do-not-disturb: no greeting or check-in starts

	pub publisher
}

// New returns a controller; Run starts it.
func New(opts Options) *Controller {
	c := &Controller{
		t:     opts.Transport,
		pack:  opts.Pack,
		clock: opts.Clock,
		log:   opts.Logger,
		rec:   newRecorder(opts.Transcript),
		hooks: hooks{place: opts.Place, shot: opts.Screenshot, mouth: opts.Mouth},
		done:  make(chan struct{}),
		turns: turnBook{
			running: make(map[string]transport.Trigger),
			stopped: newIDSet(maxRemembered),
			sent:    newIDSet(maxRemembered),
		},
		idle: idleTurns{every: opts.CheckIn, gate: opts.CheckInGate},
		pub:  publisher{onChange: opts.OnChange},
	}
	if c.pack == nil {
		c.pack = &character.Pack{}
	}
	if c.clock == nil {
		c.clock = clock.Real{}
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	c.timers = lockedTimers{clock: c.clock, update: c.update}
	c.stage = stage{view: &c.view, pack: c.pack, hold: opts.BubbleHold, timers: c.timers}
	if c.stage.hold <= 0 {
		c.stage.hold = DefaultBubbleHold
	}
	if c.pub.onChange != nil {
		c.pub.views = outbox.New(c.pub.onChange)
	}
	c.queue = playback.New(playback.Options{
		Engine:       opts.Speech,
		Clock:        c.clock,
		Logger:       c.log,
		FillerLines:  c.pack.FillerLines,
		FailureLines: c.pack.FailureLines,
		Rand:         opts.Rand,
		Stage:        &c.stage,
		ReportFailed: c.t.ReportPlaybackFailed,
	})
	c.view.Emotion = initialEmotion(c.pack)
	c.view.Motion = "idle"
	c.conn = connStatus{pill: &c.view.Pill, timers: c.timers}
	st := c.t.State()
	c.conn.set(&st)
	c.idle.greetPending = opts.Greeting
	c.armCheckInLocked()
	if opts.AudioNotice != "" {
		c.stage.showAudioNotice(opts.AudioNotice)
	}
	return c
}

// initialEmotion is "neutral" when the pack has it, else its first emotion.
func initialEmotion(p *character.Pack) string {
	if _, ok := p.Emotions["neutral"]; ok || len(p.Emotions) == 0 {
		return "neutral"
	}
	ids := make([]string, 0, len(p.Emotions))
	for id := range p.Emotions {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids[0]
}

// Run consumes transport events until Close or until the transport closes
// its event channel.
func (c *Controller) Run() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.runWG.Add(1)
	c.mu.Unlock()
	defer c.runWG.Done()
	events := c.t.Events()
	for {
		select {
		case <-c.done:
			return
		case ev, ok := <-events:
			if !ok {
				return
			}
			c.handle(ev)
		}
	}
}

// handle applies one transport event.
func (c *Controller) handle(ev transport.Event) {
	c.lockFlow()
	defer c.unlockFlow()
	if c.stashEarly(ev) {
		return
	}
	c.dispatch(ev)
}

// stashEarly holds back a frame of a turn whose Send has not returned.
func (c *Controller) stashEarly(ev transport.Event) bool {
	id := ownTurnOf(ev)
	if id == "" {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.turns.sending == 0 || c.turns.sent.has(id) || c.turns.stopped.has(id) {
		return false
	}
	c.turns.early = append(c.turns.early, ev)
	return true
}

// ownTurnOf is the turn a render, turn end or tool status of a turn the
// client sent names; "" for any other event.
func ownTurnOf(ev transport.Event) string {
	switch e := ev.(type) {
	case *transport.RenderEvent:
		if e.OwnTurn {
			return e.TurnID
		}
	case *transport.TurnEndEvent:
		if e.OwnTurn {
			return e.TurnID
		}
	case *transport.ToolStatusEvent:
		if e.OwnTurn {
			return e.TurnID
		}
	}
	return ""
}

// dispatch applies one transport event; flow is held.
func (c *Controller) dispatch(ev transport.Event) {
	switch e := ev.(type) {
	case *transport.StateEvent:
		c.onState(e)
	case *transport.RenderEvent:
		c.onRender(e)
	case *transport.TurnEndEvent:
		c.onTurnEnd(e)
	case *transport.ToolStatusEvent:
		c.onToolStatus(e)
	case *transport.ReasoningEvent:
		c.onReasoning(e)
	case *transport.DelegationsEvent:
		c.onDelegations(e)
	case *transport.UsageEvent:
		u := e.Usage
		c.update(func() { c.view.Usage = &u })
	}
}

// lockFlow takes flow and holds publishing back until unlockFlow.
func (c *Controller) lockFlow() {
	c.flow.Lock()
	c.mu.Lock()
	c.pub.hold++
	c.mu.Unlock()
}

// unlockFlow releases flow, then publishes what changed meanwhile.
func (c *Controller) unlockFlow() {
	c.mu.Lock()
	c.pub.hold--
	c.mu.Unlock()
	c.flow.Unlock()
	c.pub.flush()
}

// update runs f under the lock (unless closed), then publishes the view.
func (c *Controller) update(f func()) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	f()
	c.changedLocked()
	hold := c.pub.hold > 0
	c.mu.Unlock()
	if !hold {
		c.pub.flush()
	}
}

// changedLocked queues a snapshot of the view for OnChange.
func (c *Controller) changedLocked() {
	c.view.Motion = c.stage.motion()
	if len(c.turns.running) > 0 {
		c.view.Running = true
		c.view.Plate = "thinking"
	} else {
		c.view.Running = false
		c.view.Plate = ""
	}
	c.pub.put(&c.view)
}

func (c *Controller) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// View returns the current snapshot.
func (c *Controller) View() View {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := c.view
	v.Motion = c.stage.motion()
	return v.clone()
}

// Close stops Run and playback and waits for Run to return, so it must not
// be called from OnChange. It does not close the transport, which its owner
// closes.
func (c *Controller) Close() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	for _, t := range []*clock.Slot{&c.stage.anim.motionTmr, &c.stage.anim.bubbleTmr, &c.tool.tmr, &c.conn.tmr, &c.delegTmr, &c.idle.tmr, &c.stage.audioTmr} {
		t.Stop()
	}
	c.mu.Unlock()
	close(c.done)
	c.runWG.Wait()
	c.queue.Close()
}

// idSet is a bounded set of turn ids that forgets the oldest first.
