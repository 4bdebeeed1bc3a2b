package pet

import (
	"slices"
	"strings"
	"testing"
	"time"

	"yui/pet/transcript"
	"yui/transport"
)

func kinds(es []transcript.Entry) []transcript.Kind {
	var out []transcript.Kind
	for _, e := range es {
		out = append(out, e.Kind)
	}
	return out
}

func TestTranscriptRecordsATurn(t *testing.T) {
	log := transcript.Open(transcript.Options{})
	e := newEnv(t, func(o *Options) { o.Transcript = log })
	e.c.SendText("How did the tests go?", nil)
	e.ev(
		&transport.ReasoningEvent{TurnID: "t1", Delta: "Let me "},
		&transport.ReasoningEvent{TurnID: "t1", Delta: "check."},
		&transport.ToolStatusEvent{TurnID: "t1", OwnTurn: true, State: "running", ToolID: "read_file"},
		&transport.ToolStatusEvent{TurnID: "t1", OwnTurn: true, State: "done", ToolID: "read_file"},
		speechEv("t1", say("All green!", transport.Cue{EmotionID: "happy"})),
		render("t1", true, say("Want the list?"), say("[SILENT]", transport.Cue{MotionID: "wave"})),
		end("t1", transport.TurnCompleted),
	)
	es := log.Entries()
	want := []transcript.Kind{transcript.KindUser, transcript.KindReasoning, transcript.KindTool, transcript.KindReply}
	if !slices.Equal(kinds(es), want) {
		t.Fatalf("kinds = %v, want %v", kinds(es), want)
	}
	if es[0].Trigger != "user message" || es[0].Text != "How did the tests go?" || es[0].TurnID != "t1" {
		t.Errorf("user = %+v", es[0])
	}
	if es[1].Text != "Let me check." || es[1].Streaming {
		t.Errorf("reasoning = %+v", es[1])
	}
	if es[2].Tool != "read_file" || es[2].State != "done" {
		t.Errorf("tool = %+v", es[2])
	}
	if es[3].Text != "All green! Want the list?" || len(es[3].Cues) != 2 {
		t.Errorf("reply = %+v", es[3])
	}
}

func TestTranscriptRecordsFailureAndReset(t *testing.T) {
	log := transcript.Open(transcript.Options{})
	e := newEnv(t, func(o *Options) { o.Transcript = log })
	e.c.SendText("hi", nil)
	e.ev(&transport.TurnEndEvent{TurnID: "t1", OwnTurn: true, Outcome: transport.TurnFailed, ErrorText: "quota\nexceeded"})
	e.c.Reset()
	es := log.Entries()
	if got := kinds(es); !slices.Equal(got, []transcript.Kind{transcript.KindUser, transcript.KindError, transcript.KindReset}) {
		t.Fatalf("kinds = %v", got)
	}
	if es[1].Text != "quota exceeded" {
		t.Errorf("error line = %q", es[1].Text)
	}
}

func TestGreetingWaitsForFirstReady(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Greeting = true })
	// The fake transport starts ready; the greeting goes on the next ready event.
	e.ev(&transport.StateEvent{State: transport.StateConnecting})
	e.clock.Advance(0)
	if calls := e.tr.takeCalls(); len(calls) != 0 {
		t.Fatalf("sent before ready: %v", calls)
	}
	e.ev(&transport.StateEvent{State: transport.StateReady})
	e.clock.Advance(0)
	if calls := e.tr.takeCalls(); !slices.Equal(calls, []string{"send greeting"}) {
		t.Fatalf("calls = %v, want the greeting", calls)
	}
	e.ev(&transport.StateEvent{State: transport.StateReconnecting, RetryIn: time.Second}, &transport.StateEvent{State: transport.StateReady})
	e.clock.Advance(0)
	if calls := e.tr.takeCalls(); len(calls) != 0 {
		t.Fatalf("greeted twice: %v", calls)
	}
}

func TestCheckInAfterIdle(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.CheckIn = 10 * time.Minute })
	e.clock.Advance(9 * time.Minute)
	e.c.SendText("hi", nil) // a turn restarts the wait
	e.ev(end("t1", transport.TurnCompleted))
	e.tr.takeCalls()
	e.clock.Advance(9 * time.Minute)
	if calls := e.tr.takeCalls(); len(calls) != 0 {
		t.Fatalf("checked in early: %v", calls)
	}
	e.clock.Advance(time.Minute)
	if calls := e.tr.takeCalls(); !slices.Equal(calls, []string{"send check-in"}) {
		t.Fatalf("calls = %v, want a check-in", calls)
	}
}

func TestTakenOverPill(t *testing.T) {
	e := newEnv(t, nil)
	e.ev(&transport.StateEvent{State: transport.StateReconnecting, RetryIn: 2 * time.Second, CloseCode: CloseTakenOver})
	if got := e.view().Pill.Conn; !strings.HasPrefix(got, TakenOverText) || !strings.Contains(got, "reconnecting in 2 s") {
		t.Fatalf("pill = %q", got)
	}
	e.ev(&transport.StateEvent{State: transport.StateReady})
	e.ev(&transport.StateEvent{State: transport.StateReconnecting, RetryIn: time.Second})
	if got := e.view().Pill.Conn; got != "reconnecting in 1 s" {
		t.Fatalf("pill after a plain drop = %q", got)
	}
}
