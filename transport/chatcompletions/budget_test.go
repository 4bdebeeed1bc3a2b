package chatcompletions

import (
	"fmt"
	"strings"
	"testing"

	"yui/transport/request"
)

// transcriptOf is a transcript of n turns shaped as the app makes them:
// the user message with its client_context block, a generate_express
// round, and the reply.
func transcriptOf(n int) *dialect {
	d := &dialect{}
	block := "client_context\ntime: 2026-09-14 08:04 (Monday)\ntrigger: user message\ncharacter: Yui, happy, sitting on \"Notes\"\n\n"
	for i := range n {
		x := d.Begin(request.Input{Text: fmt.Sprintf("%sHow was turn %d? %s", block, i, strings.Repeat("Some words. ", 10))}).(*exchange)
		x.calls = []*toolCall{{ID: fmt.Sprintf("c%d", i), Type: "function", Function: functionCall{Name: request.ExpressName, Arguments: `{"emotion_id":"happy"}`}}}
		x.Answer([]request.Result{{Call: request.Call{ID: fmt.Sprintf("c%d", i), Name: request.ExpressName, Arguments: `{"emotion_id":"happy"}`}, Text: "ok"}})
		x.text.WriteString(fmt.Sprintf("It went well, turn %d. Thanks for asking!", i))
		x.Commit(true)
	}
	return d
}

func TestFitKeepsNewestWholeTurns(t *testing.T) {
	d := transcriptOf(50)
	per := d.transcript[0].est
	if per < 50 {
		t.Fatalf("a turn estimates %d tokens", per)
	}
	if n := fit(d.transcript, 100, request.Budget{Room: 100 + 10*per + per/2}); n != 10 {
		t.Errorf("fit keeps %d turns, want 10", n)
	}
	if n := fit(d.transcript, 100, request.Budget{Room: 100 + 10*per, Scale: 2}); n != 4 {
		t.Errorf("at scale 2 fit keeps %d turns, want 4", n)
	}
	if n := fit(d.transcript, 5000, request.Budget{Room: 100}); n != 0 {
		t.Errorf("over the room fit keeps %d turns, want none", n)
	}
	if n := fit(d.transcript, 0, request.Budget{}); n != 50 {
		t.Errorf("no room: fit keeps %d turns, want all", n)
	}
}

func TestTranscriptBounded(t *testing.T) {
	d := transcriptOf(MaxTurns + 5)
	if len(d.transcript) != MaxTurns || !strings.Contains(string(d.transcript[0].Msgs[0].Content), "turn 5?") {
		t.Fatalf("%d turns kept, first %s", len(d.transcript), d.transcript[0].Msgs[0].Content)
	}
	snap := d.Snapshot()
	if len(snap) > request.MaxConversationBytes {
		t.Fatalf("snapshot of %d bytes", len(snap))
	}
	d2 := &dialect{}
	if err := d2.Restore(snap, true); err != nil || len(d2.transcript) != len(d.transcript) {
		t.Fatalf("restore: %v, %d turns", err, len(d2.transcript))
	}
	if d2.transcript[7].est != d.transcript[7].est {
		t.Errorf("restored estimate %d, want %d", d2.transcript[7].est, d.transcript[7].est)
	}
}

// Building a request from a 1,000-turn transcript, each turn with its
// generate_express round: within an 8k window, and with no window.
func BenchmarkRequestFrom1000Turns(b *testing.B) {
	d := transcriptOf(1000)
	p := request.Params{Model: "m", Instructions: request.Instructions("You are Yui."),
		Tools: []request.ToolSpec{{Name: request.ExpressName, Parameters: []byte(`{"type":"object"}`)}}}
	for _, window := range []int{8192, 0} {
		b.Run(fmt.Sprintf("window=%d", window), func(b *testing.B) {
			p.Budget = request.Budget{}
			if window > 0 {
				p.Budget.Room = window - request.ReplyRoom(window)
			}
			b.ReportAllocs()
			for range b.N {
				x := d.Begin(request.Input{Text: "client_context\ntrigger: user message\n\nhello"})
				if _, err := x.Body(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Any saved memory is restored or refused with an error: never a panic,
// and a restored transcript builds a request.
func FuzzRestore(f *testing.F) {
	f.Add(transcriptOf(3).Snapshot())
	f.Add([]byte(`[{"messages":[{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"x","arguments":"{"}}]},{"role":"tool","tool_call_id":"c","content":"ok"}]}]`))
	f.Add([]byte(`[{"messages":[{"role":"tool","tool_call_id":"c"}]}]`))
	f.Add([]byte(`[{"messages":null}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d := &dialect{}
		if err := d.Restore(data, true); err != nil {
			return
		}
		x := d.Begin(request.Input{Text: "hello"})
		if _, err := x.Body(request.Params{Budget: request.Budget{Room: 500}}); err != nil {
			t.Fatal(err)
		}
	})
}
