// Package pet is the character's behaviour, headless: it consumes a
// transport's events and the user's actions, drives the playback queue and
// speech, and publishes a View snapshot that the pet window draws.
package pet

import (
	"log/slog"
	"reflect"
	"slices"
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

// Timings of the status pill and the delegations chip (push-transport.md limits).
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
// reached (product.md §2: the pet says so in its status pill).
const OfflineText = "offline: the backend cannot be reached"

// CloseTakenOver is the close code of a push backend that gave the chat
// to another connection of the same chat_id.
const CloseTakenOver = 4409

// TakenOverText is what the pill says after a 4409 close, before the
// reconnect countdown.
const TakenOverText = "another Yui took over this chat"

// ErrorTextMax is where a failed turn's server text is cut, in characters
// (push-transport.md error: "one line cut at 200 characters").
const ErrorTextMax = 200

// Pill is the status pill's content.
type Pill struct {
	// Conn is the connection state text: "connecting", "ready",
	// "reconnecting in 4 s", "key rejected", OfflineText, or the reason of
	// an invalid setting.
	Conn string
	// ConnState is the state behind Conn.
	ConnState transport.ConnState
	// Tool is the tool segment ("read_file running", "read_file done"), ""
	// when clear. done/failed are held 1.5 s before clearing.
	Tool string
	// Voice is "listening", "transcribing", a transcription error or the
	// server text of a failed spoken turn; "" when idle.
	Voice string
	// Audio says once that speech cannot be heard (no audio device);
	// it clears after AudioNoticeHold.
	Audio string
}

// View is everything the pet window and message window draw. Each change
// produces a fresh copy through Options.OnChange.
type View struct {
	Emotion string // emotion id; the pack's image
	Motion  string // motion id playing
	// Bubble is the sentence being spoken, kept a few seconds after playback ends.
	Bubble      string
	EmotionText string // emotion_text badge of the last cue
	Caption     string // caption of the last cue
	// Plate is the message plate: "thinking" while a turn runs, else "".
	Plate string
	Pill  Pill
	// Running is true from a turn the user can stop until its turn end: the
	// composer is locked and its send button is a stop button.
	Running bool
	// ErrorLine is the composer's error line (server text of a failed typed turn).
	ErrorLine string
	// Delegations is the chip's list; History the settings Session list.
	Delegations []transport.Delegation
	History     []transport.Delegation
	// Usage is the last usage readout, nil before the first.
	Usage *transport.Usage
	// Reasoning is the reasoning text showing now.
	Reasoning string
}

// clone returns a copy sharing nothing mutable with v.
func (v View) clone() View {
	v.Delegations = slices.Clone(v.Delegations)
	v.History = slices.Clone(v.History)
	if v.Usage != nil {
		u := *v.Usage
		v.Usage = &u
	}
	return v
}

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
	// Mouth is the loudness of the pet's audio (0–1) and whether audio
	// plays; nil when the pet has no audio. The talk motion's mouth
	// follows it (MouthFrame).
	Mouth func() (level float64, playing bool)
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
}

// maxRemembered bounds the sets of turn ids kept for frames that race with
// an interrupt or a send; a few entries are ever live at a time.
const maxRemembered = 64

// Controller is one pet's behaviour.
type Controller struct {
	t        transport.Transport
	pack     *character.Pack
	clock    clock.Clock
	log      *slog.Logger
	onChange func(View)
	hold     time.Duration
	place    func() string
	shot     func(transport.Trigger) *transport.Screenshot
	mouth    func() (float64, bool)
	queue    *playback.Queue
	rec      *recorder

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

	mu     sync.Mutex
	closed bool
	view   View
	// running holds the turns the client sent that have not ended, with
	// their trigger (which says where a failure's text shows).
	running map[string]transport.Trigger
	// stopped holds turns a user action stopped; their frames already in
	// flight are dropped until their turn end.
	stopped *idSet
	// sending counts Sends that have not returned; sent holds the turns
	// registered since. A frame of a turn the client sent that names no
	// registered turn while a Send is under way belongs to that Send: it
	// waits in early, in arrival order, until the turn is registered, so
	// the turn starts running (thinking, filler) before its render or
	// turn end plays, however fast the backend answers.
	sending int
	sent    *idSet
	early   []transport.Event

	thinking  bool
	speaking  bool
	cueMotion string     // motion a cue asked for; "" for the base motion
	motionTmr clock.Slot // a cue motion that plays once ends
	bubbleTmr clock.Slot // the bubble clears after its hold

	toolTurn    string
	toolRunning bool
	toolTmr     clock.Slot // a done or failed tool segment clears

	retryAt time.Time
	connTmr clock.Slot // the reconnect countdown ticks

	delegTmr clock.Slot // the next done delegation expires
	audioTmr clock.Slot // the no-audio notice clears

	reasoningTurn      string
	reasoningStreaming bool

	greetPending bool // the greeting waits for the first ready
	quiet        bool // do-not-disturb: no greeting or check-in starts
	mood         mood // sleepy and pat, laid over the turns' emotion (mood.go)
	patTmr       clock.Slot
	takenOver    bool // the last close was 4409: another client has the chat
	checkIn      time.Duration
	checkInTmr   clock.Slot

	lastView    View // last snapshot queued, to skip unchanged ones
	holdPublish int  // > 0 while flow is held: unlockFlow publishes
	views       *outbox.Outbox[View]
}

// New returns a controller; Run starts it.
func New(opts Options) *Controller {
	c := &Controller{
		t:        opts.Transport,
		pack:     opts.Pack,
		clock:    opts.Clock,
		log:      opts.Logger,
		onChange: opts.OnChange,
		hold:     opts.BubbleHold,
		place:    opts.Place,
		shot:     opts.Screenshot,
		rec:      newRecorder(opts.Transcript),
		checkIn:  opts.CheckIn,
		mouth:    opts.Mouth,
		done:     make(chan struct{}),
		running:  make(map[string]transport.Trigger),
		stopped:  newIDSet(maxRemembered),
		sent:     newIDSet(maxRemembered),
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
	if c.hold <= 0 {
		c.hold = DefaultBubbleHold
	}
	if c.onChange != nil {
		c.views = outbox.New(c.onChange)
	}
	c.queue = playback.New(playback.Options{
		Engine:       opts.Speech,
		Clock:        c.clock,
		Logger:       c.log,
		FillerLines:  c.pack.FillerLines,
		FailureLines: c.pack.FailureLines,
		Rand:         opts.Rand,
		OnCue:        c.onCue,
		OnSpeech:     c.onSpeech,
		OnThinking:   c.onThinking,
		ReportFailed: c.t.ReportPlaybackFailed,
		OnSpeechFailed: func(string) {
			c.update(func() { c.showAudioNoticeLocked(SpeechFailedNotice) })
		},
	})
	c.view.Emotion = initialEmotion(c.pack)
	c.view.Motion = "idle"
	st := c.t.State()
	c.setConnLocked(&st)
	c.greetPending = opts.Greeting
	c.armCheckInLocked()
	if opts.AudioNotice != "" {
		c.showAudioNoticeLocked(opts.AudioNotice)
	}
	return c
}

// showAudioNoticeLocked shows text in the status pill for AudioNoticeHold.
func (c *Controller) showAudioNoticeLocked(text string) {
	c.view.Pill.Audio = text
	c.audioTmr.Arm(c.clock, AudioNoticeHold, func(gen int) {
		c.update(func() {
			if c.audioTmr.Current(gen) {
				c.view.Pill.Audio = ""
			}
		})
	})
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
	if c.sending == 0 || c.sent.has(id) || c.stopped.has(id) {
		return false
	}
	c.early = append(c.early, ev)
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
	c.holdPublish++
	c.mu.Unlock()
}

// unlockFlow releases flow, then publishes what changed meanwhile.
func (c *Controller) unlockFlow() {
	c.mu.Lock()
	c.holdPublish--
	c.mu.Unlock()
	c.flow.Unlock()
	c.publish()
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
	hold := c.holdPublish > 0
	c.mu.Unlock()
	if !hold {
		c.publish()
	}
}

// changedLocked queues a snapshot of the view for OnChange.
func (c *Controller) changedLocked() {
	c.view.Motion = c.motionLocked()
	if len(c.running) > 0 {
		c.view.Running = true
		c.view.Plate = "thinking"
	} else {
		c.view.Running = false
		c.view.Plate = ""
	}
	if c.onChange != nil && !reflect.DeepEqual(c.view, c.lastView) {
		c.lastView = c.view.clone()
		c.views.Put(c.view.clone())
	}
}

// publish delivers queued snapshots outside the lock, in order.
func (c *Controller) publish() {
	if c.views != nil {
		c.views.Flush()
	}
}

// motionLocked is the motion playing: thinking wins, then a cue's motion,
// then talk while a sentence plays, else idle.
func (c *Controller) motionLocked() string {
	switch {
	case c.thinking:
		return "thinking"
	case c.cueMotion != "":
		return c.cueMotion
	case c.speaking:
		return "talk"
	}
	return "idle"
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
	v.Motion = c.motionLocked()
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
	for _, t := range []*clock.Slot{&c.motionTmr, &c.bubbleTmr, &c.toolTmr, &c.connTmr, &c.delegTmr, &c.checkInTmr, &c.audioTmr} {
		t.Stop()
	}
	c.mu.Unlock()
	close(c.done)
	c.runWG.Wait()
	c.queue.Close()
}

// idSet is a bounded set of turn ids that forgets the oldest first.
