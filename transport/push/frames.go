package push

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"strconv"

	"yui/transport"
	"yui/transport/textcut"
)

// Incoming frames. Every field is typed, so a field of the wrong type fails
// the decode and the frame is dropped as malformed.
type (
	envelope struct {
		Type string `json:"type"`
	}
	readyIn struct {
		ChatID       string          `json:"chat_id"`
		MaxTurnBytes json.RawMessage `json:"max_turn_bytes"`
	}
	renderIn struct {
		TurnID    string               `json:"turn_id"`
		Source    string               `json:"source"`
		Segments  *[]transport.Segment `json:"segments"`
		Reasoning *string              `json:"reasoning"`
	}
	turnEndIn struct {
		TurnID string          `json:"turn_id"`
		Usage  json.RawMessage `json:"usage"`
	}
	errorIn struct {
		TurnID  string  `json:"turn_id"`
		Message *string `json:"message"`
	}
	toolStatusIn struct {
		TurnID string `json:"turn_id"`
		State  string `json:"state"`
		ToolID string `json:"tool_id"`
	}
	toolCallIn struct {
		ID        string          `json:"id"`
		TurnID    string          `json:"turn_id"`
		Name      *string         `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	reasoningIn struct {
		TurnID string  `json:"turn_id"`
		Delta  *string `json:"delta"`
	}
	delegationsIn struct {
		Items *[]transport.Delegation `json:"items"`
	}
	usageIn struct {
		Input  json.RawMessage `json:"input_tokens"`
		Output json.RawMessage `json:"output_tokens"`
		Total  json.RawMessage `json:"total_tokens"`
	}
)

// malformed logs a frame that is dropped because it cannot be read.
func (c *Client) malformed(typ, reason string) {
	if typ == "" {
		c.log.Warn("frame_malformed", "reason", reason)
		return
	}
	c.log.Warn("frame_malformed", "type", typ, "reason", reason)
}

// handleFrame decodes one backend frame and acts on it. It never panics on
// any input: a frame it cannot read is logged and dropped.
func (c *Client) handleFrame(cn *conn, data []byte) {
	var env envelope
	if typ, ok := frameType(data); ok {
		env.Type = typ
	} else if err := decodeEnvelope(data, &env); err != nil {
		c.malformed("", "not a JSON object with a string type: "+err.Error())
		return
	}
	if env.Type == "" {
		c.malformed("", "missing type")
		return
	}
	if env.Type != "ready" {
		c.mu.Lock()
		ready := cn.ready
		c.mu.Unlock()
		if !ready {
			c.malformed(env.Type, "frame before ready")
			return
		}
	}
	switch env.Type {
	case "ready":
		c.onReady(cn, data)
	case "render":
		c.onRender(data, transport.KindRender)
	case "speech":
		c.onRender(data, transport.KindSpeech)
	case "turn_end":
		c.onTurnEnd(data)
	case "error":
		c.onError(data)
	case "tool_status":
		c.onToolStatus(data)
	case "tool_call":
		c.onToolCall(cn, data)
	case "reasoning":
		c.onReasoning(data)
	case "delegations":
		c.onDelegations(data)
	default:
		c.malformed(env.Type, "unknown type")
	}
}

// decodeEnvelope is the slow path of frameType. It decodes into a copy so
// that the caller's envelope stays on the stack on the fast path.
func decodeEnvelope(data []byte, env *envelope) error {
	var e envelope
	err := json.Unmarshal(data, &e)
	*env = e
	return err
}

// decode unmarshals a frame body, logging and reporting false on failure.
func (c *Client) decode(typ string, data []byte, v any) bool {
	if err := json.Unmarshal(data, v); err != nil {
		c.malformed(typ, err.Error())
		return false
	}
	return true
}

func (c *Client) onReady(cn *conn, data []byte) {
	c.mu.Lock()
	repeated, closed := cn.ready, cn.closed
	c.mu.Unlock()
	if closed {
		return // the hello wait passed first: this socket is closing
	}
	if repeated {
		c.malformed("ready", "repeated ready")
		return
	}
	var f readyIn
	if !c.decode("ready", data, &f) {
		return
	}
	maxTurn := 0
	if len(f.MaxTurnBytes) > 0 && string(f.MaxTurnBytes) != "null" {
		n, ok := positiveInt(f.MaxTurnBytes)
		if !ok {
			// The socket is still usable: read the limit as absent.
			c.malformed("ready", "max_turn_bytes is not a positive integer")
		} else {
			maxTurn = n
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if cn.ready || cn.closed {
		return // the hello wait passed while the frame was decoded
	}
	cn.ready = true
	cn.gotReady = true
	cn.maxTurnBytes = maxTurn
	if cn.helloTimer != nil {
		cn.helloTimer.Stop()
	}
	if maxTurn > 0 {
		c.log.Info("ws_ready", "max_turn_bytes", maxTurn)
	} else {
		c.log.Info("ws_ready")
	}
	c.setStateLocked(transport.StateEvent{State: transport.StateReady})
	if !vocabularyEqual(cn.helloVocab, c.vocab) {
		// The set changed while the hello waited for ready.
		c.sendLocked(cn, "vocabulary", vocabularyFrame{Type: "vocabulary", Vocabulary: vocabJSON(c.vocab)})
	}
}

// positiveInt reads a JSON number that is a positive integer. A value past
// math.MaxInt32 reads as math.MaxInt32: a backend stating a huge limit
// ("no limit") still accepts images, and no frame gets near it.
func positiveInt(raw json.RawMessage) (int, bool) {
	s := string(bytes.TrimSpace(raw))
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n <= 0 {
			return 0, false
		}
		return int(min(n, math.MaxInt32)), true
	}
	if len(s) == 0 || (s[0] != '-' && (s[0] < '0' || s[0] > '9')) {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	if f <= 0 || math.IsNaN(f) || f != math.Trunc(f) {
		return 0, false
	}
	return int(min(f, math.MaxInt32)), true
}

// touchLocked returns the held turn a frame names, holding a turn the
// backend minted on its first frame. It returns nil for a turn this client
// already closed (or a closed backend turn): such frames still play.
func (c *Client) touchLocked(id string) (tr *turn, own bool) {
	if tr := c.book.turns[id]; tr != nil {
		return tr, tr.own
	}
	own = c.isOwnID(id)
	if own || c.book.forgotten.lookup(id) >= 0 {
		return nil, own
	}
	tr = &turn{id: id}
	c.holdLocked(tr)
	return tr, false
}

func (c *Client) onRender(data []byte, kind transport.RenderKind) {
	typ, rec := "render", "push.render"
	if kind == transport.KindSpeech {
		typ, rec = "speech", "push.speech"
	}
	var f renderIn
	if !c.decode(typ, data, &f) {
		return
	}
	if f.TurnID == "" {
		c.malformed(typ, "missing turn_id")
		return
	}
	if f.Segments == nil {
		c.malformed(typ, "missing segments")
		return
	}
	owed := false
	if kind == transport.KindRender && c.opts.SpeechOwed != nil {
		// Asked before taking the lock: the playback queue is the app's.
		owed = c.opts.SpeechOwed()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	segs := boundCues(*f.Segments)
	tr, own := c.touchLocked(f.TurnID)
	if tr != nil && tr.stopped {
		attrs := []slog.Attr{slog.String("turn_id", f.TurnID), slog.Int("segments", len(segs)),
			slog.String("dropped", "cut_turn"), slog.Int("stopped_count", c.book.stoppedN)}
		if kind == transport.KindRender {
			attrs = append(attrs, slog.String("source", f.Source))
		}
		c.log.LogAttrs(context.Background(), slog.LevelInfo, rec, attrs...)
		return
	}
	first := false
	if tr != nil {
		first = !tr.rendered
		tr.rendered = true
		c.armWaitLocked(tr)
	} else if i := c.book.forgotten.lookup(f.TurnID); i >= 0 {
		first = !c.book.forgotten.rendered[i]
		c.book.forgotten.rendered[i] = true
	} else {
		first = true
		c.book.forgotten.add(f.TurnID, true)
	}
	reasoning := f.Reasoning
	if reasoning != nil && c.reasoningTurn != "" && c.reasoningTurn != f.TurnID {
		// Another turn's reasoning is streaming: this one is not shown.
		reasoning = nil
	}
	if kind == transport.KindRender {
		played := false
		for _, s := range segs {
			if !s.Silent() {
				played = true
				break
			}
		}
		c.log.LogAttrs(context.Background(), slog.LevelInfo, rec,
			slog.String("source", f.Source), slog.String("turn_id", f.TurnID), slog.Int("segments", len(segs)),
			slog.Bool("speech_played", played), slog.Bool("speech_owed", owed))
	} else {
		c.log.LogAttrs(context.Background(), slog.LevelInfo, rec,
			slog.String("turn_id", f.TurnID), slog.Int("segments", len(segs)))
	}
	c.emit(&transport.RenderEvent{
		Kind: kind, TurnID: f.TurnID, Source: f.Source, Segments: segs,
		Reasoning: reasoning, OwnTurn: own, First: first,
	})
}

func (c *Client) onTurnEnd(data []byte) {
	var f turnEndIn
	if !c.decode("turn_end", data, &f) {
		return
	}
	if f.TurnID == "" {
		c.malformed("turn_end", "missing turn_id")
		return
	}
	usage := readUsage(f.Usage)
	c.mu.Lock()
	defer c.mu.Unlock()
	tr := c.book.turns[f.TurnID]
	if tr == nil {
		c.log.Info("push.turn_end", "turn_id", f.TurnID, "ignored", "not_held")
		return
	}
	c.log.Info("push.turn_end", "turn_id", f.TurnID)
	running, stopped := tr.running, tr.stopped
	tr.running = false
	c.forgetLocked(tr)
	if stopped {
		return // the stopped turn is forgotten here, silently
	}
	if usage != nil {
		c.emit(&transport.UsageEvent{TurnID: tr.id, Usage: *usage})
	}
	switch {
	case running:
		ev := &transport.TurnEndEvent{TurnID: tr.id, OwnTurn: tr.own, Outcome: transport.TurnCompleted, Usage: usage}
		if tr.hasErr {
			ev.Outcome = transport.TurnFailed
			ev.ErrorText = tr.errText
		}
		c.emit(ev)
	case !tr.own:
		// A backend run: its turn_end closes the open utterance.
		c.emit(&transport.TurnEndEvent{TurnID: tr.id, Outcome: transport.TurnCompleted, Usage: usage})
	default:
		// The wait or the socket already ended this turn's running state;
		// its real turn_end still closes what late frames opened: the
		// utterance, a running tool segment, reasoning still showing. It
		// counts as delivered, so no failure line.
		c.emit(&transport.TurnEndEvent{TurnID: tr.id, OwnTurn: true, Outcome: transport.TurnStalled, Usage: usage})
	}
}

// readUsage reads a usage object carrying all three counts as numbers, or
// returns nil: anything else is read as absent.
func readUsage(raw json.RawMessage) *transport.Usage {
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	var u usageIn
	if json.Unmarshal(raw, &u) != nil {
		return nil
	}
	in, ok1 := jsonNumber(u.Input)
	out, ok2 := jsonNumber(u.Output)
	total, ok3 := jsonNumber(u.Total)
	if !ok1 || !ok2 || !ok3 {
		return nil
	}
	return &transport.Usage{InputTokens: in, OutputTokens: out, TotalTokens: total}
}

func jsonNumber(raw json.RawMessage) (int64, bool) {
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return 0, false
	}
	if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return int64(f), true
}

func (c *Client) onError(data []byte) {
	var f errorIn
	if !c.decode("error", data, &f) {
		return
	}
	if f.TurnID == "" {
		c.malformed("error", "missing turn_id")
		return
	}
	if f.Message == nil {
		c.malformed("error", "missing message")
		return
	}
	msg := textcut.OneLine(*f.Message, ErrorTextMax)
	c.mu.Lock()
	defer c.mu.Unlock()
	tr, own := c.touchLocked(f.TurnID)
	if tr != nil && tr.stopped {
		c.log.Info("push.error", "turn_id", f.TurnID, "dropped", "cut_turn", "stopped_count", c.book.stoppedN)
		return
	}
	c.log.Info("push.error", "turn_id", f.TurnID, "message", msg)
	if tr == nil || !own {
		return // a turn the client did not send (or already closed) shows nothing
	}
	tr.hasErr = true
	tr.errText = msg
	c.armWaitLocked(tr)
}

func (c *Client) onToolStatus(data []byte) {
	var f toolStatusIn
	if !c.decode("tool_status", data, &f) {
		return
	}
	switch {
	case f.TurnID == "":
		c.malformed("tool_status", "missing turn_id")
		return
	case f.ToolID == "":
		c.malformed("tool_status", "missing tool_id")
		return
	case f.State != "running" && f.State != "done" && f.State != "failed":
		c.malformed("tool_status", "unknown state")
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	tr, own := c.touchLocked(f.TurnID)
	if tr != nil && tr.stopped {
		c.log.Info("push.tool_status", "turn_id", f.TurnID, "dropped", "cut_turn", "stopped_count", c.book.stoppedN)
		return
	}
	c.log.Info("push.tool_status", "turn_id", f.TurnID, "state", f.State, "tool_id", f.ToolID)
	if tr != nil {
		c.armWaitLocked(tr)
	}
	if f.ToolID == "browser" && c.hasBrowse {
		return // the client shows its own browser runs
	}
	c.emit(&transport.ToolStatusEvent{TurnID: f.TurnID, OwnTurn: own, State: f.State, ToolID: f.ToolID})
}

func (c *Client) onReasoning(data []byte) {
	var f reasoningIn
	if !c.decode("reasoning", data, &f) {
		return
	}
	if f.TurnID == "" || f.Delta == nil {
		c.malformed("reasoning", "missing turn_id or delta")
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	tr, _ := c.touchLocked(f.TurnID)
	if tr != nil && tr.stopped {
		c.log.Debug("push.reasoning", "turn_id", f.TurnID, "dropped", "cut_turn", "stopped_count", c.book.stoppedN)
		return
	}
	if tr != nil {
		c.armWaitLocked(tr)
		c.reasoningTurn = f.TurnID
	}
	c.emit(&transport.ReasoningEvent{TurnID: f.TurnID, Delta: *f.Delta})
}

// Cue text limits of generate_express (docs/protocol/client-context.md): caption
// maxLength 80; emotion_text at most 16 code points in free mode.
const (
	MaxCaption     = 80
	MaxEmotionText = 16
)

// boundCues cuts each cue's caption and emotion_text to the limits of
// generate_express, which the request transports enforce through its
// schema: a push backend that sends a frame's worth of caption gets a
// short line on screen, not a text the pet window cannot lay out.
func boundCues(segs []transport.Segment) []transport.Segment {
	for i := range segs {
		for j := range segs[i].Cues {
			cue := &segs[i].Cues[j]
			cue.Caption = textcut.Cut(cue.Caption, MaxCaption)
			cue.EmotionText = textcut.Cut(cue.EmotionText, MaxEmotionText)
		}
	}
	return segs
}
