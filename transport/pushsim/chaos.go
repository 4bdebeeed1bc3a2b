package pushsim

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"yui/transport"
	"yui/transport/clock"
	"yui/transport/textcut"
)

// ChaosAction is what the chaos script did with one turn.
type ChaosAction string

// The chaos actions. Every action but ChaosKill ends with a correct answer.
const (
	// ChaosKill drops the socket mid-turn, without a close frame, at a
	// random point of the answer (ChaosPoint).
	ChaosKill ChaosAction = "kill"
	// ChaosGarbage sends frames the client cannot read (not JSON, fields
	// of the wrong type, a binary message), then answers.
	ChaosGarbage ChaosAction = "garbage"
	// ChaosOversize sends a render over the 256 KiB text frame size, then answers.
	ChaosOversize ChaosAction = "oversize"
	// ChaosSlow answers with the render dribbled onto the socket a few
	// bytes at a time.
	ChaosSlow ChaosAction = "slow"
	// ChaosAnswer answers correctly: speech, render, delegations, turn_end.
	ChaosAnswer ChaosAction = "answer"
)

// ChaosPoint is where in the answer a ChaosKill drops the socket.
type ChaosPoint string

const (
	PointBeforeAnswer ChaosPoint = "before_answer" // nothing of the turn sent
	PointAfterSpeech  ChaosPoint = "after_speech"  // a speech frame sent
	PointAfterRender  ChaosPoint = "after_render"  // the render sent, no turn_end
	PointMidFrame     ChaosPoint = "mid_frame"     // half of the render's bytes sent
)

var chaosPoints = []ChaosPoint{PointBeforeAnswer, PointAfterSpeech, PointAfterRender, PointMidFrame}

// ChaosOptions configures Chaos. The chances are per turn; what they leave
// is ChaosAnswer.
type ChaosOptions struct {
	// Seed makes the run reproducible: the same seed and the same turns
	// give the same actions at the same points.
	Seed                          uint64
	Kill, Garbage, Oversize, Slow float64
	// Dribble is how long a slow render takes to arrive; 0 is 1.5 s.
	Dribble time.Duration
	// Clock paces the dribble; nil is the wall clock.
	Clock clock.Clock
}

// DefaultChaos is the mix `yui-sim --chaos SEED` plays.
func DefaultChaos(seed uint64) ChaosOptions {
	return ChaosOptions{Seed: seed, Kill: 0.4, Garbage: 0.15, Oversize: 0.1, Slow: 0.1}
}

// Chaos answers each turn like Echo, except that, drawing from one seeded
// generator shared by every connection of the server, it kills the socket
// mid-turn, sends garbage, oversize or dribbled frames first. Each turn
// writes a sim_chaos log record with its sequence number, turn_id, action
// and, for a kill, the point: what a soak test counts. Correct answers
// carry a delegations frame with one done item per answered turn
// ("d-<seed>-<seq>"), so the client's delegation history grows as it should.
func Chaos(o ChaosOptions) Script {
	return newChaos(o).play
}

func newChaos(o ChaosOptions) *chaos {
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	if o.Dribble <= 0 {
		o.Dribble = 1500 * time.Millisecond
	}
	return &chaos{o: o, rng: rand.New(rand.NewPCG(o.Seed, 0x5eed))}
}

type chaos struct {
	o   ChaosOptions
	mu  sync.Mutex
	rng *rand.Rand
	seq int
}

// next draws the action (and point) of the next turn.
func (ch *chaos) next() (int, ChaosAction, ChaosPoint) {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	ch.seq++
	x := ch.rng.Float64()
	p := chaosPoints[ch.rng.IntN(len(chaosPoints))]
	o := ch.o
	switch {
	case x < o.Kill:
		return ch.seq, ChaosKill, p
	case x < o.Kill+o.Garbage:
		return ch.seq, ChaosGarbage, ""
	case x < o.Kill+o.Garbage+o.Oversize:
		return ch.seq, ChaosOversize, ""
	case x < o.Kill+o.Garbage+o.Oversize+o.Slow:
		return ch.seq, ChaosSlow, ""
	}
	return ch.seq, ChaosAnswer, ""
}

func (ch *chaos) play(ctx context.Context, c *Conn, log *slog.Logger) error {
	happy := echoHappy(c.Hello.Vocabulary)
	for {
		f, err := c.Next(ctx)
		if err != nil {
			return endErr(err)
		}
		if f.Type != "turn" {
			continue
		}
		var t turnFrame
		if err := f.Decode(&t); err != nil {
			log.Warn("sim_frame_malformed", "type", f.Type, "err", err)
			continue
		}
		seq, act, point := ch.next()
		args := []any{"seq", seq, "turn_id", t.TurnID, "action", string(act)}
		if act == ChaosKill {
			args = append(args, "point", string(point))
		}
		log.Info("sim_chaos", args...)
		killed, err := ch.turn(ctx, c, t, seq, act, point, happy)
		if err != nil || killed {
			return endErr(err)
		}
	}
}

// turn plays one turn; killed reports that the socket was dropped.
func (ch *chaos) turn(ctx context.Context, c *Conn, t turnFrame, seq int, act ChaosAction, point ChaosPoint, happy bool) (killed bool, err error) {
	var cues []transport.Cue
	if happy {
		cues = []transport.Cue{{EmotionID: "happy"}}
	}
	text := textcut.Cut(t.Text, echoMax)
	if text == "" {
		text = "…"
	}
	speech := frame{"type": "speech", "turn_id": t.TurnID, "segments": []transport.Segment{segment(text, cues...)}}
	render, err := json.Marshal(frame{"type": "render", "turn_id": t.TurnID, "source": Source,
		"segments": []transport.Segment{segment(text, cues...)}})
	if err != nil {
		return false, err
	}
	kill := func(at ChaosPoint) bool { return act == ChaosKill && point == at }

	switch act {
	case ChaosGarbage:
		for _, g := range chaosGarbage(t.TurnID) {
			if err := c.SendRaw(g); err != nil {
				return false, err
			}
		}
		if err := c.SendBinary([]byte{0xff, 0x00, 0x7b}); err != nil {
			return false, err
		}
	case ChaosOversize:
		big := fmt.Sprintf(`{"type":"render","turn_id":%q,"source":%q,"segments":[{"speech":%q}]}`,
			t.TurnID, Source, strings.Repeat("a", 256<<10))
		if err := c.SendRaw([]byte(big)); err != nil {
			return false, err
		}
	}
	if kill(PointBeforeAnswer) {
		return true, c.drop()
	}
	if err := c.Send(speech); err != nil {
		return false, err
	}
	if kill(PointAfterSpeech) {
		return true, c.drop()
	}
	switch {
	case kill(PointMidFrame):
		if err := c.dribble(ctx, ch.o.Clock, render, true, 4, ch.o.Dribble/4); err != nil {
			return false, err
		}
		return true, c.drop()
	case act == ChaosSlow:
		if err := c.dribble(ctx, ch.o.Clock, render, false, 20, ch.o.Dribble/20); err != nil {
			return false, err
		}
	default:
		if err := c.SendRaw(render); err != nil {
			return false, err
		}
	}
	if kill(PointAfterRender) {
		return true, c.drop()
	}
	now := time.Now().UnixMilli()
	deleg := frame{"type": "delegations", "items": []transport.Delegation{{
		ID: fmt.Sprintf("d-%d-%d", ch.o.Seed, seq), Title: fmt.Sprintf("chaos turn %d", seq), StartedAt: now - 1000,
		State: "done", EndedAt: now, Status: "ok", Summary: "answered " + string(act),
	}}}
	if err := c.Send(deleg); err != nil {
		return false, err
	}
	return false, c.Send(frame{"type": "turn_end", "turn_id": t.TurnID, "usage": usageFor(t.ClientContext+t.Text, text)})
}

// chaosGarbage is what ChaosGarbage sends before its answer: frames that
// are not JSON, not objects, or carry fields of the wrong type.
func chaosGarbage(turnID string) [][]byte {
	id, _ := json.Marshal(turnID)
	return [][]byte{
		[]byte(`this is not JSON {`),
		[]byte(`[1,2,3]`),
		[]byte(`{}`),
		[]byte(`{"type":42}`),
		[]byte(`{"type":"render","turn_id":12345,"segments":[]}`),
		[]byte(`{"type":"render","turn_id":` + string(id) + `,"segments":"oops"}`),
		[]byte(`{"type":"speech","turn_id":` + string(id) + `,"segments":[{"speech":5}]}`),
		[]byte(`{"type":"turn_end","turn_id":["x"]}`),
		[]byte(`{"type":"delegations","items":"none"}`),
		[]byte(`{"type":"tool_call","id":7,"name":null}`),
		[]byte(`{"type":"no_such_frame","turn_id":` + string(id) + `}`),
		{'{', '"', 't', 'y', 'p', 'e', '"', ':', '"', 0xc3, 0x28, '"', '}'}, // invalid UTF-8
	}
}

// drop closes the socket without a close frame, as a crashed backend or a
// cut network would.
func (c *Conn) drop() error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.ws.UnderlyingConn().Close()
	return nil
}

// dribble writes data as one unfragmented text message straight onto the
// socket, in chunks pieces, every apart: the client's reader sees a frame
// that arrives slowly. With half, only the first half of the frame's bytes
// goes out (a kill follows). The write lock is held throughout, so no
// other frame can interleave with it.
func (c *Conn) dribble(ctx context.Context, clk clock.Clock, data []byte, half bool, chunks int, every time.Duration) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	raw := append(wsHeader(websocket.TextMessage, len(data)), data...)
	if half {
		raw = raw[:len(raw)/2]
	}
	nc := c.ws.UnderlyingConn()
	size := (len(raw) + chunks - 1) / chunks
	for off := 0; off < len(raw); off += size {
		if off > 0 {
			if err := sleep(ctx, clk, every); err != nil {
				return err
			}
		}
		nc.SetWriteDeadline(time.Now().Add(10 * time.Second))
		if _, err := nc.Write(raw[off:min(off+size, len(raw))]); err != nil {
			return fmt.Errorf("pushsim: dribble: %w", err)
		}
	}
	return nil
}

// wsHeader is the header of a final, unmasked server frame (RFC 6455 §5.2).
func wsHeader(opcode, n int) []byte {
	h := []byte{0x80 | byte(opcode)}
	switch {
	case n < 126:
		return append(h, byte(n))
	case n <= 0xffff:
		return binary.BigEndian.AppendUint16(append(h, 126), uint16(n))
	}
	return binary.BigEndian.AppendUint64(append(h, 127), uint64(n))
}
