package pushtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"yui/transport"
	"yui/transport/clock"
)

// Source is the render source the scripts name.
const Source = "yui-sim"

// DefaultSimAddr is where cmd/yui-sim and `yui --demo` listen.
const DefaultSimAddr = "127.0.0.1:8646"

// Script plays a scenario on one client connection. It returns when the
// scenario is over, the connection closed (nil error) or ctx ended; the
// connection closes after it returns.
type Script func(ctx context.Context, c *Conn, log *slog.Logger) error

// NamedScript returns the script a --script value names: "echo", "demo"
// (with DefaultDemo), or else the path of a scenario file (see ParseScenario).
func NamedScript(name string) (Script, error) {
	switch name {
	case "echo":
		return Echo(), nil
	case "demo", "":
		return Demo(DefaultDemo()), nil
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("pushtest: script %q: %w", name, err)
	}
	s, err := ParseScenario(data)
	if err != nil {
		return nil, fmt.Errorf("pushtest: script %q: %w", name, err)
	}
	return s, nil
}

// SimOptions configures StartSim.
type SimOptions struct {
	// Addr is the loopback address to listen on; "" is DefaultSimAddr.
	Addr string
	// Key the hello must carry; "" accepts any.
	Key string
	// Script runs once per connection; nil is Demo(DefaultDemo()).
	Script Script
	// MaxTurnBytes, when > 0, is stated in ready (the client then sends images).
	MaxTurnBytes int
	// Logger receives the simulator's log; nil discards.
	Logger *slog.Logger
	// OnFrame sees every frame a client sends (Options.OnFrame).
	OnFrame func(f Frame)
	// Break makes the server break one rule (Options.Break). A Script that
	// should break its rules too takes the same value in DemoOptions.Break.
	Break Breakage
}

// StartSim starts a simulated backend that runs the script on every
// connection. It stops when ctx ends or Close is called.
func StartSim(ctx context.Context, o SimOptions) (*Server, error) {
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	script := o.Script
	if script == nil {
		script = Demo(DefaultDemo())
	}
	addr := o.Addr
	if addr == "" {
		addr = DefaultSimAddr
	}
	s, err := Start(Options{
		Addr:         addr,
		Key:          o.Key,
		MaxTurnBytes: o.MaxTurnBytes,
		OnFrame:      o.OnFrame,
		Break:        o.Break,
		OnConn: func(c *Conn) {
			cctx, cancel := context.WithCancel(ctx)
			defer cancel()
			go func() {
				// The script's context ends with the connection or the server.
				select {
				case <-c.Done():
				case <-c.server.done:
				case <-cctx.Done():
				}
				cancel()
			}()
			log.Info("sim_conn", "chat_id", c.Hello.ChatID, "tools", len(c.Hello.Tools), "accepts", c.Hello.Accepts)
			if err := script(cctx, c, log); err != nil && cctx.Err() == nil {
				log.Warn("sim_script_error", "err", err)
			}
			log.Info("sim_conn_end", "chat_id", c.Hello.ChatID)
		},
	})
	if err != nil {
		return nil, err
	}
	go func() {
		select {
		case <-ctx.Done():
			s.Close()
		case <-s.done:
		}
	}()
	log.Info("sim_listening", "url", s.URL, "ws", "ws"+strings.TrimPrefix(s.URL, "http")+"/ws")
	return s, nil
}

// frame is a frame the scripts send.
type frame = map[string]any

func segment(speech string, cues ...transport.Cue) transport.Segment {
	return transport.Segment{Cues: cues, Speech: speech}
}

// usageFor makes up a plausible token usage for a turn.
func usageFor(in, out string) transport.Usage {
	i, o := int64(len(in)/4+50), int64(len(out)/4+1)
	return transport.Usage{InputTokens: i, OutputTokens: o, TotalTokens: i + o}
}

// turnFrame is the part of a client turn frame the scripts read.
type turnFrame struct {
	TurnID        string   `json:"turn_id"`
	ClientContext string   `json:"client_context"`
	Text          string   `json:"text"`
	Images        []string `json:"images"`
}

// Echo answers each turn with a render repeating its text (cut to echoMax
// code points) under the cue
// emotion "happy" (when the client's vocabulary has it, or it sent none),
// then turn_end with usage.
func Echo() Script {
	return func(ctx context.Context, c *Conn, log *slog.Logger) error {
		happy := echoHappy(c.Hello.Vocabulary)
		for {
			f, err := c.Next(ctx)
			if err != nil {
				return endErr(err)
			}
			switch f.Type {
			case "vocabulary":
				var v struct {
					Vocabulary json.RawMessage `json:"vocabulary"`
				}
				if f.Decode(&v) == nil && len(v.Vocabulary) > 0 {
					happy = echoHappy(v.Vocabulary)
				}
				continue
			case "turn":
			default:
				continue
			}
			var t turnFrame
			if err := f.Decode(&t); err != nil {
				log.Warn("sim_frame_malformed", "type", f.Type, "err", err)
				continue
			}
			log.Info("sim_turn", "turn_id", t.TurnID, "text_len", len(t.Text), "images", len(t.Images))
			var cues []transport.Cue
			if happy {
				cues = []transport.Cue{{EmotionID: "happy"}}
			}
			err = c.Send(frame{"type": "render", "turn_id": t.TurnID, "source": Source,
				"segments": []transport.Segment{segment(cutText(t.Text, echoMax), cues...)}})
			if err == nil {
				err = c.Send(frame{"type": "turn_end", "turn_id": t.TurnID, "usage": usageFor(t.ClientContext+t.Text, t.Text)})
			}
			if err != nil {
				return endErr(err)
			}
		}
	}
}

// echoMax cuts the text Echo repeats, so its render stays far below the
// text frame size whatever the turn carried.
const echoMax = 2000

// echoHappy reports whether a vocabulary lets Echo show "happy": it lists
// it, or there is no vocabulary to go by.
func echoHappy(raw json.RawMessage) bool {
	var v transport.Vocabulary
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return true
	}
	return slices.Contains(v.EmotionIDs, "happy")
}

// endErr maps the ways a connection ends to a nil script error.
func endErr(err error) error {
	if errors.Is(err, ErrClosed) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

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

// ToolWait is the backend adapter's wait for a tool_result (push-transport.md limits).
func ToolWait(name string) time.Duration {
	switch name {
	case "body_action":
		return 20 * time.Second
	case "browser":
		return 40 * time.Second
	}
	return 7 * time.Second
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
	tools  []toolDecl
	errOK  bool // the client accepts error frames

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
			d.log.Info("sim_tool_result", "id", r.ID, "result", cutText(r.Result, 120), "images", len(r.Images))
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

// playTurn plays the k-th turn that does not fail.
func (d *demo) playTurn(t turnFrame, k int) error {
	id := t.TurnID
	end := func() error {
		u := any(usageFor(t.ClientContext+t.Text, t.Text))
		if d.o.Break == BreakUsageStrings {
			u = map[string]string{"input_tokens": "1200", "output_tokens": "80", "total_tokens": "1280"}
		}
		f := frame{"type": "turn_end", "turn_id": id, "usage": u}
		if d.o.Break == BreakDoubleTurnEnd {
			return d.sendAll(f, f)
		}
		return d.c.Send(f)
	}
	reasoning := []string{"The user wrote something; ", "showing every frame the backend can send."}
	said := "You poked me!"
	if t.Text != "" {
		said = "You said: " + cutText(t.Text, 200)
	}
	speech := frame{"type": "speech", "turn_id": id, "source": Source,
		"segments": []transport.Segment{segment(said, d.emotionCue("happy")...)}}
	if d.o.Break == BreakRenderShape {
		speech["segments"] = map[string]string{"speech": said}
	}
	doneState := "done"
	if d.o.Break == BreakToolStatusState {
		doneState = "finished"
	}
	closing := frame{"type": "render", "turn_id": id, "source": Source,
		"reasoning": strings.Join(reasoning, ""),
		"segments":  []transport.Segment{segment("That was the render closing my reply.", d.cue(k))}}
	steps := []func() error{
		func() error { return d.c.Send(frame{"type": "reasoning", "turn_id": id, "delta": reasoning[0]}) },
		func() error { return d.c.Send(frame{"type": "reasoning", "turn_id": id, "delta": reasoning[1]}) },
		func() error {
			return d.c.Send(frame{"type": "tool_status", "turn_id": id, "state": "running", "tool_id": "web_search"})
		},
		func() error {
			return d.c.Send(frame{"type": "tool_status", "turn_id": id, "state": doneState, "tool_id": "web_search"})
		},
		func() error { return d.callTool(id, k) },
		func() error {
			title := fmt.Sprintf("Demo background task %d", k)
			if d.o.Break == BreakDelegationTitle {
				title += strings.Repeat(" and more", 20)
			} else {
				title = cutText(title, 120)
			}
			d.mu.Lock()
			d.items = append(d.items, transport.Delegation{ID: fmt.Sprintf("d-%d", k),
				Title: title, StartedAt: d.o.Clock.Now().UnixMilli(), State: "running"})
			d.mu.Unlock()
			return d.sendDelegations()
		},
		func() error { return d.c.Send(speech) },
		func() error {
			return d.c.Send(frame{"type": "speech", "turn_id": id, "source": Source,
				"segments": []transport.Segment{segment("Let me show you what a backend can send.")}})
		},
		func() error {
			switch d.o.Break {
			case BreakFrameNotJSON:
				if err := d.c.SendRaw([]byte("still thinking...")); err != nil {
					return err
				}
			case BreakOversizeFrame:
				if err := d.c.Send(frame{"type": "render", "turn_id": id, "source": Source,
					"segments": []transport.Segment{segment(strings.Repeat("a", 300<<10))}}); err != nil {
					return err
				}
			case BreakRenderAfterTurnEnd:
				return nil // sent after turn_end below
			}
			return d.c.Send(closing)
		},
	}
	for i, step := range steps {
		if i > 0 {
			if err := d.pause(); err != nil {
				return err
			}
		}
		if !d.live(id) {
			d.log.Info("sim_turn_cut", "turn_id", id)
			return end()
		}
		if err := step(); err != nil {
			return err
		}
	}
	if err := end(); err != nil {
		return err
	}
	switch d.o.Break {
	case BreakRenderAfterTurnEnd:
		if err := d.c.Send(closing); err != nil {
			return err
		}
	case BreakReasoningAfterTurnEnd:
		if err := d.c.Send(frame{"type": "reasoning", "turn_id": id, "delta": " (an afterthought)"}); err != nil {
			return err
		}
	}
	d.scheduleReport(k)
	return nil
}

// callTool sends one tool_call of the declared tools, in turn, and waits
// for its result with the backend adapter's wait.
func (d *demo) callTool(turnID string, k int) error {
	if len(d.tools) == 0 {
		return nil
	}
	t := d.tools[(k-1)%len(d.tools)]
	name, args := t.Name, ExampleArguments(t.Name, t.Parameters)
	switch d.o.Break {
	case BreakUndeclaredTool:
		name = "run_shell"
	case BreakToolArgs:
		args = json.RawMessage(`{}`)
	case BreakParallelTools:
		// A second call goes out before the first is answered.
		wait, err := d.sendCall(turnID, fmt.Sprintf("c-%d-%s-early", k, name), name, args)
		if err != nil {
			return err
		}
		defer wait()
	}
	wait, err := d.sendCall(turnID, fmt.Sprintf("c-%d-%s", k, name), name, args)
	if err != nil {
		return err
	}
	return wait()
}

// sendCall sends one tool_call and returns the wait for its result.
func (d *demo) sendCall(turnID, callID, name string, args json.RawMessage) (wait func() error, err error) {
	ch := make(chan string, 1)
	d.mu.Lock()
	d.results[callID] = ch
	d.mu.Unlock()
	forget := func() {
		d.mu.Lock()
		delete(d.results, callID)
		d.mu.Unlock()
	}
	d.log.Info("sim_tool_call", "id", callID, "name", name, "arguments", string(args))
	if err := d.c.Send(frame{"type": "tool_call", "id": callID, "turn_id": turnID, "name": name, "arguments": args}); err != nil {
		forget()
		return nil, err
	}
	return func() error {
		defer forget()
		if d.o.Break == BreakToolNoWait {
			return nil
		}
		wait := ToolWait(name)
		if w, ok := d.o.ToolWaits[name]; ok {
			wait = w
		}
		timeout := make(chan struct{})
		timer := d.o.Clock.AfterFunc(wait, func() { close(timeout) })
		defer timer.Stop()
		select {
		case <-ch:
		case <-timeout:
			d.log.Warn("sim_tool_wait", "id", callID, "result", fmt.Sprintf("error: no reply from the client within %d s", int(wait.Seconds())))
		case <-d.ctx.Done():
			return d.ctx.Err()
		}
		return nil
	}, nil
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

// ExampleArguments returns valid arguments for a declared tool: known
// tools get meaningful ones, others the required fields filled from the
// schema (first enum value, minimum, "demo", true).
func ExampleArguments(name string, schema json.RawMessage) json.RawMessage {
	switch name {
	case "look":
		return json.RawMessage(`{"at":"body"}`)
	case "body_action":
		return json.RawMessage(`{"action":"go_home"}`)
	case "rate_relation":
		return json.RawMessage(`{"delta":1,"reason":"a friendly demo"}`)
	case "address_character":
		return json.RawMessage(`{"character":"Yui","text":"Hello from the demo backend!"}`)
	case "browser":
		return json.RawMessage(`{"action":"read","url":"https://example.com"}`)
	}
	var s struct {
		Properties map[string]struct {
			Type    string            `json:"type"`
			Enum    []json.RawMessage `json:"enum"`
			Minimum *float64          `json:"minimum"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	json.Unmarshal(schema, &s)
	args := map[string]json.RawMessage{}
	for _, r := range s.Required {
		p := s.Properties[r]
		switch {
		case len(p.Enum) > 0:
			args[r] = p.Enum[0]
		case p.Type == "integer" || p.Type == "number":
			v := 0.0
			if p.Minimum != nil {
				v = *p.Minimum
			}
			args[r] = json.RawMessage(strconv.FormatFloat(v, 'f', -1, 64))
		case p.Type == "boolean":
			args[r] = json.RawMessage("true")
		case p.Type == "object":
			args[r] = json.RawMessage("{}")
		case p.Type == "array":
			args[r] = json.RawMessage("[]")
		default:
			args[r] = json.RawMessage(`"demo"`)
		}
	}
	b, _ := json.Marshal(args)
	return b
}

// sleep waits d on clk, or until ctx ends.
func sleep(ctx context.Context, clk clock.Clock, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	ch := make(chan struct{})
	t := clk.AfterFunc(d, func() { close(ch) })
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		t.Stop()
		return ctx.Err()
	}
}

func cutText(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max-1]) + "…"
}

// Scenario files.
//
// A scenario file is a JSON object:
//
//	{
//	  "loop": true,
//	  "steps": [
//	    {"wait": "turn", "timeout_ms": 600000},
//	    {"sleep_ms": 500},
//	    {"send": {"type": "render", "turn_id": "{turn_id}", "source": "file",
//	              "segments": [{"cues": [{"emotion_id": "happy"}], "speech": "Hi!"}]}},
//	    {"send": {"type": "turn_end", "turn_id": "{turn_id}"}}
//	  ]
//	}
//
// Steps run in order; each has exactly one of:
//
//   - "send": a frame sent verbatim, after every "{turn_id}" in it is
//     replaced by the turn_id of the latest client turn frame (JSON-escaped;
//     "" before the first turn).
//   - "wait": a frame type; client frames are skipped until one of that
//     type arrives. "timeout_ms" bounds the wait (default 600000, ten
//     minutes); a wait that passes ends the script with an error.
//   - "sleep_ms": a pause.
//
// With "loop" the steps repeat until the connection closes; each round
// must contain a wait, so a loop cannot flood the client.
type scenario struct {
	Loop  bool           `json:"loop"`
	Steps []scenarioStep `json:"steps"`
}

type scenarioStep struct {
	Send      json.RawMessage `json:"send"`
	Wait      string          `json:"wait"`
	TimeoutMS int64           `json:"timeout_ms"`
	SleepMS   int64           `json:"sleep_ms"`
}

// DefaultWaitTimeout bounds a scenario wait step without timeout_ms.
const DefaultWaitTimeout = 10 * time.Minute

// ParseScenario compiles a scenario file (format above) into a Script that
// uses the wall clock.
func ParseScenario(data []byte) (Script, error) {
	return ParseScenarioClock(data, nil)
}

// ParseScenarioClock is ParseScenario timing waits and sleeps on clk (nil
// is the wall clock).
func ParseScenarioClock(data []byte, clk clock.Clock) (Script, error) {
	if clk == nil {
		clk = clock.Real{}
	}
	var sc scenario
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sc); err != nil {
		return nil, fmt.Errorf("pushtest: scenario: %w", err)
	}
	if len(sc.Steps) == 0 {
		return nil, errors.New("pushtest: scenario: no steps")
	}
	hasWait := false
	for i, st := range sc.Steps {
		n := 0
		if len(st.Send) > 0 {
			n++
			var obj map[string]json.RawMessage
			if json.Unmarshal(st.Send, &obj) != nil {
				return nil, fmt.Errorf("pushtest: scenario step %d: send must be a JSON object", i+1)
			}
			if _, ok := obj["type"]; !ok {
				return nil, fmt.Errorf("pushtest: scenario step %d: send frame has no type", i+1)
			}
		}
		if st.Wait != "" {
			n++
			hasWait = true
		}
		if st.SleepMS != 0 {
			n++
			if st.SleepMS < 0 {
				return nil, fmt.Errorf("pushtest: scenario step %d: negative sleep_ms", i+1)
			}
		}
		if st.TimeoutMS < 0 {
			return nil, fmt.Errorf("pushtest: scenario step %d: negative timeout_ms", i+1)
		}
		if n != 1 {
			return nil, fmt.Errorf("pushtest: scenario step %d: want exactly one of send, wait, sleep_ms", i+1)
		}
	}
	if sc.Loop && !hasWait {
		return nil, errors.New("pushtest: scenario: a loop needs a wait step")
	}
	return func(ctx context.Context, c *Conn, log *slog.Logger) error {
		turnID := ""
		for {
			for i, st := range sc.Steps {
				switch {
				case len(st.Send) > 0:
					esc, _ := json.Marshal(turnID)
					data := bytes.ReplaceAll(st.Send, []byte("{turn_id}"), esc[1:len(esc)-1])
					if err := c.SendRaw(data); err != nil {
						return endErr(err)
					}
				case st.Wait != "":
					timeout := DefaultWaitTimeout
					if st.TimeoutMS > 0 {
						timeout = time.Duration(st.TimeoutMS) * time.Millisecond
					}
					wctx, cancel := context.WithCancel(ctx)
					timer := clk.AfterFunc(timeout, cancel)
					f, err := waitFrame(wctx, c, st.Wait, &turnID)
					timer.Stop()
					timedOut := wctx.Err() != nil && ctx.Err() == nil
					cancel()
					if timedOut {
						return fmt.Errorf("pushtest: scenario step %d: no %s frame within %v", i+1, st.Wait, timeout)
					}
					if err != nil {
						return endErr(err)
					}
					log.Info("sim_frame", "type", f.Type, "turn_id", turnID)
				default:
					if err := sleep(ctx, clk, time.Duration(st.SleepMS)*time.Millisecond); err != nil {
						return endErr(err)
					}
				}
			}
			if !sc.Loop {
				return nil
			}
		}
	}, nil
}

// waitFrame skips frames until one of type typ, noting the turn_id of
// every turn frame that passes.
func waitFrame(ctx context.Context, c *Conn, typ string, turnID *string) (Frame, error) {
	for {
		f, err := c.Next(ctx)
		if err != nil {
			return f, err
		}
		if f.Type == "turn" {
			var t turnFrame
			if f.Decode(&t) == nil {
				*turnID = t.TurnID
			}
		}
		if f.Type == typ {
			return f, nil
		}
	}
}
