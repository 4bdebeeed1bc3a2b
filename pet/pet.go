// Package pet is the character's behaviour, headless: it consumes a
// transport's events and the user's actions, drives the playback queue and
// speech, and publishes a View snapshot that the pet window draws.
package pet

import (
	"fmt"
	"log/slog"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
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
	cueMotion string // motion a cue asked for; "" for the base motion
	motionGen int
	motionTmr clock.Timer
	bubbleTmr clock.Timer

	toolTurn    string
	toolRunning bool
	toolGen     int
	toolTmr     clock.Timer

	retryAt time.Time
	connGen int
	connTmr clock.Timer

	delegTmr clock.Timer
	audioTmr clock.Timer

	reasoningTurn      string
	reasoningStreaming bool

	greetPending bool // the greeting waits for the first ready
	takenOver    bool // the last close was 4409: another client has the chat
	checkIn      time.Duration
	checkInGen   int
	checkInTmr   clock.Timer

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
	})
	c.view.Emotion = initialEmotion(c.pack)
	c.view.Motion = "idle"
	st := c.t.State()
	c.setConnLocked(&st)
	c.greetPending = opts.Greeting
	c.armCheckInLocked()
	if opts.AudioNotice != "" {
		c.view.Pill.Audio = opts.AudioNotice
		c.audioTmr = c.clock.AfterFunc(AudioNoticeHold, func() {
			c.update(func() { c.view.Pill.Audio = "" })
		})
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

// --- connection state ---

func (c *Controller) onState(e *transport.StateEvent) {
	leftReady, greet := false, false
	c.update(func() {
		if e.State == transport.StateReady && c.greetPending {
			c.greetPending, greet = false, true
		}
		leftReady = c.view.Pill.ConnState == transport.StateReady && e.State != transport.StateReady
		c.setConnLocked(e)
		if leftReady && c.toolRunning {
			// A running tool that gets no done is cleared by the socket
			// leaving ready.
			c.clearToolLocked()
		}
	})
	if leftReady {
		c.queue.CloseUtterances()
	}
	if greet {
		// Sending needs the flow lock this event holds: the greeting
		// goes from the clock's goroutine, at once.
		c.clock.AfterFunc(0, c.Greeting)
	}
}

func (c *Controller) setConnLocked(e *transport.StateEvent) {
	c.connGen++
	if c.connTmr != nil {
		c.connTmr.Stop()
		c.connTmr = nil
	}
	c.view.Pill.ConnState = e.State
	switch {
	case e.State == transport.StateReconnecting && e.CloseCode == CloseTakenOver:
		c.takenOver = true
	case e.State == transport.StateReady || e.State == transport.StateKeyRejected:
		c.takenOver = false
	}
	switch e.State {
	case transport.StateIdle:
		c.view.Pill.Conn = ""
	case transport.StateReconnecting:
		c.retryAt = e.RetryAt
		if c.retryAt.IsZero() {
			c.retryAt = c.clock.Now().Add(e.RetryIn)
		}
		c.countdownLocked(c.connGen)
	case transport.StateInvalid:
		c.view.Pill.Conn = transport.StateInvalid.String()
		if e.Err != nil {
			c.view.Pill.Conn = e.Err.Error()
		}
	case transport.StateOffline:
		c.view.Pill.Conn = OfflineText
	case transport.StateReady:
		c.view.Pill.Conn = "ready"
		if e.AutoModel != "" {
			c.view.Pill.Conn = "ready · model " + e.AutoModel
		}
	default:
		c.view.Pill.Conn = e.State.String()
	}
}

// countdownLocked shows "reconnecting in N s" and re-arms itself for the
// moment N drops by one.
func (c *Controller) countdownLocked(gen int) {
	left := c.retryAt.Sub(c.clock.Now())
	n := int(math.Ceil(left.Seconds()))
	prefix := ""
	if c.takenOver {
		prefix = TakenOverText + " · "
	}
	if n <= 0 {
		c.view.Pill.Conn = prefix + "reconnecting"
		return
	}
	c.view.Pill.Conn = fmt.Sprintf("%sreconnecting in %d s", prefix, n)
	next := left - time.Duration(n-1)*time.Second
	c.connTmr = c.clock.AfterFunc(next, func() {
		c.update(func() {
			if gen == c.connGen {
				c.countdownLocked(gen)
			}
		})
	})
}

// --- turns ---

func (c *Controller) onRender(e *transport.RenderEvent) {
	drop := false
	c.update(func() {
		if c.stopped.has(e.TurnID) {
			// A render dropped for a stopped turn abandons the reasoning
			// still streaming for it; a text a render finished stays.
			if c.reasoningStreaming && c.reasoningTurn == e.TurnID {
				c.clearReasoningLocked()
			}
			drop = true
			return
		}
		if e.Reasoning != nil && (!c.reasoningStreaming || c.reasoningTurn == e.TurnID) {
			// The render's reasoning replaces the streamed text, unless
			// another turn's reasoning is streaming.
			c.view.Reasoning = *e.Reasoning
			c.reasoningTurn = e.TurnID
			c.reasoningStreaming = false
		}
	})
	if !drop {
		c.rec.render(e)
		c.queue.Render(e)
	}
}

func (c *Controller) onTurnEnd(e *transport.TurnEndEvent) {
	c.update(func() {
		id := e.TurnID
		trig, own := c.running[id]
		c.stopped.remove(id)
		delete(c.running, id)
		if c.toolRunning && c.toolTurn == id {
			c.clearToolLocked()
		}
		if c.reasoningStreaming && c.reasoningTurn == id {
			c.clearReasoningLocked()
		}
		if e.Usage != nil {
			u := *e.Usage
			c.view.Usage = &u
		}
		c.armCheckInLocked()
		failure := ""
		if own && e.Outcome == transport.TurnFailed {
			text := transport.OneLine(e.ErrorText, ErrorTextMax)
			if text == "" {
				text = GenericFailureText
			}
			failure = text
			switch trig {
			case transport.TriggerUserMessage:
				c.view.ErrorLine = text
			case transport.TriggerUserVoice:
				c.view.Pill.Voice = text
			}
		}
		c.rec.turnEnd(e, failure)
	})
	c.queue.TurnEnded(e)
}

// --- tool segment ---

func (c *Controller) onToolStatus(e *transport.ToolStatusEvent) {
	c.update(func() {
		if c.stopped.has(e.TurnID) {
			return
		}
		c.toolGen++
		if c.toolTmr != nil {
			c.toolTmr.Stop()
			c.toolTmr = nil
		}
		c.rec.tool(e)
		c.toolTurn = e.TurnID
		c.view.Pill.Tool = e.ToolID + " " + e.State
		c.toolRunning = e.State == "running"
		if c.toolRunning {
			return
		}
		gen := c.toolGen
		c.toolTmr = c.clock.AfterFunc(ToolHold, func() {
			c.update(func() {
				if gen == c.toolGen {
					c.clearToolLocked()
				}
			})
		})
	})
}

// ToolStatus shows the state of a tool the client runs itself (browser:
// push-transport.md has the client show its running and terminal state)
// in the status pill's tool segment, as a backend tool_status would.
func (c *Controller) ToolStatus(turnID, toolID, state string) {
	if c.isClosed() {
		return
	}
	c.onToolStatus(&transport.ToolStatusEvent{TurnID: turnID, OwnTurn: true, State: state, ToolID: toolID})
}

func (c *Controller) clearToolLocked() {
	c.toolGen++
	if c.toolTmr != nil {
		c.toolTmr.Stop()
		c.toolTmr = nil
	}
	c.view.Pill.Tool = ""
	c.toolRunning = false
	c.toolTurn = ""
}

// --- reasoning ---

func (c *Controller) clearReasoningLocked() {
	c.view.Reasoning = ""
	c.reasoningTurn = ""
	c.reasoningStreaming = false
}

func (c *Controller) onReasoning(e *transport.ReasoningEvent) {
	c.update(func() {
		if c.stopped.has(e.TurnID) {
			return
		}
		c.rec.reasoning(e.TurnID, e.Delta, false)
		if c.reasoningTurn == e.TurnID {
			c.view.Reasoning += e.Delta
		} else {
			c.view.Reasoning = e.Delta
			c.reasoningTurn = e.TurnID
		}
		c.reasoningStreaming = true
	})
}

// --- delegations ---

func (c *Controller) onDelegations(e *transport.DelegationsEvent) {
	c.update(func() {
		c.view.Delegations = slices.Clone(e.Items)
		c.view.History = slices.Clone(e.History)
		c.expireLocked()
	})
}

// expireLocked removes done items past DelegationKeep and arms a timer for
// the next one to go.
func (c *Controller) expireLocked() {
	if c.delegTmr != nil {
		c.delegTmr.Stop()
		c.delegTmr = nil
	}
	now := c.clock.Now()
	var next time.Time
	kept := c.view.Delegations[:0]
	for _, d := range c.view.Delegations {
		if d.State == "done" && d.EndedAt > 0 {
			at := time.UnixMilli(d.EndedAt).Add(DelegationKeep)
			if !now.Before(at) {
				continue
			}
			if next.IsZero() || at.Before(next) {
				next = at
			}
		}
		kept = append(kept, d)
	}
	c.view.Delegations = kept
	if !next.IsZero() {
		c.delegTmr = c.clock.AfterFunc(next.Sub(now), func() { c.update(c.expireLocked) })
	}
}

// --- playback hooks ---

func (c *Controller) onCue(_ string, cue transport.Cue) {
	c.update(func() {
		if cue.EmotionID != "" {
			c.view.Emotion = cue.EmotionID
		}
		c.view.EmotionText = cue.EmotionText
		c.view.Caption = cue.Caption
		if cue.MotionID != "" {
			c.setCueMotionLocked(cue.MotionID)
		}
	})
}

// setCueMotionLocked plays a cue's motion: a looping one until the next
// cue motion or thinking or until the reply's bubble clears, a non-looping
// one once, then back to talk or idle.
func (c *Controller) setCueMotionLocked(id string) {
	c.motionGen++
	if c.motionTmr != nil {
		c.motionTmr.Stop()
		c.motionTmr = nil
	}
	c.cueMotion = id
	m, ok := c.pack.Motions[id]
	if ok && m.Loop {
		return
	}
	d := time.Second // a motion the pack lacks: show its id briefly
	if ok && m.FPS > 0 && len(m.Frames) > 0 {
		d = time.Duration(float64(len(m.Frames)) / m.FPS * float64(time.Second))
	}
	gen := c.motionGen
	c.motionTmr = c.clock.AfterFunc(d, func() {
		c.update(func() {
			if gen == c.motionGen {
				c.cueMotion = ""
			}
		})
	})
}

func (c *Controller) clearCueMotionLocked() {
	c.motionGen++
	if c.motionTmr != nil {
		c.motionTmr.Stop()
		c.motionTmr = nil
	}
	c.cueMotion = ""
}

func (c *Controller) onSpeech(_, text string) {
	c.update(func() {
		if c.bubbleTmr != nil {
			c.bubbleTmr.Stop()
			c.bubbleTmr = nil
		}
		if text != "" {
			c.speaking = true
			c.view.Bubble = text
			return
		}
		c.speaking = false
		var tmr clock.Timer
		tmr = c.clock.AfterFunc(c.hold, func() {
			c.update(func() {
				if c.bubbleTmr == tmr {
					c.view.Bubble = ""
					c.bubbleTmr = nil
					// A looping cue motion belongs to the reply: when the
					// reply is over the character settles back to idle,
					// unless the motion is a posture it holds (sitting).
					if c.cueMotion != "" && c.cueMotion != "sit" {
						c.clearCueMotionLocked()
					}
				}
			})
		})
		c.bubbleTmr = tmr
	})
}

func (c *Controller) onThinking(on bool) {
	c.update(func() {
		c.thinking = on
		if on {
			c.clearCueMotionLocked()
		}
	})
}

// --- user actions ---

// SendText starts a typed turn (it stops speech first). Text and
// attachments both empty are ignored.
func (c *Controller) SendText(text string, attachments []transport.Image) {
	if strings.TrimSpace(text) == "" && len(attachments) == 0 {
		return
	}
	c.update(func() { c.view.ErrorLine = "" })
	shot := c.screenshot(transport.TriggerUserMessage)
	c.interrupt(false)
	c.send(transport.Turn{Trigger: transport.TriggerUserMessage, Text: text, Attachments: attachments, Screenshot: shot})
}

// VoiceTurn starts a spoken turn with the transcript text (it stops speech
// first). Empty text is ignored.
func (c *Controller) VoiceTurn(text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	c.update(func() { c.view.Pill.Voice = "" })
	shot := c.screenshot(transport.TriggerUserVoice)
	c.interrupt(false)
	c.send(transport.Turn{Trigger: transport.TriggerUserVoice, Text: text, Screenshot: shot})
}

// screenshot is the screenshot a user turn carries (Options.Screenshot).
func (c *Controller) screenshot(trigger transport.Trigger) *transport.Screenshot {
	if c.shot == nil || c.isClosed() {
		return nil
	}
	return c.shot(trigger)
}

// BargeIn is voice barge-in: speech detected while the pet speaks stops
// speech and the outstanding turns, without telling the backend.
func (c *Controller) BargeIn() { c.interrupt(false) }

// Poke starts a poke turn (a click on the pet). It does not stop speech.
func (c *Controller) Poke() { c.send(transport.Turn{Trigger: transport.TriggerPoke}) }

// Greeting starts the greeting turn (first turn after start, when the
// preset enables it).
func (c *Controller) Greeting() {
	c.send(transport.Turn{Trigger: transport.TriggerGreeting})
}

// CheckIn starts an idle-timer check-in turn.
func (c *Controller) CheckIn() {
	c.send(transport.Turn{Trigger: transport.TriggerCheckIn})
}

// Address starts a turn another character started through
// address_character: trigger "addressed by <from>", text its message.
func (c *Controller) Address(from, text string) {
	c.send(transport.Turn{Trigger: transport.TriggerAddressedBy(from), Text: text})
}

// Stop is the stop button: it stops speech and the running turns, and
// tells the backend.
func (c *Controller) Stop() { c.interrupt(true) }

// Reset starts a new conversation: it stops what runs, tells the
// transport (push reset frame, a Chat Completions transcript boundary, a
// cleared Responses previous_response_id) and marks it in the transcript.
func (c *Controller) Reset() {
	if c.isClosed() {
		return
	}
	c.interrupt(true)
	c.t.Reset()
	c.lockFlow()
	defer c.unlockFlow()
	c.update(func() {
		c.rec.reset()
		c.view.Usage = nil
	})
}

// armCheckInLocked (re)starts the idle check-in wait from now.
func (c *Controller) armCheckInLocked() {
	if c.checkIn <= 0 {
		return
	}
	c.checkInGen++
	if c.checkInTmr != nil {
		c.checkInTmr.Stop()
	}
	gen := c.checkInGen
	c.checkInTmr = c.clock.AfterFunc(c.checkIn, func() {
		fire := false
		c.update(func() {
			fire = gen == c.checkInGen && len(c.running) == 0 && c.view.Pill.ConnState == transport.StateReady
			if !fire && gen == c.checkInGen {
				c.armCheckInLocked() // busy or offline: wait another round
			}
		})
		if fire {
			c.CheckIn()
		}
	})
}

// SetVoiceStatus sets the pill's voice segment ("listening",
// "transcribing", a transcription error, or "").
func (c *Controller) SetVoiceStatus(s string) { c.update(func() { c.view.Pill.Voice = s }) }

// SpeechOwed reports whether the playback queue still owes speech; the
// transport's Options.SpeechOwed calls it.
func (c *Controller) SpeechOwed() bool { return c.queue.Owed() }

// LastPlayback is the playback record the next turn's "previous turn:"
// line will carry.
func (c *Controller) LastPlayback() transport.PlaybackRecord { return c.queue.LastRecord() }

// interrupt is what the three speech-stopping user actions share: the
// transport stops every outstanding turn, playback stops at once and
// records what was owed, and the composer unlocks.
func (c *Controller) interrupt(notifyBackend bool) {
	if c.isClosed() {
		return
	}
	ids := c.t.Interrupt(notifyBackend)
	c.lockFlow()
	defer c.unlockFlow()
	c.queue.Interrupt()
	c.update(func() {
		// Reasoning still showing stays until the stopped turn's end or
		// its dropped render ends it.
		for _, id := range ids {
			c.stopped.add(id)
		}
		// Interrupt stops every outstanding turn: the running state ends
		// now, not when the stopped turn ends arrive.
		clear(c.running)
		if c.toolRunning {
			c.clearToolLocked()
		}
		c.clearCueMotionLocked()
	})
}

// send starts turn t with the previous playback record and the character
// state, and shows it running.
func (c *Controller) send(t transport.Turn) string {
	if c.isClosed() {
		return ""
	}
	t.Previous = c.queue.TakeRecord()
	c.mu.Lock()
	t.Character = transport.CharacterState{Name: c.pack.Name, Emotion: c.view.Emotion}
	c.mu.Unlock()
	if c.place != nil {
		t.Character.Place = c.place()
	}
	c.mu.Lock()
	c.sending++
	c.mu.Unlock()
	// Send may emit events, so flow is not held across it.
	id := c.t.Send(t)
	c.lockFlow()
	defer c.unlockFlow()
	c.queue.TurnStarted(id)
	var early []transport.Event
	c.update(func() {
		c.rec.user(id, t)
		c.armCheckInLocked()
		c.sending--
		c.sent.add(id)
		c.running[id] = t.Trigger
		// This turn's held frames play now; once no Send is under way,
		// so do any others (a late frame of a turn sent long ago).
		keep := c.early[:0]
		for _, ev := range c.early {
			if ownTurnOf(ev) == id || c.sending == 0 {
				early = append(early, ev)
			} else {
				keep = append(keep, ev)
			}
		}
		clear(c.early[len(keep):])
		c.early = keep
	})
	for _, ev := range early {
		c.dispatch(ev)
	}
	return id
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
	for _, t := range []clock.Timer{c.motionTmr, c.bubbleTmr, c.toolTmr, c.connTmr, c.delegTmr, c.checkInTmr, c.audioTmr} {
		if t != nil {
			t.Stop()
		}
	}
	c.mu.Unlock()
	close(c.done)
	c.runWG.Wait()
	c.queue.Close()
}

// idSet is a bounded set of turn ids that forgets the oldest first.
type idSet struct {
	max   int
	ids   map[string]bool
	order []string
}

func newIDSet(max int) *idSet { return &idSet{max: max, ids: make(map[string]bool)} }

func (s *idSet) has(id string) bool { return s.ids[id] }

func (s *idSet) add(id string) {
	if s.ids[id] {
		return
	}
	s.ids[id] = true
	s.order = append(s.order, id)
	for len(s.order) > s.max {
		delete(s.ids, s.order[0])
		s.order = s.order[1:]
	}
}

func (s *idSet) remove(id string) {
	if !s.ids[id] {
		return
	}
	delete(s.ids, id)
	s.order = slices.DeleteFunc(s.order, func(x string) bool { return x == id })
}
