package push

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"yui/transport"
	"yui/transport/clientctx"
	"yui/transport/clock"
	"yui/transport/dataurl"
)

// turn is a turn the client holds: one it sent, or one the backend minted,
// from its first frame until its turn_end (the turn is "outstanding").
type turn struct {
	id       string
	own      bool // the client sent it
	sent     bool // the turn frame went out (own turns)
	running  bool // the running state is still held: no TurnEndEvent yet
	rendered bool // a render or speech arrived
	stopped  bool // Interrupt stopped it; frames are dropped until turn_end
	errText  string
	hasErr   bool
	timer    clock.Timer // the frame wait, while running
	deadline time.Time   // when the frame wait passes
}

// forgottenRing remembers recently closed turns, so a render naming a turn
// already closed still plays with the right First.
type forgottenRing struct {
	ids      [maxForgotten]string
	rendered [maxForgotten]bool
	next     int
}

func (r *forgottenRing) add(id string, rendered bool) {
	r.ids[r.next] = id
	r.rendered[r.next] = rendered
	r.next = (r.next + 1) % maxForgotten
}

// lookup returns the index of id, or -1.
func (r *forgottenRing) lookup(id string) int {
	for i, x := range r.ids {
		if x == id && x != "" {
			return i
		}
	}
	return -1
}

// holdLocked adds a turn to the outstanding set, forgetting the oldest
// turn that is no longer running when the set is full.
func (c *Client) holdLocked(tr *turn) {
	if len(c.book.order) >= maxHeldTurns {
		for _, old := range c.book.order {
			if !old.running {
				c.log.Warn("push.turn_forgotten", "turn_id", old.id, "reason", "too many outstanding turns")
				c.forgetLocked(old)
				break
			}
		}
	}
	c.book.turns[tr.id] = tr
	c.book.order = append(c.book.order, tr)
}

// forgetLocked drops a held turn: its turn_end arrived (or it never went out).
func (c *Client) forgetLocked(tr *turn) {
	if c.book.turns[tr.id] != tr {
		return
	}
	delete(c.book.turns, tr.id)
	for i, x := range c.book.order {
		if x == tr {
			c.book.order = append(c.book.order[:i], c.book.order[i+1:]...)
			break
		}
	}
	if tr.stopped {
		c.book.stoppedN--
	}
	if tr.timer != nil {
		tr.timer.Stop()
		tr.timer = nil
	}
	if c.reasoningTurn == tr.id {
		c.reasoningTurn = ""
	}
	c.book.forgotten.add(tr.id, tr.rendered)
}

// armWaitLocked (re)starts the frame wait of a running turn. A frame only
// moves the deadline; the one timer re-arms itself for the rest when it
// fires early, so the hot path allocates nothing.
func (c *Client) armWaitLocked(tr *turn) {
	if !tr.running || !tr.sent {
		return
	}
	tr.deadline = c.clk.Now().Add(FrameWait)
	if tr.timer == nil {
		tr.timer = c.clk.AfterFunc(FrameWait, func() { c.waitFired(tr) })
	}
}

func (c *Client) waitFired(tr *turn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	tr.timer = nil
	if c.closed || !tr.running || c.book.turns[tr.id] != tr {
		return
	}
	if now := c.clk.Now(); now.Before(tr.deadline) {
		tr.timer = c.clk.AfterFunc(tr.deadline.Sub(now), func() { c.waitFired(tr) })
		return
	}
	c.endRunningLocked(tr, "network_stall")
}

// endRunningLocked ends a running turn whose wait passed or whose socket
// left ready. It stays outstanding: a late render still plays and the next
// Interrupt stops it.
func (c *Client) endRunningLocked(tr *turn, line string) {
	tr.running = false
	if tr.timer != nil {
		tr.timer.Stop()
		tr.timer = nil
	}
	if c.reasoningTurn == tr.id {
		c.reasoningTurn = ""
	}
	ev := &transport.TurnEndEvent{TurnID: tr.id, OwnTurn: tr.own}
	if tr.rendered {
		// The turn counts as delivered: no failure line.
		ev.Outcome = transport.TurnStalled
		c.log.Warn(line, "turn_id", tr.id, "stage", "push_turn_end")
	} else {
		ev.Outcome = transport.TurnFailed
		ev.ErrorText = tr.errText
		c.log.Warn(line, "turn_id", tr.id, "stage", "push_wait")
	}
	c.emit(ev)
}

// leaveReadyLocked ends every running turn of a socket that leaves ready.
func (c *Client) leaveReadyLocked(cn *conn) {
	if !cn.ready {
		return
	}
	cn.ready = false
	for _, tr := range c.book.order {
		if tr.own && tr.running {
			c.endRunningLocked(tr, "network_drop")
		}
	}
}

// Send starts a turn and returns its id. A typed or spoken turn stops the
// turns still outstanding first, as the user action it is stops speech.
func (c *Client) Send(t transport.Turn) string {
	if t.Trigger == transport.TriggerUserMessage || t.Trigger == transport.TriggerUserVoice {
		c.Interrupt(false)
	}
	c.mu.Lock()
	id := strconv.FormatInt(c.book.idNext, 10)
	c.book.idNext++
	if c.closed {
		c.mu.Unlock()
		return id
	}
	cn := c.cn
	if cn == nil || !cn.ready {
		// A turn that starts before ready ends as a network failure.
		c.log.Warn("network_drop", "turn_id", id, "stage", "push_wait", "reason", "not ready")
		c.emit(&transport.TurnEndEvent{TurnID: id, OwnTurn: true, Outcome: transport.TurnFailed})
		c.mu.Unlock()
		return id
	}
	tr := &turn{id: id, own: true, running: true}
	c.holdLocked(tr)
	maxTurn := cn.maxTurnBytes
	now := c.clk.Now()
	c.mu.Unlock()

	// Building may re-encode images, so it runs without the lock.
	frame, err := c.turnFrame(id, t, now, maxTurn)

	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || !tr.running || tr.stopped || c.book.turns[id] != tr {
		// Closed, stopped or disconnected while building: it never went
		// out, so no turn_end will come for it.
		c.forgetLocked(tr)
		return id
	}
	if err != nil {
		var over *oversizeError
		if asOversize(err, &over) {
			c.logOversize("out", "turn", int64(over.n))
		} else {
			c.log.Error("push.encode", "type", "turn", "err", err.Error())
		}
		tr.running = false
		c.forgetLocked(tr)
		c.emit(&transport.TurnEndEvent{TurnID: id, OwnTurn: true, Outcome: transport.TurnFailed})
		return id
	}
	if !c.queueLocked(cn, "turn", frame) {
		// The socket's writer is gone or backed up: the turn fails now as a
		// network failure rather than after a frame wait for a frame that
		// never left.
		tr.running = false
		c.forgetLocked(tr)
		c.log.Warn("network_drop", "turn_id", id, "stage", "push_wait", "reason", "not sent")
		c.emit(&transport.TurnEndEvent{TurnID: id, OwnTurn: true, Outcome: transport.TurnFailed})
		return id
	}
	tr.sent = true
	c.log.Info("turn", "turn_id", id, "trigger", string(t.Trigger), "spoke_text", false)
	c.armWaitLocked(tr)
	return id
}

type oversizeError struct{ n int }

func (e *oversizeError) Error() string {
	return fmt.Sprintf("frame of %d bytes is over its size limit", e.n)
}

func asOversize(err error, target **oversizeError) bool { return errors.As(err, target) }

// turnFrame encodes a turn frame. Images go only to a backend that stated
// max_turn_bytes; when they would take the frame over it, FitImages
// re-encodes them into the room left.
func (c *Client) turnFrame(id string, t transport.Turn, now time.Time, maxTurn int) ([]byte, error) {
	base, err := marshal(turnFrame{
		Type: "turn", TurnID: id, Text: t.Text,
		ClientContext: clientctx.Build(now, c.loc, t),
	})
	if err != nil {
		return nil, fmt.Errorf("encoding turn: %w", err)
	}
	limit := TextFrameLimit
	if maxTurn > 0 {
		limit = maxTurn
	}
	if len(base) > limit {
		return nil, &oversizeError{len(base)}
	}
	if maxTurn <= 0 {
		return base, nil
	}
	var imgs []transport.Image
	if t.Screenshot != nil && len(t.Screenshot.Image.Data) > 0 {
		imgs = append(imgs, t.Screenshot.Image)
	}
	for _, im := range t.Attachments {
		if len(im.Data) > 0 {
			imgs = append(imgs, im)
		}
	}
	if len(imgs) == 0 {
		return base, nil
	}
	frame := c.withImages(base, imgs, limit, true)
	if frame == nil {
		c.log.Warn("push.images_dropped", "turn_id", id, "images", len(imgs))
		return base, nil
	}
	return frame, nil
}

const imagesKey = `,"images":`

// withImages returns base with an "images" field carrying imgs as data
// URLs, the whole frame within limit bytes, or nil when none can be sent.
// Images that fit as they are go out untouched; otherwise FitImages
// re-encodes them into the room left. Without a fitter, greedy keeps the
// images that fit, in order (turn frames); otherwise nothing fits.
func (c *Client) withImages(base []byte, imgs []transport.Image, limit int, greedy bool) []byte {
	room := limit - len(base) - len(imagesKey)
	if room <= 2 {
		return nil
	}
	if n := imageArrayLen(imgs); n <= room {
		return appendImageArray(spliceStart(base, n), imgs)
	}
	if c.opts.FitImages != nil {
		fitted, ok := c.opts.FitImages(imgs, room)
		if !ok || len(fitted) == 0 {
			return nil
		}
		arr := jsonStrings(fitted)
		if len(arr) > room {
			return nil
		}
		return append(append(spliceStart(base, len(arr)), arr...), '}')
	}
	if !greedy {
		return nil
	}
	var kept []transport.Image
	for _, im := range imgs {
		if imageArrayLen(append(kept, im)) <= room {
			kept = append(kept, im)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	return appendImageArray(spliceStart(base, imageArrayLen(kept)), kept)
}

// spliceStart returns base without its closing brace, followed by the
// images key, with room for an array of n bytes and the brace.
func spliceStart(base []byte, n int) []byte {
	out := make([]byte, 0, len(base)+len(imagesKey)+n+1)
	out = append(out, base[:len(base)-1]...)
	return append(out, imagesKey...)
}

// imageArrayLen is the size of the JSON array appendImageArray writes.
func imageArrayLen(imgs []transport.Image) int {
	n := 2 + max(len(imgs)-1, 0)
	for _, im := range imgs {
		n += 2 + dataurl.Len(dataurl.ImageMIME(im.MIME, im.Data), len(im.Data))
	}
	return n
}

// appendImageArray appends imgs as a JSON array of
// data:image/<subtype>;base64,<data> strings, base64-encoding straight into
// dst (no escaping is needed), and the frame's closing brace.
func appendImageArray(dst []byte, imgs []transport.Image) []byte {
	dst = append(dst, '[')
	for i, im := range imgs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '"')
		dst = dataurl.Append(dst, dataurl.ImageMIME(im.MIME, im.Data), im.Data)
		dst = append(dst, '"')
	}
	return append(dst, ']', '}')
}

// jsonStrings encodes a list of strings as a JSON array. Data URLs need no
// escaping, so they are copied as they are; anything else goes through
// encoding/json.
func jsonStrings(ss []string) []byte {
	n := 2
	for _, s := range ss {
		n += len(s) + 3
	}
	out := make([]byte, 0, n)
	out = append(out, '[')
	for i, s := range ss {
		if i > 0 {
			out = append(out, ',')
		}
		if plainJSON(s) {
			out = append(out, '"')
			out = append(out, s...)
			out = append(out, '"')
		} else {
			q, _ := marshal(s)
			out = append(out, q...)
		}
	}
	return append(out, ']')
}

// plainJSON reports whether s encodes as a JSON string without escapes.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch < 0x20 || ch >= 0x7f || ch == '"' || ch == '\\' {
			return false
		}
	}
	return true
}

// Interrupt stops every outstanding turn: running ones end with
// TurnStopped now, and frames naming them are dropped until their
// turn_end. With notifyBackend (the stop button) a stop frame, only while
// ready, names every turn outstanding at that moment that the backend
// knows, those an earlier barge-in or typed turn stopped without a stop
// frame included: the backend may still be running them. It returns the
// turns this call newly stopped.
func (c *Client) Interrupt(notifyBackend bool) []string {
	c.mu.Lock()
	var ids, named []string
	for _, tr := range c.book.order {
		if !tr.own || tr.sent {
			named = append(named, tr.id)
		}
		if tr.stopped {
			continue
		}
		tr.stopped = true
		c.book.stoppedN++
		ids = append(ids, tr.id)
		if tr.timer != nil {
			tr.timer.Stop()
			tr.timer = nil
		}
		if c.reasoningTurn == tr.id {
			c.reasoningTurn = ""
		}
		if tr.running {
			tr.running = false
			c.emit(&transport.TurnEndEvent{TurnID: tr.id, OwnTurn: tr.own, Outcome: transport.TurnStopped})
		}
	}
	if notifyBackend && len(named) > 0 && !c.closed {
		if cn := c.cn; cn != nil && cn.ready {
			if c.sendLocked(cn, "stop", stopFrame{Type: "stop", TurnIDs: named}) {
				c.log.Info("push.stop", "turns", len(named))
			}
		}
	}
	c.mu.Unlock()
	// The runner may answer queued calls from this goroutine, and answers
	// take the lock.
	for _, id := range ids {
		c.runner.CancelTurn(id)
	}
	return ids
}
