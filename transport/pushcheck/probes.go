package pushcheck

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"yui/transport/textcut"
	"yui/transport/toolcall"
)

// probeID names one probe: a short scripted session the rules read.
type probeID string

const (
	probeMain     probeID = "main"      // accepts error, declares every tool, ordinary turns
	probeBare     probeID = "bare"      // no accepts, no tools
	probeVocab    probeID = "vocab"     // empty vocabulary lists, then a vocabulary frame
	probeKey      probeID = "key"       // a wrong key
	probeStop     probeID = "stop"      // a turn stopped at its first frame
	probeReset    probeID = "reset"     // a turn, reset, a turn
	probeToolWait probeID = "tool_wait" // a tool_call left unanswered
	probeSize     probeID = "size"      // a turn frame of the largest size allowed
	probeSecond   probeID = "second"    // a second connection on the same chat_id
)

// probeResult is what one probe recorded.
type probeResult struct {
	// Err is set when the probe could not run its script (no connection,
	// no ready); the rules that need it fail with it.
	Err error
	// T is the probe's session.
	T transcript

	// stop: the stopped turn, when the stop went out, when its pong came
	// back (zero when none did), and whether the turn had ended before.
	StopTurn     string
	StopSent     time.Time
	PongAt       time.Time
	EndedEarly   bool
	TurnID       string // the probe's main turn (stop, tool_wait, size, second)
	Call         *callIn
	ProgressAt   time.Time
	ProgressType string
	SizeBytes    int
	SizeNote     string
	SendErr      error // the size probe's turn frame could not be written
	// second: the second connection.
	B transcript
}

type probe struct {
	id   probeID
	what string
	run  func(c *checker, ctx context.Context) *probeResult
}

// probeOrder is the order probes run in.
var probeOrder = []probe{
	{probeMain, "hello with accepts and tools, ordinary turns", (*checker).runMain},
	{probeBare, "hello without accepts or tools, ordinary turns", (*checker).runBare},
	{probeVocab, "empty vocabulary lists, then a vocabulary frame", (*checker).runVocab},
	{probeKey, "a wrong key", (*checker).runKey},
	{probeStop, "a turn stopped at its first frame", (*checker).runStop},
	{probeReset, "a turn, reset, a turn", (*checker).runReset},
	{probeToolWait, "a tool_call left unanswered", (*checker).runToolWait},
	{probeSize, "a turn frame of the largest allowed size", (*checker).runSize},
	{probeSecond, "a second connection on the same chat_id", (*checker).runSecond},
}

// The vocabularies the probes declare.
func fullVocabulary() Vocabulary {
	return Vocabulary{EmotionIDs: []string{"neutral", "happy", "sad"}, MotionIDs: []string{"idle", "happy"},
		EmotionTextMode: "enum", EmotionTextMap: map[string]string{"😆": "joyfully", "👂": "whisper"}}
}

func emptyVocabulary() Vocabulary {
	return Vocabulary{EmotionIDs: []string{}, MotionIDs: []string{}, EmotionTextMode: "enum", EmotionTextMap: map[string]string{}}
}

func (c *checker) hello(accepts bool, tools bool, v Vocabulary) Hello {
	h := Hello{Key: c.cfg.Key, ChatID: c.cfg.ChatID, Vocabulary: v}
	if accepts {
		h.Accepts = []string{"error"}
	}
	if tools {
		h.Tools = toolDecls()
	}
	return h
}

// answerAll answers every call as the client would, after AnswerDelay.
func (c *checker) answerAll(h Hello) answerPolicy {
	return func(call *callIn) (string, time.Duration, bool) {
		return clientAnswer(h, call), c.cfg.AnswerDelay, true
	}
}

// open dials, says hello and waits for the first frame, which should be ready.
func (c *checker) open(ctx context.Context, h Hello, policy answerPolicy) (*session, error) {
	s, err := dial(ctx, c.cfg, h, policy)
	if err != nil {
		return nil, err
	}
	if !s.waitFor(ctx, c.cfg.ReadyWait, func(s *session) bool { return len(s.frames) > 0 }) {
		return s, fmt.Errorf("%w within %v of hello", errNoReady, c.cfg.ReadyWait)
	}
	s.mu.Lock()
	first := s.frames[0]
	s.mu.Unlock()
	if first.Type != "ready" {
		return s, fmt.Errorf("%w: the first frame was %s", errNoReady, describe(first))
	}
	return s, nil
}

// describe names a frame for a detail line.
func describe(f frameIn) string {
	switch {
	case f.Binary:
		return fmt.Sprintf("a binary message of %d bytes", len(f.Raw))
	case f.Obj == nil:
		return fmt.Sprintf("%q (not a JSON object)", textcut.Cut(string(f.Raw), 40))
	case f.Type == "":
		return "an object without a string type"
	}
	return f.Type
}

// hasTurnEnd is a waitFor condition: a turn_end for id arrived.
func hasTurnEnd(id string) func(s *session) bool {
	return func(s *session) bool {
		for _, f := range s.frames {
			if f.Type == "turn_end" && f.TurnID == id {
				return true
			}
		}
		return false
	}
}

// answered is a waitFor condition: every call the policy answers has its answer.
func answered(s *session) bool {
	for _, c := range s.calls {
		if !c.answered && !c.withheld {
			return false
		}
	}
	return true
}

// sendTurn sends a turn frame and records it.
func (c *checker) sendTurn(s *session, text string) (string, error) {
	id := c.turnID()
	s.mu.Lock()
	s.turns = append(s.turns, sentTurn{ID: id})
	s.mu.Unlock()
	return id, s.send(map[string]any{"type": "turn", "turn_id": id, "client_context": clientContext(), "text": text})
}

// runTurn sends a turn and waits for its turn_end and for every tool
// result the turn's calls are owed.
func (c *checker) runTurn(ctx context.Context, s *session, text string) (string, bool) {
	id, err := c.sendTurn(s, text)
	if err != nil {
		return id, false
	}
	ended := s.waitFor(ctx, c.cfg.TurnWait, hasTurnEnd(id))
	s.waitFor(ctx, c.cfg.AnswerDelay+c.cfg.ReadyWait, answered)
	return id, ended
}

// finish lingers for late frames, records the session and closes it.
func (c *checker) finish(ctx context.Context, s *session, res *probeResult) *probeResult {
	s.linger(ctx, c.cfg.Grace)
	res.T = s.snapshot()
	s.close()
	return res
}

// failed records a session that could not run its script.
func failed(s *session, err error) *probeResult {
	res := &probeResult{Err: err}
	if s != nil {
		res.T = s.snapshot()
		s.close()
	}
	return res
}

// runTurns opens a session and sends the ordinary turns (and FailText).
func (c *checker) runTurns(ctx context.Context, h Hello) *probeResult {
	s, err := c.open(ctx, h, c.answerAll(h))
	if err != nil {
		return failed(s, err)
	}
	texts := make([]string, 0, c.cfg.Turns+1)
	for range c.cfg.Turns {
		texts = append(texts, c.cfg.Text)
	}
	if c.cfg.FailText != "" {
		texts = append(texts, c.cfg.FailText)
	}
	for _, t := range texts {
		if _, ok := c.runTurn(ctx, s, t); !ok {
			break // the turn_end rule reports it; later turns would only wait again
		}
	}
	return c.finish(ctx, s, &probeResult{})
}

func (c *checker) runMain(ctx context.Context) *probeResult {
	return c.runTurns(ctx, c.hello(true, true, fullVocabulary()))
}

func (c *checker) runBare(ctx context.Context) *probeResult {
	return c.runTurns(ctx, c.hello(false, false, fullVocabulary()))
}

// runVocab declares empty lists, plays a turn, sends a vocabulary frame
// with one emotion and plays another.
func (c *checker) runVocab(ctx context.Context) *probeResult {
	h := c.hello(true, false, emptyVocabulary())
	s, err := c.open(ctx, h, c.answerAll(h))
	if err != nil {
		return failed(s, err)
	}
	if _, ok := c.runTurn(ctx, s, c.cfg.Text); ok {
		if s.setVocabulary(Vocabulary{EmotionIDs: []string{"sad"}, MotionIDs: []string{}, EmotionTextMode: "free",
			EmotionTextMap: map[string]string{}}) == nil {
			c.runTurn(ctx, s, c.cfg.Text)
		}
	}
	return c.finish(ctx, s, &probeResult{})
}

// runKey says hello with a wrong key and waits for the close.
func (c *checker) runKey(ctx context.Context) *probeResult {
	if c.cfg.Key == "" {
		return &probeResult{Err: errNoKey}
	}
	h := c.hello(true, false, fullVocabulary())
	h.Key = "wrong-" + c.cfg.Key
	s, err := dial(ctx, c.cfg, h, nil)
	if err != nil {
		return &probeResult{Err: err}
	}
	s.waitFor(ctx, c.cfg.ReadyWait, func(s *session) bool { return s.closed })
	res := &probeResult{T: s.snapshot()}
	s.close()
	return res
}

// errNoKey skips the wrong-key rule when the checker has no key.
var errNoKey = fmt.Errorf("no key given")

// runStop stops a turn at its first frame.
func (c *checker) runStop(ctx context.Context) *probeResult {
	h := c.hello(true, true, fullVocabulary())
	var mu sync.Mutex
	stopped := ""
	normal := c.answerAll(h)
	policy := func(call *callIn) (string, time.Duration, bool) {
		mu.Lock()
		st := stopped
		mu.Unlock()
		if st != "" && call.TurnID == st {
			return toolcall.ErrTurnStopped, 0, true
		}
		return normal(call)
	}
	s, err := c.open(ctx, h, policy)
	if err != nil {
		return failed(s, err)
	}
	res := &probeResult{}
	id, err := c.sendTurn(s, c.cfg.Text)
	if err != nil {
		return failed(s, err)
	}
	res.TurnID = id
	s.waitFor(ctx, c.cfg.TurnWait, func(s *session) bool {
		for _, f := range s.frames {
			if f.TurnID == id {
				return true
			}
		}
		return false
	})
	s.mu.Lock()
	res.EndedEarly = hasTurnEnd(id)(s)
	s.mu.Unlock()
	mu.Lock()
	stopped = id
	mu.Unlock()
	s.mark("stop")
	res.StopTurn, res.StopSent = id, time.Now()
	if err := s.send(map[string]any{"type": "stop", "turn_ids": []string{id}}); err != nil {
		return failed(s, err)
	}
	before := s.ping()
	if s.waitFor(ctx, c.cfg.ReadyWait, func(s *session) bool { return s.pongs > before }) {
		res.PongAt = time.Now()
	}
	s.waitFor(ctx, c.cfg.TurnWait, hasTurnEnd(id))
	return c.finish(ctx, s, res)
}

// runReset plays a turn, resets, and plays another.
func (c *checker) runReset(ctx context.Context) *probeResult {
	h := c.hello(true, true, fullVocabulary())
	s, err := c.open(ctx, h, c.answerAll(h))
	if err != nil {
		return failed(s, err)
	}
	res := &probeResult{}
	if _, ok := c.runTurn(ctx, s, c.cfg.Text); !ok {
		return failed(s, fmt.Errorf("the turn before reset got no turn_end"))
	}
	// Late frames of the first turn (a delegations update) land before the mark.
	s.linger(ctx, c.cfg.Grace)
	s.mark("reset")
	if err := s.send(map[string]any{"type": "reset"}); err != nil {
		return failed(s, err)
	}
	res.TurnID, _ = c.runTurn(ctx, s, c.cfg.Text)
	return c.finish(ctx, s, res)
}

// runToolWait leaves the turn's first tool_call unanswered, sees when the
// backend moves on, then answers late.
func (c *checker) runToolWait(ctx context.Context) *probeResult {
	h := c.hello(true, true, fullVocabulary())
	normal := c.answerAll(h)
	var mu sync.Mutex
	var held *callIn
	policy := func(call *callIn) (string, time.Duration, bool) {
		mu.Lock()
		defer mu.Unlock()
		if held == nil {
			held = call
			call.withheld = true
			return "", 0, false
		}
		return normal(call)
	}
	s, err := c.open(ctx, h, policy)
	if err != nil {
		return failed(s, err)
	}
	res := &probeResult{}
	id, err := c.sendTurn(s, c.cfg.ToolText)
	if err != nil {
		return failed(s, err)
	}
	res.TurnID = id
	s.waitFor(ctx, c.cfg.TurnWait, func(s *session) bool { return len(s.calls) > 0 || hasTurnEnd(id)(s) })
	mu.Lock()
	call := held
	mu.Unlock()
	if call == nil {
		s.waitFor(ctx, c.cfg.TurnWait, hasTurnEnd(id))
		return c.finish(ctx, s, res)
	}
	wait := c.cfg.backendWait(call.Name)
	var progress frameIn
	s.waitFor(ctx, wait+c.cfg.TurnWait, func(s *session) bool {
		for _, f := range s.frames[call.Index+1:] {
			// Status, reasoning and another call (tool_call.one_at_a_time
			// reports that) do not say the backend's wait answered.
			if f.Type != "tool_status" && f.Type != "reasoning" && f.Type != "tool_call" {
				progress = f
				return true
			}
		}
		return false
	})
	res.ProgressAt, res.ProgressType = progress.At, progress.Type
	if call.Readable {
		s.sendResult(call, clientAnswer(h, call)) // late: the backend ignores it
	}
	s.waitFor(ctx, c.cfg.TurnWait, hasTurnEnd(id))
	res = c.finish(ctx, s, res)
	for i := range res.T.Calls {
		if res.T.Calls[i].Index == call.Index {
			res.Call = &res.T.Calls[i]
		}
	}
	return res
}

// tinyPNG is a 1x1 PNG, the image of a size probe to a backend that
// accepts images.
const tinyPNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="

// runSize sends a turn frame of exactly the largest size the backend
// must accept: 256 KiB, or max_turn_bytes from ready.
func (c *checker) runSize(ctx context.Context) *probeResult {
	h := c.hello(true, true, fullVocabulary())
	s, err := c.open(ctx, h, c.answerAll(h))
	if err != nil {
		return failed(s, err)
	}
	res := &probeResult{}
	s.mu.Lock()
	ready := s.frames[0]
	s.mu.Unlock()
	limit, images := TextFrameLimit, false
	res.SizeNote = "no max_turn_bytes: the 256 KiB turn limit"
	if n, ok := positiveInt(ready.Obj["max_turn_bytes"]); ok {
		limit, images = n, true
		res.SizeNote = fmt.Sprintf("max_turn_bytes %d from ready, with an image", n)
		if n > c.cfg.MaxProbeBytes {
			limit = c.cfg.MaxProbeBytes
			res.SizeNote = fmt.Sprintf("max_turn_bytes %d from ready, probed at %d bytes, with an image", n, limit)
		}
	}
	id := c.turnID()
	res.TurnID = id
	frame, err := sizedTurn(id, c.cfg.Text, limit, images)
	if err != nil {
		return failed(s, err)
	}
	res.SizeBytes = len(frame)
	s.mu.Lock()
	s.turns = append(s.turns, sentTurn{ID: id})
	s.mu.Unlock()
	if err := s.sendRaw(frame); err != nil {
		// A backend that cannot take the frame may close the socket while
		// it is still being written: size.in reports the close.
		res.SendErr = err
		s.waitFor(ctx, c.cfg.ReadyWait, func(s *session) bool { return s.closed })
		return c.finish(ctx, s, res)
	}
	s.waitFor(ctx, c.cfg.TurnWait, hasTurnEnd(id))
	s.waitFor(ctx, c.cfg.AnswerDelay+c.cfg.ReadyWait, answered)
	return c.finish(ctx, s, res)
}

// sizedTurn builds a turn frame of exactly size bytes: the text padded
// with a repeated note.
func sizedTurn(id, text string, size int, images bool) ([]byte, error) {
	type turnOut struct {
		Type          string   `json:"type"`
		TurnID        string   `json:"turn_id"`
		ClientContext string   `json:"client_context"`
		Text          string   `json:"text"`
		Images        []string `json:"images,omitempty"`
	}
	t := turnOut{Type: "turn", TurnID: id, ClientContext: clientContext(), Text: text + "\n\n"}
	if images {
		t.Images = []string{tinyPNG}
	}
	base, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	room := size - len(base)
	if room < 0 {
		return nil, fmt.Errorf("a turn frame cannot be as small as %d bytes", size)
	}
	const pad = "(size check padding) "
	t.Text += strings.Repeat(pad, room/len(pad)+1)[:room]
	return json.Marshal(t)
}

// runSecond opens a second connection on the chat of a live one.
func (c *checker) runSecond(ctx context.Context) *probeResult {
	h := c.hello(true, true, fullVocabulary())
	a, err := c.open(ctx, h, c.answerAll(h))
	if err != nil {
		return failed(a, err)
	}
	res := &probeResult{}
	b, err := c.open(ctx, h, c.answerAll(h))
	if err != nil {
		res.Err = fmt.Errorf("second connection: %w", err)
		if b != nil {
			res.B = b.snapshot()
			b.close()
		}
		return c.finish(ctx, a, res)
	}
	res.TurnID, _ = c.runTurn(ctx, b, c.cfg.Text)
	b.linger(ctx, c.cfg.Grace)
	res.B = b.snapshot()
	b.close()
	return c.finish(ctx, a, res)
}
