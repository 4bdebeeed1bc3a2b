package pushsim

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"yui/transport"
	"yui/transport/clock"
	"yui/transport/textcut"
)

// DemoOptions paces the demo script.
type DemoOptions struct {
	// Pace is the pause between the frames of a turn; 0 sends them at once.
	Pace time.Duration
	// ReportAfter is how long after a turn the backend-minted report turn
	// that finishes the turn's delegation arrives; <= 0 sends none.
	ReportAfter time.Duration
	// Clock times the pauses; nil is the wall clock.
	Clock clock.Clock
	// ToolWaits overrides the backend adapter's tool_result wait per tool
	// name; a tool not listed waits as the limits table says.
	ToolWaits map[string]time.Duration
	// Break makes the script break one rule (see Breakage).
	Break Breakage
}

// DefaultDemo is the pacing of `yui --demo` and cmd/yui-sim.
func DefaultDemo() DemoOptions {
	return DemoOptions{Pace: 400 * time.Millisecond, ReportAfter: 8 * time.Second}
}

// Demo plays every frame type over the turns it gets. Every fourth client
// turn fails (an error frame when the client accepts it, a failure line
// otherwise) and ends. Other turns stream reasoning, a tool_status pair,
// one tool_call (the declared tools in turn, with valid arguments; the
// script waits for the tool_result), a delegations list, two speech frames
// and a render carrying every cue kind and the whole reasoning, then
// turn_end with usage. ReportAfter later a turn the backend mints
// ("sim-<n>") finishes the turn's delegation: delegations, render, turn_end.
//
// A stop naming the turn, or a newer turn arriving, cuts the turn short:
// its turn_end goes out at once. reset empties the delegations list.
func Demo(o DemoOptions) Script {
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	return func(ctx context.Context, c *Conn, log *slog.Logger) error {
		d := newDemo(ctx, c, log, o)
		return d.run()
	}
}

type demo struct {
	ctx    context.Context
	cancel context.CancelFunc
	c      *Conn
	log    *slog.Logger
	o      DemoOptions
	tools  []toolDecl // body_action and look first (bodyFirst)
	walks  int        // body_action calls made (callTool's goroutine)
	errOK  bool       // the client accepts error frames

	turns chan turnFrame // client turns, in order

	// What live has read of the received frames (run goroutine only).
	scanned   int
	turnOrder []string
	stopped   map[string]bool

	mu       sync.Mutex
	vocab    transport.Vocabulary   // the latest hello or vocabulary frame
	hasVocab bool                   // the client sent a vocabulary
	results  map[string]chan string // pending tool_call id -> result text
	items    []transport.Delegation
	reports  int
	wg       sync.WaitGroup // report goroutines
}

// toolDecl is one declared tool as the demo reads it.
type toolDecl struct {
	Name       string
	Parameters json.RawMessage
}

func newDemo(ctx context.Context, c *Conn, log *slog.Logger, o DemoOptions) *demo {
	ctx, cancel := context.WithCancel(ctx)
	d := &demo{ctx: ctx, cancel: cancel, c: c, log: log, o: o, turns: make(chan turnFrame, 64),
		results: map[string]chan string{}, stopped: map[string]bool{}}
	for _, raw := range c.Hello.Tools {
		var t struct {
			Function struct {
				Name       string          `json:"name"`
				Parameters json.RawMessage `json:"parameters"`
			} `json:"function"`
		}
		if json.Unmarshal(raw, &t) == nil && t.Function.Name != "" {
			d.tools = append(d.tools, toolDecl{t.Function.Name, t.Function.Parameters})
		}
	}
	// The body comes first: a new user sees the pet move and look about.
	slices.SortStableFunc(d.tools, func(a, b toolDecl) int { return bodyFirst(a.Name) - bodyFirst(b.Name) })
	if len(c.Hello.Vocabulary) > 0 {
		if err := json.Unmarshal(c.Hello.Vocabulary, &d.vocab); err != nil {
			log.Warn("sim_vocabulary_malformed", "err", err)
		} else {
			d.hasVocab = true
		}
	}
	d.errOK = slices.Contains(c.Hello.Accepts, "error")
	return d
}

func (d *demo) run() error {
	readErr := make(chan error, 1)
	go func() { readErr <- d.read() }()
	defer func() {
		// Stop the reader and the pending reports before returning:
		// the script owns them.
		d.cancel()
		<-d.turnsDone()
		d.wg.Wait()
	}()
	n, normal := 0, 0
	for t := range d.turns {
		n++
		var err error
		if n%4 == 0 {
			err = d.failTurn(t, n)
		} else {
			normal++
			err = d.playTurn(t, normal)
		}
		if err != nil {
			return endErr(err)
		}
	}
	return endErr(<-readErr)
}

// turnsDone returns a channel closed once the reader has closed d.turns,
// draining turns nobody will play.
func (d *demo) turnsDone() <-chan struct{} {
	done := make(chan struct{})
	go func() {
		for range d.turns {
		}
		close(done)
	}()
	return done
}

// read dispatches the client's frames until the connection closes.
func (d *demo) read() error {
	defer close(d.turns)
	for {
		f, err := d.c.Next(d.ctx)
		if err != nil {
			return err
		}
		switch f.Type {
		case "turn":
			var t turnFrame
			if err := f.Decode(&t); err != nil || t.TurnID == "" {
				d.log.Warn("sim_frame_malformed", "type", f.Type)
				continue
			}
			d.log.Info("sim_turn", "turn_id", t.TurnID, "text_len", len(t.Text), "images", len(t.Images))
			select {
			case d.turns <- t:
			default:
				d.log.Warn("sim_turn_dropped", "turn_id", t.TurnID, "reason", "queue full")
			}
		case "stop":
			var s struct {
				TurnIDs []string `json:"turn_ids"`
			}
			f.Decode(&s)
			d.log.Info("sim_stop", "turn_ids", s.TurnIDs)
		case "tool_result":
			var r struct {
				ID     string   `json:"id"`
				Result string   `json:"result"`
				Images []string `json:"images"`
			}
			f.Decode(&r)
			d.mu.Lock()
			ch := d.results[r.ID]
			delete(d.results, r.ID)
			d.mu.Unlock()
			if ch == nil {
				d.log.Info("sim_tool_result_ignored", "id", r.ID)
				continue
			}
			ch <- r.Result
			d.log.Info("sim_tool_result", "id", r.ID, "result", textcut.Cut(r.Result, 120), "images", len(r.Images))
		case "reset":
			d.log.Info("sim_reset")
			if d.o.Break == BreakResetKeepsWork {
				continue
			}
			d.mu.Lock()
			d.items = nil
			d.mu.Unlock()
			if err := d.sendDelegations(); err != nil {
				return err
			}
		case "vocabulary":
			var v struct {
				Vocabulary *transport.Vocabulary `json:"vocabulary"`
			}
			if err := f.Decode(&v); err != nil || v.Vocabulary == nil {
				d.log.Warn("sim_frame_malformed", "type", f.Type)
				continue
			}
			d.log.Info("sim_vocabulary", "emotions", len(v.Vocabulary.EmotionIDs), "motions", len(v.Vocabulary.MotionIDs))
			d.mu.Lock()
			d.vocab, d.hasVocab = *v.Vocabulary, true
			d.mu.Unlock()
		default:
			d.log.Info("sim_frame", "type", f.Type, "bytes", len(f.Raw))
		}
	}
}

// live reports whether the turn should go on: no stop named it, no newer
// turn arrived, the connection is open. It reads what the connection
// received rather than what the reader dispatched, so a frame counts from
// the moment it arrived. Only the run goroutine calls it; it decodes each
// received frame once.
func (d *demo) live(turnID string) bool {
	if d.ctx.Err() != nil {
		return false
	}
	recv := d.c.Received()
	for _, f := range recv[d.scanned:] {
		switch f.Type {
		case "turn":
			var t struct {
				TurnID string `json:"turn_id"`
			}
			if f.Decode(&t) == nil {
				d.turnOrder = append(d.turnOrder, t.TurnID)
			}
		case "stop":
			var st struct {
				TurnIDs []string `json:"turn_ids"`
			}
			if d.o.Break != BreakIgnoreStop && f.Decode(&st) == nil {
				for _, id := range st.TurnIDs {
					d.stopped[id] = true
				}
			}
		}
	}
	d.scanned = len(recv)
	if d.stopped[turnID] {
		return false
	}
	i := slices.Index(d.turnOrder, turnID)
	return i < 0 || i == len(d.turnOrder)-1 // a newer turn supersedes it
}

// pause waits the pace between frames.
func (d *demo) pause() error { return sleep(d.ctx, d.o.Clock, d.o.Pace) }

func (d *demo) failTurn(t turnFrame, n int) error {
	errFrame := frame{"type": "error", "turn_id": t.TurnID,
		"message": fmt.Sprintf("Simulated failure: every fourth turn fails (turn %d)", n)}
	end := frame{"type": "turn_end", "turn_id": t.TurnID}
	switch {
	case d.errOK && d.o.Break == BreakErrorAfterTurnEnd:
		return d.sendAll(end, errFrame)
	case d.errOK || d.o.Break == BreakErrorWithoutAccepts:
		return d.sendAll(errFrame, end)
	}
	return d.sendAll(frame{"type": "render", "turn_id": t.TurnID, "source": Source,
		"segments": []transport.Segment{segment("Sorry, something went wrong on my side.", d.emotionCue("sad")...)}}, end)
}

// sendAll sends frames in order, stopping at the first error.
func (d *demo) sendAll(frames ...frame) error {
	for _, f := range frames {
		if err := d.c.Send(f); err != nil {
			return err
		}
	}
	return nil
}

// vocabulary returns the client's latest vocabulary and whether it sent one.
func (d *demo) vocabulary() (transport.Vocabulary, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.vocab, d.hasVocab
}

// emotion returns want when the client renders it (or sent no
// vocabulary), else its first emotion, or "" when its list is empty.
func (d *demo) emotion(want string) string {
	v, ok := d.vocabulary()
	if !ok || slices.Contains(v.EmotionIDs, want) || d.o.Break == BreakVocabDefaults {
		return want
	}
	if len(v.EmotionIDs) == 0 {
		return ""
	}
	return v.EmotionIDs[0]
}

// emotionCue is a cue showing emotion want, or none when the client
// renders no emotion.
func (d *demo) emotionCue(want string) []transport.Cue {
	if e := d.emotion(want); e != "" {
		return []transport.Cue{{EmotionID: e}}
	}
	return nil
}

func (d *demo) cue(k int) transport.Cue {
	v, _ := d.vocabulary()
	c := transport.Cue{EmotionID: d.emotion("happy"), Caption: fmt.Sprintf("demo turn %d", k)}
	if len(v.MotionIDs) > 0 {
		c.MotionID = v.MotionIDs[(k-1)%len(v.MotionIDs)]
	} else if d.o.Break == BreakVocabDefaults {
		c.MotionID = "idle"
	}
	if v.EmotionTextMode == "enum" {
		keys := make([]string, 0, len(v.EmotionTextMap))
		for key := range v.EmotionTextMap {
			keys = append(keys, key)
		}
		slices.Sort(keys)
		if len(keys) > 0 {
			c.EmotionText = keys[(k-1)%len(keys)]
		}
	} else {
		c.EmotionText = "cheerfully"
	}
	return c
}

func (d *demo) sendDelegations() error {
	d.mu.Lock()
	items := append([]transport.Delegation{}, d.items...)
	d.mu.Unlock()
	return d.c.Send(frame{"type": "delegations", "items": items})
}

// scheduleReport finishes the k-th turn's delegation ReportAfter from now
// in a turn the backend mints.
func (d *demo) scheduleReport(k int) {
	if d.o.ReportAfter <= 0 {
		return
	}
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		if sleep(d.ctx, d.o.Clock, d.o.ReportAfter) != nil {
			return
		}
		delID := fmt.Sprintf("d-%d", k)
		d.mu.Lock()
		d.reports++
		turnID := fmt.Sprintf("sim-%d", d.reports)
		found := false
		for i := range d.items {
			if d.items[i].ID == delID && d.items[i].State == "running" {
				d.items[i].State, d.items[i].Status = "done", "ok"
				d.items[i].EndedAt = d.o.Clock.Now().UnixMilli()
				d.items[i].Summary = fmt.Sprintf("Demo task %d finished without trouble.", k)
				found = true
			}
		}
		d.mu.Unlock()
		if !found { // reset in between: nothing to report
			return
		}
		speech := fmt.Sprintf("By the way, background task %d is done.", k)
		for _, f := range []frame{
			nil, // the delegations list
			{"type": "render", "turn_id": turnID, "source": Source,
				"segments": []transport.Segment{segment(speech, d.emotionCue("happy")...)}},
			{"type": "turn_end", "turn_id": turnID, "usage": usageFor("report", speech)},
		} {
			var err error
			if f == nil {
				err = d.sendDelegations()
			} else {
				err = d.c.Send(f)
			}
			if err != nil {
				return
			}
		}
		d.log.Info("sim_report", "turn_id", turnID, "delegation", delID)
	}()
}
