package pushsim_test

import (
	"context"
	"testing"
	"time"

	"yui/transport"
	"yui/transport/push"
	"yui/transport/pushsim"
)

// TestEchoWithPushClient plays the echo script to the real push client.
func TestEchoWithPushClient(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, err := pushsim.StartSim(ctx, pushsim.SimOptions{Addr: "127.0.0.1:0", Key: "k", Script: pushsim.Echo()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c, err := push.New(transport.Options{ChatBaseURL: srv.URL, Key: "k", ChatID: "yui-test"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Start()
	timeout := time.After(10 * time.Second)
	sent := ""
	for {
		select {
		case ev := <-c.Events():
			switch ev := ev.(type) {
			case *transport.StateEvent:
				if ev.State == transport.StateReady && sent == "" {
					sent = c.Send(transport.Turn{Trigger: transport.TriggerUserMessage, Text: "echo me"})
				}
			case *transport.RenderEvent:
				if ev.TurnID != sent || len(ev.Segments) != 1 || ev.Segments[0].Speech != "echo me" {
					t.Errorf("render = %+v", ev)
				}
			case *transport.TurnEndEvent:
				if ev.TurnID != sent || ev.Outcome != transport.TurnCompleted || ev.Usage == nil {
					t.Errorf("turn end = %+v", ev)
				}
				return
			}
		case <-timeout:
			t.Fatal("no turn end")
		}
	}
}
