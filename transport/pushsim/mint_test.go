package pushsim

import (
	"context"
	"testing"
	"time"

	"yui/transport"
	"yui/transport/push"
)

// Mint's turns all reach the real push client and each ends; the client's
// answers to the batch calls pace it.
func TestMintAgainstPushClient(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	script, err := NamedScript("mint:120")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NamedScript("mint:x"); err == nil {
		t.Fatal("mint:x was accepted")
	}
	srv, err := StartSim(ctx, SimOptions{Addr: "127.0.0.1:0", Script: script})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c, err := push.New(transport.Options{ChatBaseURL: srv.URL, ChatID: "yui-mint0001"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Start()
	renders, ends := 0, 0
	timeout := time.After(30 * time.Second)
	for ends < 120 {
		select {
		case ev := <-c.Events():
			switch ev := ev.(type) {
			case *transport.RenderEvent:
				if len(ev.Segments) != 1 || ev.Segments[0].Speech != "" || len(ev.Segments[0].Cues) != 1 {
					t.Fatalf("render %+v, want one silent segment with a cue", ev)
				}
				renders++
			case *transport.TurnEndEvent:
				if ev.OwnTurn {
					t.Fatalf("turn end of a client turn: %+v", ev)
				}
				ends++
			}
		case <-timeout:
			t.Fatalf("%d renders, %d turn ends of 120", renders, ends)
		}
	}
	if renders != 120 {
		t.Fatalf("%d renders for 120 turns", renders)
	}
}
