package pushsim

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
	"time"

	"yui/transport"
	"yui/transport/clock"
	"yui/transport/textcut"
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
// (with DefaultDemo), "mint:N" (Mint(N)), or else the path of a scenario
// file (see ParseScenario).
func NamedScript(name string) (Script, error) {
	switch name {
	case "echo":
		return Echo(), nil
	case "demo", "":
		return Demo(DefaultDemo()), nil
	}
	if n, ok := strings.CutPrefix(name, "mint:"); ok {
		turns, err := strconv.Atoi(n)
		if err != nil || turns <= 0 {
			return nil, fmt.Errorf("pushsim: script %q: want mint:N with N a positive number", name)
		}
		return Mint(turns), nil
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("pushsim: script %q: %w", name, err)
	}
	s, err := ParseScenario(data)
	if err != nil {
		return nil, fmt.Errorf("pushsim: script %q: %w", name, err)
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
				"segments": []transport.Segment{segment(textcut.Cut(t.Text, echoMax), cues...)}})
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
		return nil, fmt.Errorf("pushsim: scenario: %w", err)
	}
	if err := sc.check(); err != nil {
		return nil, err
	}
	return func(ctx context.Context, c *Conn, log *slog.Logger) error {
		return sc.play(ctx, c, log, clk)
	}, nil
}

// check refuses a scenario without steps, a step that is not exactly one
// of send, wait and sleep, and a loop that would not wait.
func (sc *scenario) check() error {
	if len(sc.Steps) == 0 {
		return errors.New("pushsim: scenario: no steps")
	}
	hasWait := false
	for i, st := range sc.Steps {
		if err := st.check(i + 1); err != nil {
			return err
		}
		hasWait = hasWait || st.Wait != ""
	}
	if sc.Loop && !hasWait {
		return errors.New("pushsim: scenario: a loop needs a wait step")
	}
	return nil
}

// check refuses step number n unless it is exactly one of a send of a
// typed JSON object, a wait and a sleep, with no negative time.
func (st scenarioStep) check(n int) error {
	kinds := 0
	if len(st.Send) > 0 {
		kinds++
		var obj map[string]json.RawMessage
		if json.Unmarshal(st.Send, &obj) != nil {
			return fmt.Errorf("pushsim: scenario step %d: send must be a JSON object", n)
		}
		if _, ok := obj["type"]; !ok {
			return fmt.Errorf("pushsim: scenario step %d: send frame has no type", n)
		}
	}
	if st.Wait != "" {
		kinds++
	}
	if st.SleepMS != 0 {
		kinds++
		if st.SleepMS < 0 {
			return fmt.Errorf("pushsim: scenario step %d: negative sleep_ms", n)
		}
	}
	if st.TimeoutMS < 0 {
		return fmt.Errorf("pushsim: scenario step %d: negative timeout_ms", n)
	}
	if kinds != 1 {
		return fmt.Errorf("pushsim: scenario step %d: want exactly one of send, wait, sleep_ms", n)
	}
	return nil
}

// play runs the steps on c, again and again with "loop", the last turn_id
// waited for standing in for {turn_id} in what is sent.
func (sc *scenario) play(ctx context.Context, c *Conn, log *slog.Logger, clk clock.Clock) error {
	turnID := ""
	for {
		for i, st := range sc.Steps {
			if err := st.play(ctx, c, log, clk, i+1, &turnID); err != nil {
				return err
			}
		}
		if !sc.Loop {
			return nil
		}
	}
}

// play runs step number n: sends its frame, waits for its frame or sleeps.
func (st scenarioStep) play(ctx context.Context, c *Conn, log *slog.Logger, clk clock.Clock, n int, turnID *string) error {
	switch {
	case len(st.Send) > 0:
		esc, _ := json.Marshal(*turnID)
		data := bytes.ReplaceAll(st.Send, []byte("{turn_id}"), esc[1:len(esc)-1])
		if err := c.SendRaw(data); err != nil {
			return endErr(err)
		}
	case st.Wait != "":
		return st.wait(ctx, c, log, clk, n, turnID)
	default:
		if err := sleep(ctx, clk, time.Duration(st.SleepMS)*time.Millisecond); err != nil {
			return endErr(err)
		}
	}
	return nil
}

// wait waits for the step's frame within its timeout, noting turn_ids.
func (st scenarioStep) wait(ctx context.Context, c *Conn, log *slog.Logger, clk clock.Clock, n int, turnID *string) error {
	timeout := DefaultWaitTimeout
	if st.TimeoutMS > 0 {
		timeout = time.Duration(st.TimeoutMS) * time.Millisecond
	}
	wctx, cancel := context.WithCancel(ctx)
	timer := clk.AfterFunc(timeout, cancel)
	f, err := waitFrame(wctx, c, st.Wait, turnID)
	timer.Stop()
	timedOut := wctx.Err() != nil && ctx.Err() == nil
	cancel()
	if timedOut {
		return fmt.Errorf("pushsim: scenario step %d: no %s frame within %v", n, st.Wait, timeout)
	}
	if err != nil {
		return endErr(err)
	}
	log.Info("sim_frame", "type", f.Type, "turn_id", *turnID)
	return nil
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
