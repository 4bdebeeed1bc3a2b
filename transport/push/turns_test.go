package push

import (
	"bytes"
	"encoding/base64"
	"strconv"
	"strings"
	"testing"
	"time"

	"yui/transport"
	"yui/transport/clientctx"
	"yui/transport/pushsim"
)

// Turn ids start at the wall clock reading in ms and count up one per turn.
func TestTurnIDsCountFromClock(t *testing.T) {
	h := newHarness(t, setup{})
	base := t0.UnixMilli()
	for i := range 3 {
		id := h.sendTurn("x")
		mustEqual(t, id, strconv.FormatInt(base+int64(i), 10))
	}
	// A turn that cannot start still takes an id.
	h.conn.CloseWith(1000, "")
	h.waitState(transport.StateReconnecting)
	id := h.c.Send(transport.Turn{Trigger: transport.TriggerPoke})
	mustEqual(t, id, strconv.FormatInt(base+3, 10))
}

func TestTurnFrame(t *testing.T) {
	h := newHarness(t, setup{})
	turn := transport.Turn{
		Trigger:   transport.TriggerUserMessage,
		Text:      "How did the tests go?",
		Character: transport.CharacterState{Name: "Yui", Emotion: "happy"},
		Screenshot: &transport.Screenshot{Image: transport.Image{MIME: "image/png", Data: []byte("png")},
			Display: 1, Displays: 1, Width: 10, Height: 10, ActiveWindow: "main.go"},
	}
	id := h.c.Send(turn)
	f := h.nextFrame("turn")
	var got map[string]any
	f.Decode(&got)
	mustEqual(t, got, map[string]any{
		"type": "turn", "turn_id": id, "text": "How did the tests go?",
		"client_context": clientctx.Build(t0, time.UTC, turn),
	})
	r := h.logs.waitFor(t, "turn", "turn_id", id)
	mustEqual(t, r.Attrs["trigger"], "user message")
	mustEqual(t, r.Attrs["spoke_text"], false)
}

func TestTurnImages(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\nscreen")
	jpg := []byte("\xff\xd8\xffattached")
	turn := transport.Turn{
		Trigger:     transport.TriggerUserMessage,
		Screenshot:  &transport.Screenshot{Image: transport.Image{MIME: "image/png", Data: png}, Display: 1, Displays: 1},
		Attachments: []transport.Image{{MIME: "image/jpeg", Data: jpg}, {Data: png}},
	}
	url := func(mime string, b []byte) string {
		return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(b)
	}

	// With max_turn_bytes: screenshot first, then the attachments.
	h := newHarness(t, setup{server: pushsim.Options{MaxTurnBytes: 1 << 20}})
	h.c.Send(turn)
	var f struct {
		Images []string `json:"images"`
	}
	h.nextFrame("turn").Decode(&f)
	mustEqual(t, f.Images, []string{url("image/png", png), url("image/jpeg", jpg), url("image/png", png)})

	// No image on the turn: the field is omitted.
	h.c.Send(transport.Turn{Trigger: transport.TriggerPoke})
	if raw := h.nextFrame("turn").Raw; bytes.Contains(raw, []byte(`"images"`)) {
		t.Fatalf("images on an imageless turn: %s", raw)
	}

	// Without max_turn_bytes the turn carries no images.
	h2 := newHarness(t, setup{})
	h2.c.Send(turn)
	if raw := h2.nextFrame("turn").Raw; bytes.Contains(raw, []byte(`"images"`)) {
		t.Fatalf("images without max_turn_bytes: %s", raw)
	}
}

func TestTurnImagesFitted(t *testing.T) {
	const limit = 4096
	big := bytes.Repeat([]byte{0xAB}, 6000) // alone takes the frame over the limit
	var gotRoom int
	var gotN int
	fit := func(imgs []transport.Image, room int) ([]string, bool) {
		gotRoom, gotN = room, len(imgs)
		return []string{"data:image/jpeg;base64,AAAA", "data:image/jpeg;base64,BBBB"}, true
	}
	h := newHarness(t, setup{
		server: pushsim.Options{MaxTurnBytes: limit},
		opts:   func(o *transport.Options) { o.FitImages = fit },
	})
	turn := transport.Turn{Trigger: transport.TriggerUserMessage, Text: "look",
		Screenshot:  &transport.Screenshot{Image: transport.Image{MIME: "image/png", Data: big}},
		Attachments: []transport.Image{{MIME: "image/png", Data: []byte("small")}}}
	h.c.Send(turn)
	fr := h.nextFrame("turn")
	var f struct {
		Images []string `json:"images"`
	}
	fr.Decode(&f)
	mustEqual(t, f.Images, []string{"data:image/jpeg;base64,AAAA", "data:image/jpeg;base64,BBBB"})
	mustEqual(t, gotN, 2)
	// The room is the limit minus the frame without images and the key.
	withoutImages := len(fr.Raw) - len(`,"images":["data:image/jpeg;base64,AAAA","data:image/jpeg;base64,BBBB"]`)
	mustEqual(t, gotRoom, limit-withoutImages-len(`,"images":`))
	if len(fr.Raw) > limit {
		t.Fatalf("frame %d bytes over %d", len(fr.Raw), limit)
	}

	// A fitter that finds nothing fits: the turn goes without images.
	h2 := newHarness(t, setup{
		server: pushsim.Options{MaxTurnBytes: limit},
		opts: func(o *transport.Options) {
			o.FitImages = func([]transport.Image, int) ([]string, bool) { return nil, false }
		},
	})
	h2.c.Send(turn)
	if raw := h2.nextFrame("turn").Raw; bytes.Contains(raw, []byte(`"images"`)) {
		t.Fatal("images sent although nothing fitted")
	}
	// No fitter: the images that fit, in order, are kept.
	h3 := newHarness(t, setup{server: pushsim.Options{MaxTurnBytes: limit}})
	h3.c.Send(turn)
	h3.nextFrame("turn").Decode(&f)
	mustEqual(t, f.Images, []string{"data:image/png;base64," + base64.StdEncoding.EncodeToString([]byte("small"))})
}

func TestTurnFrameOversizeNeverSent(t *testing.T) {
	h := newHarness(t, setup{})
	id := h.c.Send(transport.Turn{Trigger: transport.TriggerPoke, Text: strings.Repeat("x", TextFrameLimit)})
	te := expect[*transport.TurnEndEvent](h)
	if te.TurnID != id || te.Outcome != transport.TurnFailed {
		t.Fatal(te)
	}
	h.logs.waitFor(t, "frame_oversize", "direction", "out", "type", "turn")
	// max_turn_bytes raises the turn frame limit.
	h2 := newHarness(t, setup{server: pushsim.Options{MaxTurnBytes: 2 * TextFrameLimit}})
	h2.c.Send(transport.Turn{Trigger: transport.TriggerPoke, Text: strings.Repeat("x", TextFrameLimit)})
	h2.nextFrame("turn")
	// And lowers it.
	h3 := newHarness(t, setup{server: pushsim.Options{MaxTurnBytes: 1000}})
	h3.c.Send(transport.Turn{Trigger: transport.TriggerPoke, Text: strings.Repeat("x", 1000)})
	h3.logs.waitFor(t, "frame_oversize", "direction", "out", "type", "turn")
	mustEqual(t, expect[*transport.TurnEndEvent](h3).Outcome, transport.TurnFailed)
	if got := h3.conn.Received(); len(got) != 0 {
		t.Fatalf("sent %v", got)
	}
}

// The frame wait passing before the first render fails the turn.
func TestFrameWaitBeforeFirstRender(t *testing.T) {
	h := newHarness(t, setup{})
	id := h.sendTurn("x")
	h.advance(1, FrameWait-time.Millisecond)
	h.clk.Advance(time.Millisecond)
	te := expect[*transport.TurnEndEvent](h)
	if te.TurnID != id || te.Outcome != transport.TurnFailed || te.ErrorText != "" {
		t.Fatalf("%+v", te)
	}
	h.logs.waitFor(t, "network_stall", "turn_id", id, "stage", "push_wait")
}

// After the first render the wait passing ends the turn as delivered.
func TestFrameWaitAfterFirstRender(t *testing.T) {
	h := newHarness(t, setup{})
	id := h.sendTurn("x")
	h.send(speechFrame(id, "One."))
	re := expect[*transport.RenderEvent](h)
	if re.Kind != transport.KindSpeech || !re.First {
		t.Fatalf("%+v", re)
	}
	h.advance(1, FrameWait)
	te := expect[*transport.TurnEndEvent](h)
	mustEqual(t, te.Outcome, transport.TurnStalled)
	h.logs.waitFor(t, "network_stall", "turn_id", id, "stage", "push_turn_end")
	if len(h.logs.named("network_stall", "stage", "push_wait")) != 0 {
		t.Fatal("push_wait logged")
	}
}

// The wait counts again from every frame carrying the turn's id.
func TestFrameWaitRestartsOnEveryFrame(t *testing.T) {
	h := newHarness(t, setup{})
	id := h.sendTurn("x")
	frames := []map[string]any{
		{"type": "tool_status", "turn_id": id, "state": "running", "tool_id": "read_file"},
		{"type": "reasoning", "turn_id": id, "delta": "hm"},
		{"type": "error", "turn_id": id, "message": "oops"},
		speechFrame(id, "a"),
		render(id, "b"),
	}
	for _, f := range frames {
		h.clk.Advance(FrameWait - time.Second)
		h.send(f)
		h.sentinel()
	}
	h.clk.Advance(FrameWait - time.Second)
	h.send(turnEnd(id))
	te := expect[*transport.TurnEndEvent](h)
	// The error frame earlier makes it a failed turn.
	mustEqual(t, te.Outcome, transport.TurnFailed)
	mustEqual(t, te.ErrorText, "oops")
	if len(h.logs.named("network_stall")) != 0 {
		t.Fatal("stalled")
	}
}

// A turn whose wait ended stays outstanding: its late render plays and the
// next Interrupt stops it; its later frames are then dropped until turn_end.
func TestStalledTurnStaysOutstanding(t *testing.T) {
	h := newHarness(t, setup{})
	id := h.sendTurn("x")
	h.advance(1, FrameWait)
	mustEqual(t, expect[*transport.TurnEndEvent](h).Outcome, transport.TurnFailed)
	h.send(render(id, "Late but here."))
	re := expect[*transport.RenderEvent](h)
	if re.TurnID != id || !re.First || !re.OwnTurn {
		t.Fatalf("%+v", re)
	}
	ids := h.c.Interrupt(true)
	mustEqual(t, ids, []string{id})
	h.nextFrame("stop")
	h.send(render(id, "dropped"))
	h.send(turnEnd(id))
	if evs := h.sentinel(); len(evs) != 0 {
		t.Fatalf("events for a stopped turn: %v", evs)
	}
	h.logs.waitFor(t, "push.render", "turn_id", id, "dropped", "cut_turn", "stopped_count", 1)
	// The turn_end forgot it: a render naming it now plays.
	h.send(render(id, "after the end"))
	re = expect[*transport.RenderEvent](h)
	if re.TurnID != id || re.First {
		t.Fatalf("%+v", re)
	}
}

func TestTurnEnd(t *testing.T) {
	h := newHarness(t, setup{})
	id := h.sendTurn("x")
	h.send(map[string]any{"type": "turn_end", "turn_id": id, "usage": map[string]any{"input_tokens": 1200, "output_tokens": 80, "total_tokens": 1280}})
	u := expect[*transport.UsageEvent](h)
	mustEqual(t, u.Usage, transport.Usage{InputTokens: 1200, OutputTokens: 80, TotalTokens: 1280})
	te := expect[*transport.TurnEndEvent](h)
	if te.TurnID != id || te.Outcome != transport.TurnCompleted || !te.OwnTurn || te.Usage == nil || te.Usage.TotalTokens != 1280 {
		t.Fatalf("%+v", te)
	}
	h.logs.waitFor(t, "push.turn_end", "turn_id", id)

	// A usage without all three numbers is absent; the frame still ends the turn.
	for _, usage := range []any{
		map[string]any{"input_tokens": 1, "output_tokens": 2},
		map[string]any{"input_tokens": 1, "output_tokens": 2, "total_tokens": "3"},
		"12", 12, []int{1, 2, 3}, nil,
	} {
		id := h.sendTurn("x")
		h.send(map[string]any{"type": "turn_end", "turn_id": id, "usage": usage})
		te := expect[*transport.TurnEndEvent](h)
		if te.TurnID != id || te.Outcome != transport.TurnCompleted || te.Usage != nil {
			t.Fatalf("usage %v: %+v", usage, te)
		}
	}

	// A turn_end for a turn the client does not hold is ignored.
	h.send(turnEnd(id))
	h.send(turnEnd("b-unknown"))
	if evs := h.sentinel(); len(evs) != 0 {
		t.Fatalf("events: %v", evs)
	}
}

func TestTurnEndBeforeRenderThenRenderPlays(t *testing.T) {
	h := newHarness(t, setup{})
	id := h.sendTurn("x")
	h.send(turnEnd(id))
	mustEqual(t, expect[*transport.TurnEndEvent](h).Outcome, transport.TurnCompleted)
	h.send(render(id, "Still plays."))
	re := expect[*transport.RenderEvent](h)
	if re.TurnID != id || !re.First || !re.OwnTurn {
		t.Fatalf("%+v", re)
	}
}

// An error frame, then turn_end: the turn fails with the message on one
// line cut at 200 characters; no network_drop follows for it.
func TestErrorFrameThenTurnEnd(t *testing.T) {
	h := newHarness(t, setup{})
	id := h.sendTurn("x")
	long := "Provider returned 429:\nrate limit\treached " + strings.Repeat("é", 300)
	h.send(map[string]any{"type": "error", "turn_id": id, "message": long})
	h.send(turnEnd(id))
	te := expect[*transport.TurnEndEvent](h)
	mustEqual(t, te.Outcome, transport.TurnFailed)
	want := "Provider returned 429: rate limit reached " + strings.Repeat("é", 200-len("Provider returned 429: rate limit reached "))
	mustEqual(t, te.ErrorText, want)
	mustEqual(t, len([]rune(te.ErrorText)), 200)
	h.logs.waitFor(t, "push.error", "turn_id", id, "message", want)
	h.conn.CloseWith(1011, "")
	h.waitState(transport.StateReconnecting)
	if len(h.logs.named("network_drop")) != 0 {
		t.Fatal("network_drop for a turn that ended on its turn_end")
	}
}

func TestErrorFrameForTurnNotSent(t *testing.T) {
	h := newHarness(t, setup{})
	h.send(map[string]any{"type": "error", "turn_id": "b-1", "message": "backend run failed"})
	h.send(turnEnd("b-1"))
	evs := h.sentinel()
	// Only the turn_end closing the backend run; the error shows nothing.
	if len(evs) != 1 {
		t.Fatalf("events %v", evs)
	}
	te := evs[0].(*transport.TurnEndEvent)
	if te.OwnTurn || te.Outcome != transport.TurnCompleted || te.ErrorText != "" {
		t.Fatalf("%+v", te)
	}
}

func TestErrorFrameSocketDrop(t *testing.T) {
	// An error frame and then the socket drops before turn_end: the turn
	// fails with the message.
	h := newHarness(t, setup{})
	id := h.sendTurn("x")
	h.send(map[string]any{"type": "error", "turn_id": id, "message": "boom"})
	h.sentinel()
	h.conn.CloseWith(1011, "")
	te := expect[*transport.TurnEndEvent](h)
	mustEqual(t, te.Outcome, transport.TurnFailed)
	mustEqual(t, te.ErrorText, "boom")
}

// Interrupt: every outstanding turn is stopped, running ones end with
// TurnStopped at once, their frames are dropped (logged) until turn_end,
// which is consumed silently.
func TestInterruptDropsStoppedTurnFrames(t *testing.T) {
	h := newHarness(t, setup{})
	a := h.sendTurn("a")
	b := h.sendTurn("b")
	h.send(render(b, "b speaks"))
	expect[*transport.RenderEvent](h)
	h.send(map[string]any{"type": "render", "turn_id": "b-77", "source": "hermes", "segments": []any{}})
	mustEqual(t, expect[*transport.RenderEvent](h).OwnTurn, false)

	ids := h.c.Interrupt(true)
	mustEqual(t, ids, []string{a, b, "b-77"})
	for _, want := range []string{a, b} {
		te := expect[*transport.TurnEndEvent](h)
		if te.TurnID != want || te.Outcome != transport.TurnStopped {
			t.Fatalf("%+v", te)
		}
	}
	var stop struct {
		TurnIDs []string `json:"turn_ids"`
	}
	h.nextFrame("stop").Decode(&stop)
	mustEqual(t, stop.TurnIDs, []string{a, b, "b-77"})
	h.logs.waitFor(t, "push.stop", "turns", 3)

	h.send(render(a, "x"))
	h.send(speechFrame(a, "x"))
	h.send(map[string]any{"type": "tool_status", "turn_id": a, "state": "running", "tool_id": "t"})
	h.send(map[string]any{"type": "reasoning", "turn_id": a, "delta": "x"})
	h.send(map[string]any{"type": "error", "turn_id": a, "message": "x"})
	h.send(map[string]any{"type": "turn_end", "turn_id": a, "usage": map[string]any{"input_tokens": 1, "output_tokens": 1, "total_tokens": 2}})
	h.send(render(b, "x"))
	if evs := h.sentinel(); len(evs) != 0 {
		t.Fatalf("events for stopped turns: %v", evs)
	}
	for _, rec := range []string{"push.render", "push.speech", "push.tool_status", "push.error"} {
		h.logs.waitFor(t, rec, "turn_id", a, "dropped", "cut_turn", "stopped_count", 3)
	}
	// a's turn_end made it forgotten: b and b-77 are still waiting.
	h.logs.waitFor(t, "push.render", "turn_id", b, "dropped", "cut_turn", "stopped_count", 2)

	// A second stop names every turn still outstanding, the ones already
	// stopped included (b and b-77 wait for their turn_end), but returns
	// only the turns it newly stopped (here the sentinel's backend turn).
	newly := h.c.Interrupt(true)
	h.nextFrame("stop").Decode(&stop)
	if len(newly) != 1 || !strings.HasPrefix(newly[0], "sentinel-") {
		t.Fatalf("newly stopped %v", newly)
	}
	mustEqual(t, stop.TurnIDs, []string{b, "b-77", newly[0]})
	h.send(turnEnd(b))
	h.send(turnEnd("b-77"))
	h.send(turnEnd(newly[0]))
	h.logs.waitFor(t, "push.turn_end", "turn_id", newly[0])
	// Nothing outstanding: no stop frame.
	mustEqual(t, h.c.Interrupt(true), []string(nil))
	h.c.Reset()
	h.nextFrame("reset")
	mustEqual(t, len(h.logs.named("push.stop")), 2)
}

func TestInterruptWithoutNotifySendsNoStop(t *testing.T) {
	h := newHarness(t, setup{})
	id := h.sendTurn("x")
	mustEqual(t, h.c.Interrupt(false), []string{id})
	expect[*transport.TurnEndEvent](h)
	h.c.Reset()
	h.nextFrame("reset")
	for _, f := range h.conn.Received() {
		if f.Type == "stop" {
			t.Fatal("stop frame without notify")
		}
	}
}

func TestStopNotSentWhileNotReady(t *testing.T) {
	h := newHarness(t, setup{})
	id := h.sendTurn("x")
	h.conn.CloseWith(1011, "")
	expect[*transport.TurnEndEvent](h)
	h.waitState(transport.StateReconnecting)
	mustEqual(t, h.c.Interrupt(true), []string{id})
	if len(h.logs.named("push.stop")) != 0 {
		t.Fatal("stop while not ready")
	}
}

// A backend that takes a newer turn's text sends everything under the newer
// id and closes both: the client has stopped the older turn and drops its
// frames.
func TestNewerTurnStopsOlder(t *testing.T) {
	h := newHarness(t, setup{})
	older := h.c.Send(transport.Turn{Trigger: transport.TriggerUserMessage, Text: "first"})
	h.nextFrame("turn")
	newer := h.c.Send(transport.Turn{Trigger: transport.TriggerUserVoice, Text: "second"})
	h.nextFrame("turn")
	te := expect[*transport.TurnEndEvent](h)
	if te.TurnID != older || te.Outcome != transport.TurnStopped {
		t.Fatalf("%+v", te)
	}
	h.send(render(older, "old reply"))
	h.send(render(newer, "new reply"))
	re := expect[*transport.RenderEvent](h)
	mustEqual(t, re.TurnID, newer)
	h.send(turnEnd(newer))
	h.send(turnEnd(older))
	te = expect[*transport.TurnEndEvent](h)
	if te.TurnID != newer || te.Outcome != transport.TurnCompleted {
		t.Fatalf("%+v", te)
	}
	if evs := h.sentinel(); len(evs) != 0 {
		t.Fatalf("%v", evs)
	}
	// Interrupt(false) from a typed turn sends no stop frame.
	for _, f := range h.conn.Received() {
		if f.Type == "stop" {
			t.Fatal("stop frame")
		}
	}
}

func TestInterruptDuringTurnBuild(t *testing.T) {
	// The fitter runs without the lock; an Interrupt meanwhile keeps the
	// turn from going out.
	var h *harness
	entered := make(chan struct{})
	release := make(chan struct{})
	h = newHarness(t, setup{
		server: pushsim.Options{MaxTurnBytes: 2000},
		opts: func(o *transport.Options) {
			o.FitImages = func([]transport.Image, int) ([]string, bool) {
				close(entered)
				<-release
				return nil, false
			}
		},
	})
	done := make(chan string)
	go func() {
		done <- h.c.Send(transport.Turn{Trigger: transport.TriggerPoke, Attachments: []transport.Image{{MIME: "image/png", Data: bytes.Repeat([]byte{1}, 3000)}}})
	}()
	<-entered
	ids := h.c.Interrupt(true)
	close(release)
	id := <-done
	mustEqual(t, ids, []string{id})
	mustEqual(t, expect[*transport.TurnEndEvent](h).Outcome, transport.TurnStopped)
	h.c.Reset()
	h.nextFrame("reset")
	for _, f := range h.conn.Received() {
		if f.Type == "turn" || f.Type == "stop" {
			t.Fatalf("%s went out", f.Type)
		}
	}
}

// The real turn_end of a turn whose wait already ended still closes what
// its late frames opened (utterance, tool segment, reasoning): the client
// gets a second end, as delivered, with no failure line.
func TestLateTurnEndAfterWaitClosesTheTurn(t *testing.T) {
	h := newHarness(t, setup{})
	id := h.sendTurn("x")
	h.send(speechFrame(id, "One."))
	expect[*transport.RenderEvent](h)
	h.advance(1, FrameWait)
	mustEqual(t, expect[*transport.TurnEndEvent](h).Outcome, transport.TurnStalled)
	h.send(speechFrame(id, "Two."))
	expect[*transport.RenderEvent](h)
	h.send(turnEnd(id))
	te := expect[*transport.TurnEndEvent](h)
	mustEqual(t, te.TurnID, id)
	mustEqual(t, te.OwnTurn, true)
	mustEqual(t, te.Outcome, transport.TurnStalled)
}
