package pushsim

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"yui/transport"
	"yui/transport/clock/clocktest"
	"yui/transport/push"
)

// The same seed draws the same actions at the same points; another seed
// draws others.
func TestChaosIsReproducibleFromItsSeed(t *testing.T) {
	draw := func(seed uint64) string {
		ch := newChaos(DefaultChaos(seed))
		var b strings.Builder
		for range 200 {
			_, a, p := ch.next()
			b.WriteString(string(a) + ":" + string(p) + " ")
		}
		return b.String()
	}
	a, b, c := draw(7), draw(7), draw(8)
	if a != b {
		t.Fatal("one seed drew two different runs")
	}
	if a == c {
		t.Fatal("two seeds drew the same run")
	}
	for _, act := range []ChaosAction{ChaosKill, ChaosGarbage, ChaosOversize, ChaosSlow, ChaosAnswer} {
		if !strings.Contains(a, string(act)+":") {
			t.Errorf("200 draws of the default mix never drew %s", act)
		}
	}
	for _, p := range chaosPoints {
		if !strings.Contains(a, string(p)) {
			t.Errorf("200 draws never killed at %s", p)
		}
	}
}

// The real push client against the chaos script: every turn ends, a turn
// the socket died under fails (or stalls once something rendered) and the
// client reconnects, garbage and an oversize frame are dropped with a log
// line, a dribbled render plays, and every answered turn completes.
func TestChaosAgainstPushClient(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var simLog bytes.Buffer
	var mu = make(chan struct{}, 1)
	mu <- struct{}{}
	opts := ChaosOptions{Seed: 3, Kill: 0.25, Garbage: 0.25, Oversize: 0.2, Slow: 0.2, Dribble: 40 * time.Millisecond}
	srv, err := StartSim(ctx, SimOptions{Addr: "127.0.0.1:0", Key: "k", Script: Chaos(opts),
		Logger: slog.New(slog.NewJSONHandler(lockedWriter{&simLog, mu}, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	clk := clocktest.NewFake(time.Unix(1_800_000_000, 0))
	var clientLog bytes.Buffer
	cmu := make(chan struct{}, 1)
	cmu <- struct{}{}
	c, err := push.New(transport.Options{ChatBaseURL: srv.URL, Key: "k", ChatID: "yui-chaos001", Clock: clk,
		Logger: slog.New(slog.NewJSONHandler(lockedWriter{&clientLog, cmu}, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Start()

	const turns = 24
	ends := map[string]transport.TurnOutcome{}
	var sent []string
	timeout := time.After(60 * time.Second)
	for len(ends) < turns {
		select {
		case ev := <-c.Events():
			switch ev := ev.(type) {
			case *transport.StateEvent:
				switch ev.State {
				case transport.StateReady:
					if len(sent) == len(ends) && len(sent) < turns {
						sent = append(sent, c.Send(transport.Turn{Trigger: transport.TriggerUserMessage, Text: "chaos"}))
					}
				case transport.StateReconnecting:
					// The client arms the retry under the lock it emitted
					// this event under: State, which takes that lock,
					// returns once the timer is there to fire.
					c.State()
					clk.Advance(ev.RetryIn)
				}
			case *transport.TurnEndEvent:
				if !ev.OwnTurn {
					continue
				}
				ends[ev.TurnID] = ev.Outcome
				// After a kill the next turn waits for the next ready.
				if len(sent) < turns && ev.Outcome == transport.TurnCompleted {
					sent = append(sent, c.Send(transport.Turn{Trigger: transport.TriggerUserMessage, Text: "chaos"}))
				}
			}
		case <-timeout:
			t.Fatalf("%d of %d turns ended\nsim log:\n%s", len(ends), turns, simLog.String())
		}
	}
	<-mu
	actions := map[string]ChaosAction{}
	for _, line := range strings.Split(strings.TrimSpace(simLog.String()), "\n") {
		var r struct {
			Msg    string `json:"msg"`
			TurnID string `json:"turn_id"`
			Action string `json:"action"`
		}
		if json.Unmarshal([]byte(line), &r) == nil && r.Msg == "sim_chaos" {
			actions[r.TurnID] = ChaosAction(r.Action)
		}
	}
	mu <- struct{}{}
	seen := map[ChaosAction]int{}
	for _, id := range sent {
		a, out := actions[id], ends[id]
		seen[a]++
		switch a {
		case ChaosKill:
			if out != transport.TurnFailed && out != transport.TurnStalled {
				t.Errorf("turn %s: killed, ended %v", id, out)
			}
		case "":
			t.Errorf("turn %s: the simulator logged no action", id)
		default:
			if out != transport.TurnCompleted {
				t.Errorf("turn %s: %s, ended %v, want completed", id, a, out)
			}
		}
	}
	for _, a := range []ChaosAction{ChaosKill, ChaosGarbage, ChaosOversize, ChaosSlow} {
		if seen[a] == 0 {
			t.Errorf("no %s turn in %d (seed %d): %v", a, turns, opts.Seed, seen)
		}
	}
	<-cmu
	log := clientLog.String()
	cmu <- struct{}{}
	for _, want := range []string{`"msg":"frame_malformed"`, `"msg":"frame_oversize","direction":"in"`, `"msg":"ws_reconnect","delay":"1s"`} {
		if !strings.Contains(log, want) {
			t.Errorf("client log lacks %s", want)
		}
	}
}

// lockedWriter serialises writes to a buffer the test reads too.
type lockedWriter struct {
	b  *bytes.Buffer
	mu chan struct{}
}

func (w lockedWriter) Write(p []byte) (int, error) {
	<-w.mu
	defer func() { w.mu <- struct{}{} }()
	return w.b.Write(p)
}
