package pet

import (
	"context"
	"errors"
	"fmt"
	"image"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/pet/character"
	"yui/pet/speech"
	"yui/transport"
	"yui/transport/clock/clocktest"
)

// fakeTransport records what the controller asks of it. Tests feed events
// straight to Controller.handle, which is what Run does with each event,
// so every step is deterministic.
type fakeTransport struct {
	mu          sync.Mutex
	events      chan transport.Event
	next        int
	outstanding []string
	calls       []string // "send <trigger>", "interrupt <notify>", "failed <id>"
	sent        []transport.Turn
	state       transport.StateEvent
	onSend      func(id string) // runs inside Send
}

func newFakeTransport() *fakeTransport {
	return &fakeTransport{events: make(chan transport.Event, 16), state: transport.StateEvent{State: transport.StateReady}}
}

func (f *fakeTransport) Start() {}

func (f *fakeTransport) Send(t transport.Turn) string {
	f.mu.Lock()
	f.next++
	id := fmt.Sprintf("t%d", f.next)
	f.outstanding = append(f.outstanding, id)
	f.calls = append(f.calls, "send "+string(t.Trigger))
	f.sent = append(f.sent, t)
	hook := f.onSend
	f.mu.Unlock()
	if hook != nil {
		hook(id)
	}
	return id
}

func (f *fakeTransport) Interrupt(notify bool) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	ids := f.outstanding
	f.outstanding = nil
	f.calls = append(f.calls, fmt.Sprintf("interrupt %v", notify))
	return ids
}

func (f *fakeTransport) Reset()                             {}
func (f *fakeTransport) SetVocabulary(transport.Vocabulary) {}
func (f *fakeTransport) Reconnect()                         {}
func (f *fakeTransport) Events() <-chan transport.Event     { return f.events }
func (f *fakeTransport) Close() error                       { return nil }

func (f *fakeTransport) ReportPlaybackFailed(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, "failed "+id)
}

func (f *fakeTransport) State() transport.StateEvent {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.state
}

func (f *fakeTransport) takeCalls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.calls
	f.calls = nil
	return c
}

func (f *fakeTransport) lastSent() transport.Turn {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.sent[len(f.sent)-1]
}

// testPack is a hand-built pack: the loader is another package's work.
func testPack() *character.Pack {
	img := image.NewRGBA(image.Rect(0, 0, 1, 1))
	frames := func(n int) []image.Image {
		fs := make([]image.Image, n)
		for i := range fs {
			fs[i] = img
		}
		return fs
	}
	return &character.Pack{
		ID:   "yui",
		Name: "Yui",
		Emotions: map[string]image.Image{
			"neutral": img, "happy": img, "sad": img, "curious": img,
		},
		Motions: map[string]character.Motion{
			"idle":     {Frames: frames(2), FPS: 6, Loop: true},
			"thinking": {Frames: frames(1), FPS: 4, Loop: true},
			"talk":     {Frames: frames(2), FPS: 8, Loop: true},
			"walk":     {Frames: frames(2), FPS: 8, Loop: true},
			"sit":      {Frames: frames(1), FPS: 1, Loop: true},
			"fall":     {Frames: frames(1), FPS: 1, Loop: true},
			"wave":     {Frames: frames(4), FPS: 4, Loop: false}, // plays 1 s
		},
		FillerLines:  []string{"Hmm, let me think."},
		FailureLines: []string{"I can't reach my thoughts right now."},
	}
}

type env struct {
	t     *testing.T
	c     *Controller
	tr    *fakeTransport
	clock *clocktest.Fake

	mu    sync.Mutex
	views []View
}

func newEnv(t *testing.T, mod func(*Options)) *env {
	t.Helper()
	e := &env{t: t, tr: newFakeTransport(), clock: clocktest.NewFake(time.Date(2026, 9, 14, 15, 4, 14, 0, time.UTC))}
	opts := Options{
		Transport: e.tr,
		Pack:      testPack(),
		Clock:     e.clock,
		OnChange: func(v View) {
			e.mu.Lock()
			defer e.mu.Unlock()
			e.views = append(e.views, v)
		},
		Rand: func(int) int { return 0 },
	}
	if mod != nil {
		mod(&opts)
	}
	e.c = New(opts)
	t.Cleanup(e.c.Close)
	return e
}

func (e *env) ev(evs ...transport.Event) {
	for _, ev := range evs {
		e.c.handle(ev)
	}
}

func (e *env) view() View { return e.c.View() }

// sawBubble reports whether any published view showed text in the bubble.
func (e *env) sawBubble(text string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.ContainsFunc(e.views, func(v View) bool { return v.Bubble == text })
}

func render(turn string, own bool, segs ...transport.Segment) *transport.RenderEvent {
	return &transport.RenderEvent{Kind: transport.KindRender, TurnID: turn, OwnTurn: own, Segments: segs}
}

func speechEv(turn string, segs ...transport.Segment) *transport.RenderEvent {
	return &transport.RenderEvent{Kind: transport.KindSpeech, TurnID: turn, OwnTurn: true, Segments: segs}
}

func say(text string, cues ...transport.Cue) transport.Segment {
	return transport.Segment{Cues: cues, Speech: text}
}

func end(turn string, outcome transport.TurnOutcome) *transport.TurnEndEvent {
	return &transport.TurnEndEvent{TurnID: turn, OwnTurn: true, Outcome: outcome}
}

func TestRunningFromTheTurnUntilItsTurnEnd(t *testing.T) {
	tests := []struct {
		name string
		send func(c *Controller)
		trig transport.Trigger
		text string
	}{
		{"typed", func(c *Controller) { c.SendText("How did the tests go?", nil) }, transport.TriggerUserMessage, "How did the tests go?"},
		{"spoken", func(c *Controller) { c.VoiceTurn("hello") }, transport.TriggerUserVoice, "hello"},
		{"poke", func(c *Controller) { c.Poke() }, transport.TriggerPoke, ""},
		{"greeting", func(c *Controller) { c.Greeting() }, transport.TriggerGreeting, ""},
		{"addressed", func(c *Controller) { c.Address("Mochi", "hi Yui") }, "addressed by Mochi", "hi Yui"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, nil)
			tt.send(e.c)
			got := e.tr.lastSent()
			if got.Trigger != tt.trig || got.Text != tt.text {
				t.Fatalf("sent %q %q, want %q %q", got.Trigger, got.Text, tt.trig, tt.text)
			}
			if got.Character.Name != "Yui" || got.Character.Emotion != "neutral" {
				t.Fatalf("character = %+v", got.Character)
			}
			v := e.view()
			if !v.Running || v.Plate != "thinking" || v.Motion != "thinking" {
				t.Fatalf("after send: running %v plate %q motion %q", v.Running, v.Plate, v.Motion)
			}
			e.ev(render("t1", true, say("Hi.")))
			if v := e.view(); !v.Running || v.Plate != "thinking" || v.Motion == "thinking" {
				t.Fatalf("after first render: running %v plate %q motion %q", v.Running, v.Plate, v.Motion)
			}
			e.ev(end("t1", transport.TurnCompleted))
			if v := e.view(); v.Running || v.Plate != "" {
				t.Fatalf("after turn end: running %v plate %q", v.Running, v.Plate)
			}
		})
	}
}

func TestTypedAndSpokenTurnsStopSpeechFirstPokeDoesNot(t *testing.T) {
	tests := []struct {
		name string
		act  func(c *Controller)
		want []string
	}{
		{"typed", func(c *Controller) { c.SendText("next", nil) }, []string{"interrupt false", "send user message"}},
		{"spoken", func(c *Controller) { c.VoiceTurn("next") }, []string{"interrupt false", "send user voice"}},
		{"barge-in", func(c *Controller) { c.BargeIn() }, []string{"interrupt false"}},
		{"stop button", func(c *Controller) { c.Stop() }, []string{"interrupt true"}},
		{"poke", func(c *Controller) { c.Poke() }, []string{"send poke"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, func(o *Options) { o.Pack.FillerLines = nil })
			e.ev(render("b1", false, say("A report about the finished work.")))
			e.tr.takeCalls()
			tt.act(e.c)
			if got := e.tr.takeCalls(); !slices.Equal(got, tt.want) {
				t.Fatalf("calls = %q, want %q", got, tt.want)
			}
			stopped := tt.name != "poke"
			if got := e.c.SpeechOwed(); got == stopped {
				t.Fatalf("SpeechOwed = %v after %s", got, tt.name)
			}
		})
	}
}

func TestStopMidSentenceRecordsTheUnspokenTextForTheNextTurn(t *testing.T) {
	e := newEnv(t, nil)
	e.c.SendText("How did the tests go?", nil)
	e.ev(speechEv("t1", say("All green, every one of the tests passed.")))
	e.ev(render("t1", true, say("All green, every one of the tests passed."), say("Want the slow ones listed?")))
	e.clock.Advance(time.Second) // mid-sentence
	e.c.Stop()
	if v := e.view(); v.Running || v.Plate != "" {
		t.Fatalf("stop did not release at once: %+v", v)
	}
	want := transport.PlaybackRecord{TurnID: "t1", Outcome: transport.PlaybackInterrupted,
		Unspoken: "All green, every one of the tests passed. Want the slow ones listed?"}
	if got := e.c.LastPlayback(); got != want {
		t.Fatalf("record = %+v, want %+v", got, want)
	}
	e.ev(end("t1", transport.TurnStopped)) // the transport's stopped turn end
	e.c.SendText("Stop, thanks", nil)
	if got := e.tr.lastSent().Previous; got != want {
		t.Fatalf("Previous = %+v, want %+v", got, want)
	}
	// Reported once: the turn after carries the zero (complete) record.
	e.c.Poke()
	if got := e.tr.lastSent().Previous; got != (transport.PlaybackRecord{}) {
		t.Fatalf("second Previous = %+v", got)
	}
}

func TestFramesOfAStoppedTurnAlreadyInFlightAreDropped(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Pack.FillerLines = nil })
	e.c.SendText("question", nil)
	e.c.Stop()
	e.ev(render("t1", true, say("Late answer.")),
		&transport.ToolStatusEvent{TurnID: "t1", OwnTurn: true, State: "running", ToolID: "read_file"},
		&transport.ReasoningEvent{TurnID: "t1", Delta: "thinking..."})
	if v := e.view(); v.Bubble != "" || v.Pill.Tool != "" || v.Reasoning != "" {
		t.Fatalf("stopped turn's frames shown: %+v", v)
	}
	e.ev(end("t1", transport.TurnStopped))
	if e.c.SpeechOwed() {
		t.Fatal("stopped turn's render queued")
	}
}

func TestTurnEndArrivingBeforeSendReturns(t *testing.T) {
	e := newEnv(t, nil)
	e.tr.onSend = func(id string) {
		// Run handles the turn end while Send has not returned yet.
		e.ev(&transport.TurnEndEvent{TurnID: id, OwnTurn: true, Outcome: transport.TurnFailed, ErrorText: "not connected"})
	}
	e.c.SendText("hello", nil)
	v := e.view()
	if v.Running || v.ErrorLine != "not connected" || v.Motion == "thinking" {
		t.Fatalf("view = running %v error %q motion %q", v.Running, v.ErrorLine, v.Motion)
	}
	e.clock.Advance(speech.MaxReadingTime)
	if !e.sawBubble("I can't reach my thoughts right now.") {
		t.Fatal("no failure line")
	}
}

func TestFillerLineAndThinkingMotionUntilTheFirstRender(t *testing.T) {
	e := newEnv(t, nil)
	e.c.Poke()
	if v := e.view(); v.Bubble != "Hmm, let me think." || v.Motion != "thinking" {
		t.Fatalf("after send: bubble %q motion %q", v.Bubble, v.Motion)
	}
	e.clock.Advance(10 * time.Second) // filler played, still thinking
	if v := e.view(); v.Motion != "thinking" {
		t.Fatalf("motion = %q while waiting", v.Motion)
	}
	e.ev(render("t1", true, say("Ouch!", transport.Cue{EmotionID: "sad"})))
	if v := e.view(); v.Motion != "talk" || v.Emotion != "sad" || v.Bubble != "Ouch!" {
		t.Fatalf("after first render: %+v", v)
	}
}

func TestFailureLine(t *testing.T) {
	const line = "I can't reach my thoughts right now."
	tests := []struct {
		name    string
		render  bool
		outcome transport.TurnOutcome
		want    bool
	}{
		{"failure line on failure before first render", false, transport.TurnFailed, true},
		{"failure line on an error frame's failed turn end", true, transport.TurnFailed, true},
		{"no failure line on TurnStalled", false, transport.TurnStalled, false},
		{"no failure line on TurnStalled after the first render", true, transport.TurnStalled, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, func(o *Options) { o.Pack.FillerLines = nil })
			e.c.SendText("hello", nil)
			if tt.render {
				e.ev(render("t1", true, say("Partial.")))
			}
			e.ev(end("t1", tt.outcome))
			e.clock.Advance(speech.MaxReadingTime)
			if got := e.sawBubble(line); got != tt.want {
				t.Fatalf("failure line shown = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestErrorLineOfAFailedTypedTurn(t *testing.T) {
	tests := []struct {
		name      string
		send      func(c *Controller)
		errorText string
		wantLine  string
		wantVoice string
	}{
		{"server text", func(c *Controller) { c.SendText("hi", nil) }, "Provider returned 429: rate limit reached", "Provider returned 429: rate limit reached", ""},
		{"generic text", func(c *Controller) { c.SendText("hi", nil) }, "", GenericFailureText, ""},
		{"spoken turn shows it in the pill", func(c *Controller) { c.VoiceTurn("hi") }, "boom", "", "boom"},
		{"poke shows nothing", func(c *Controller) { c.Poke() }, "boom", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, nil)
			tt.send(e.c)
			e.ev(&transport.TurnEndEvent{TurnID: "t1", OwnTurn: true, Outcome: transport.TurnFailed, ErrorText: tt.errorText})
			v := e.view()
			if v.ErrorLine != tt.wantLine || v.Pill.Voice != tt.wantVoice {
				t.Fatalf("error line %q voice %q, want %q %q", v.ErrorLine, v.Pill.Voice, tt.wantLine, tt.wantVoice)
			}
			e.c.SendText("again", nil)
			if v := e.view(); v.ErrorLine != "" {
				t.Fatalf("error line not cleared by the next send: %q", v.ErrorLine)
			}
		})
	}
}

func TestPillConnectionText(t *testing.T) {
	tests := []struct {
		ev   transport.StateEvent
		want string
	}{
		{transport.StateEvent{State: transport.StateConnecting}, "connecting"},
		{transport.StateEvent{State: transport.StateReady}, "ready"},
		{transport.StateEvent{State: transport.StateReconnecting, RetryIn: 4 * time.Second}, "reconnecting in 4 s"},
		{transport.StateEvent{State: transport.StateRateLimited, RetryIn: 12 * time.Second}, "rate limited: retrying in 12 s"},
		{transport.StateEvent{State: transport.StateKeyRejected, CloseCode: 4401}, "key rejected"},
		{transport.StateEvent{State: transport.StateOffline, Err: errors.New("dial tcp: refused")}, OfflineText},
		{transport.StateEvent{State: transport.StateInvalid, Err: errors.New("chat_base_url: unsupported scheme \"ftp\"")}, "chat_base_url: unsupported scheme \"ftp\""},
		{transport.StateEvent{State: transport.StateInvalid}, "invalid settings"},
		{transport.StateEvent{State: transport.StateReady, AutoModel: "m"}, "ready · model m"},
		{transport.StateEvent{State: transport.StateReady, AutoModel: "qwen3:8b", Server: "Ollama", Model: "qwen3:8b"}, "ready · Ollama · qwen3:8b"},
		{transport.StateEvent{State: transport.StateOffline, Err: &transport.NoModelError{Info: transport.ServerInfo{Name: "Ollama", NoModelHint: "run: ollama pull qwen3:4b"}}},
			"Ollama has no model · run: ollama pull qwen3:4b"},
		{transport.StateEvent{State: transport.StateKeyRejected, Err: &transport.KeyNeededError{Info: transport.ServerInfo{Name: "Jan", KeyHint: "paste Jan's API key (Jan → Settings → Local API Server) into the preset's key"}}},
			"Jan needs its API key · paste Jan's API key (Jan → Settings → Local API Server) into the preset's key"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			e := newEnv(t, nil)
			ev := tt.ev
			e.ev(&ev)
			if v := e.view(); v.Pill.Conn != tt.want || v.Pill.ConnState != tt.ev.State {
				t.Fatalf("pill = %+v, want %q", v.Pill, tt.want)
			}
		})
	}
}

func TestReconnectingCountsDownEachSecond(t *testing.T) {
	e := newEnv(t, nil)
	e.ev(&transport.StateEvent{State: transport.StateReconnecting, RetryIn: 4 * time.Second, RetryAt: e.clock.Now().Add(4 * time.Second)})
	for _, want := range []string{"reconnecting in 4 s", "reconnecting in 3 s", "reconnecting in 2 s", "reconnecting in 1 s"} {
		if got := e.view().Pill.Conn; got != want {
			t.Fatalf("pill = %q, want %q", got, want)
		}
		e.clock.Advance(time.Second)
	}
	e.ev(&transport.StateEvent{State: transport.StateConnecting})
	if got := e.view().Pill.Conn; got != "connecting" {
		t.Fatalf("pill = %q", got)
	}
	if n := e.clock.Pending(); n != 0 {
		t.Fatalf("%d timers left after the countdown", n)
	}
}

// A request transport probing again while offline: the pill counts down
// to the next probe, the reason first.
func TestOfflineCountsDownToTheNextProbe(t *testing.T) {
	e := newEnv(t, nil)
	e.ev(&transport.StateEvent{State: transport.StateOffline, Err: errors.New("refused"), RetryIn: 2 * time.Second, RetryAt: e.clock.Now().Add(2 * time.Second)})
	for _, want := range []string{"offline · retrying in 2 s", "offline · retrying in 1 s", "offline · retrying"} {
		if got := e.view().Pill.Conn; got != want {
			t.Fatalf("pill = %q, want %q", got, want)
		}
		e.clock.Advance(time.Second)
	}
	// A server with no model: its hint, which is what to do, stays.
	nm := &transport.NoModelError{Info: transport.ServerInfo{Name: "Ollama", NoModelHint: "run: ollama pull qwen3:4b"}}
	e.ev(&transport.StateEvent{State: transport.StateOffline, Err: nm, RetryAt: e.clock.Now().Add(time.Second)})
	if got := e.view().Pill.Conn; got != "Ollama has no model · run: ollama pull qwen3:4b" {
		t.Fatalf("pill = %q", got)
	}
	if n := e.clock.Pending(); n != 0 {
		t.Fatalf("%d timers left", n)
	}
}

func TestToolSegment(t *testing.T) {
	running := func(turn string, own bool) *transport.ToolStatusEvent {
		return &transport.ToolStatusEvent{TurnID: turn, OwnTurn: own, State: "running", ToolID: "read_file"}
	}
	tests := []struct {
		name  string
		steps func(e *env)
		want  string
	}{
		{"running", func(e *env) { e.ev(running("t1", true)) }, "read_file running"},
		{"done held 1.5 s", func(e *env) {
			e.ev(running("t1", true), &transport.ToolStatusEvent{TurnID: "t1", OwnTurn: true, State: "done", ToolID: "read_file"})
			e.clock.Advance(ToolHold - time.Millisecond)
		}, "read_file done"},
		{"done clears after 1.5 s", func(e *env) {
			e.ev(&transport.ToolStatusEvent{TurnID: "t1", OwnTurn: true, State: "done", ToolID: "read_file"})
			e.clock.Advance(ToolHold)
		}, ""},
		{"failed held 1.5 s through the turn end", func(e *env) {
			e.ev(&transport.ToolStatusEvent{TurnID: "t1", OwnTurn: true, State: "failed", ToolID: "read_file"}, end("t1", transport.TurnCompleted))
			e.clock.Advance(time.Second)
		}, "read_file failed"},
		{"running cleared by the turn end", func(e *env) {
			e.ev(running("t1", true), end("t1", transport.TurnCompleted))
		}, ""},
		{"running cleared by the socket leaving ready", func(e *env) {
			e.ev(&transport.StateEvent{State: transport.StateReady}, running("t1", true),
				&transport.StateEvent{State: transport.StateReconnecting, RetryIn: time.Second})
		}, ""},
		{"a turn the client did not send shows the segment too", func(e *env) { e.ev(running("b1", false)) }, "read_file running"},
		{"a new running replaces a held done", func(e *env) {
			e.ev(&transport.ToolStatusEvent{TurnID: "t1", OwnTurn: true, State: "done", ToolID: "read_file"},
				&transport.ToolStatusEvent{TurnID: "t1", OwnTurn: true, State: "running", ToolID: "grep"})
			e.clock.Advance(2 * ToolHold)
		}, "grep running"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, nil)
			e.c.SendText("hi", nil)
			tt.steps(e)
			if got := e.view().Pill.Tool; got != tt.want {
				t.Fatalf("tool = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDelegationsExpireThirtyMinutesAfterEndedAt(t *testing.T) {
	e := newEnv(t, nil)
	now := e.clock.Now()
	items := []transport.Delegation{
		{ID: "d1", Title: "Sort tests", StartedAt: now.Add(-time.Hour).UnixMilli(), State: "running"},
		{ID: "d2", Title: "Check logs", StartedAt: now.Add(-time.Hour).UnixMilli(), State: "done",
			EndedAt: now.Add(-29 * time.Minute).UnixMilli(), Status: "ok"},
	}
	e.ev(&transport.DelegationsEvent{Items: items, History: items})
	items[0].Title = "mutated by the sender"
	v := e.view()
	if len(v.Delegations) != 2 || v.Delegations[0].Title != "Sort tests" {
		t.Fatalf("delegations = %+v", v.Delegations)
	}
	e.clock.Advance(time.Minute)
	v = e.view()
	if len(v.Delegations) != 1 || v.Delegations[0].ID != "d1" || len(v.History) != 2 {
		t.Fatalf("after expiry: items %+v history %d", v.Delegations, len(v.History))
	}
}

func TestUsageReadout(t *testing.T) {
	e := newEnv(t, nil)
	if e.view().Usage != nil {
		t.Fatal("usage before the first")
	}
	e.c.SendText("hi", nil)
	e.ev(&transport.TurnEndEvent{TurnID: "t1", OwnTurn: true, Usage: &transport.Usage{InputTokens: 1200, OutputTokens: 80, TotalTokens: 1280}})
	if u := e.view().Usage; u == nil || u.TotalTokens != 1280 {
		t.Fatalf("usage = %+v", u)
	}
	e.ev(&transport.UsageEvent{TurnID: "t2", Usage: transport.Usage{TotalTokens: 99}})
	if u := e.view().Usage; u.TotalTokens != 99 {
		t.Fatalf("usage = %+v", u)
	}
}

func TestReasoning(t *testing.T) {
	str := func(s string) *string { return &s }
	tests := []struct {
		name   string
		events []transport.Event
		want   string
	}{
		{"live deltas", []transport.Event{
			&transport.ReasoningEvent{TurnID: "t1", Delta: "The log "},
			&transport.ReasoningEvent{TurnID: "t1", Delta: "is first."},
		}, "The log is first."},
		{"the render's reasoning replaces it", []transport.Event{
			&transport.ReasoningEvent{TurnID: "t1", Delta: "The lo"},
			&transport.RenderEvent{Kind: transport.KindRender, TurnID: "t1", OwnTurn: true, Reasoning: str("The log is the first place to look.")},
		}, "The log is the first place to look."},
		{"another turn's render reasoning is not shown while one streams", []transport.Event{
			&transport.ReasoningEvent{TurnID: "t1", Delta: "Streaming"},
			&transport.RenderEvent{Kind: transport.KindRender, TurnID: "b1", Reasoning: str("Report reasoning")},
		}, "Streaming"},
		{"a turn end ends reasoning still streaming", []transport.Event{
			&transport.ReasoningEvent{TurnID: "t1", Delta: "Streaming"},
			end("t1", transport.TurnCompleted),
		}, ""},
		{"a text a render finished stays after the turn end", []transport.Event{
			&transport.ReasoningEvent{TurnID: "t1", Delta: "Stream"},
			&transport.RenderEvent{Kind: transport.KindRender, TurnID: "t1", OwnTurn: true, Reasoning: str("Whole.")},
			end("t1", transport.TurnCompleted),
		}, "Whole."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, nil)
			e.c.SendText("hi", nil)
			e.ev(tt.events...)
			if got := e.view().Reasoning; got != tt.want {
				t.Fatalf("reasoning = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCuesSetEmotionMotionBadgeAndCaption(t *testing.T) {
	e := newEnv(t, nil)
	e.ev(render("b1", false, say("", transport.Cue{EmotionID: "happy", MotionID: "wave", EmotionText: "😆", Caption: "yay"})))
	v := e.view()
	if v.Emotion != "happy" || v.Motion != "wave" || v.EmotionText != "😆" || v.Caption != "yay" {
		t.Fatalf("after cue: %+v", v)
	}
	e.clock.Advance(time.Second) // wave: 4 frames at 4 fps, not looping
	if v := e.view(); v.Motion != "idle" || v.Emotion != "happy" {
		t.Fatalf("after the non-looping motion: motion %q emotion %q", v.Motion, v.Emotion)
	}
	e.ev(render("b2", false, say("Talking now.")))
	if v := e.view(); v.Motion != "talk" {
		t.Fatalf("motion while speaking = %q", v.Motion)
	}
	e.ev(render("b3", false, say("", transport.Cue{MotionID: "sit"})))
	e.clock.Advance(speech.MaxReadingTime)
	if v := e.view(); v.Motion != "sit" {
		t.Fatalf("looping cue motion = %q, want sit held", v.Motion)
	}
}

func TestLoopingCueMotionSettlesToIdleWhenTheReplyIsOver(t *testing.T) {
	e := newEnv(t, nil)
	e.ev(render("b1", false, say("Whoa, falling!", transport.Cue{MotionID: "fall"})))
	if v := e.view(); v.Motion != "fall" {
		t.Fatalf("motion = %q, want fall", v.Motion)
	}
	e.clock.Advance(speech.ReadingTime("Whoa, falling!") + time.Second)
	if v := e.view(); v.Motion != "fall" || v.Bubble == "" {
		t.Fatalf("while the bubble is held: motion %q bubble %q", v.Motion, v.Bubble)
	}
	e.clock.Advance(DefaultBubbleHold)
	if v := e.view(); v.Motion != "idle" || v.Bubble != "" {
		t.Fatalf("after the reply: motion %q bubble %q, want idle and no bubble", v.Motion, v.Bubble)
	}
}

func TestCueDuringAnotherTurnsThinkingLandsWhenThinkingEnds(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Pack.FillerLines = nil })
	e.c.SendText("hi", nil)
	e.ev(render("b1", false, say("", transport.Cue{EmotionID: "sad"})))
	if v := e.view(); v.Emotion != "neutral" || v.Motion != "thinking" {
		t.Fatalf("cue landed during thinking: %+v", v)
	}
	e.ev(render("t1", true, say("", transport.Cue{EmotionID: "happy"})))
	if v := e.view(); v.Emotion != "happy" {
		t.Fatalf("emotion = %q, want b1's sad then t1's happy", v.Emotion)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if !slices.ContainsFunc(e.views, func(v View) bool { return v.Emotion == "sad" }) {
		t.Fatal("b1's cue never landed")
	}
}

func TestBubbleIsKeptBubbleHoldAfterPlayback(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.BubbleHold = 2 * time.Second })
	e.ev(render("b1", false, say("All green.")))
	if v := e.view(); v.Bubble != "All green." || v.Motion != "talk" {
		t.Fatalf("while speaking: %+v", v)
	}
	e.clock.Advance(speech.MinReadingTime)
	if v := e.view(); v.Bubble != "All green." || v.Motion != "idle" {
		t.Fatalf("just after playback: bubble %q motion %q", v.Bubble, v.Motion)
	}
	e.clock.Advance(2 * time.Second)
	if v := e.view(); v.Bubble != "" {
		t.Fatalf("bubble %q after the hold", v.Bubble)
	}
}

func TestRenderAfterSpeechFramesDoesNotRepeatSentences(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Pack.FillerLines = nil })
	e.c.SendText("tests?", nil)
	e.ev(speechEv("t1", say("All green.")))
	e.ev(render("t1", true, say("All green."), say("Want the slow ones listed?")))
	var bubbles []string
	for range 5 {
		if b := e.view().Bubble; b != "" && (len(bubbles) == 0 || bubbles[len(bubbles)-1] != b) {
			bubbles = append(bubbles, b)
		}
		e.clock.Advance(speech.MinReadingTime)
	}
	if want := []string{"All green.", "Want the slow ones listed?"}; !slices.Equal(bubbles, want) {
		t.Fatalf("bubbles = %q, want %q", bubbles, want)
	}
}

// brokenEngine fails every sentence: no audio device.
func (brokenEngine) Close() error { return nil }

type brokenEngine struct{}

func (brokenEngine) Prepare(context.Context, string) (speech.Clip, error) {
	return nil, errors.New("audio: no device")
}

func TestFailedPlaybackIsReportedAndCarriedToTheNextTurn(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Speech = brokenEngine{}; o.Pack.FillerLines = nil })
	e.c.SendText("hi", nil)
	e.ev(render("t1", true, say("Hello.")), end("t1", transport.TurnCompleted))
	if v := e.view(); v.Bubble != "Hello." {
		t.Fatalf("bubble = %q: a failed sentence still shows, paced by reading", v.Bubble)
	}
	e.tr.takeCalls()
	e.clock.Advance(speech.MinReadingTime)
	if got := e.tr.takeCalls(); !slices.Equal(got, []string{"failed t1"}) {
		t.Fatalf("calls = %q", got)
	}
	e.c.Poke()
	want := transport.PlaybackRecord{TurnID: "t1", Outcome: transport.PlaybackFailed, Reason: "audio: no device"}
	if got := e.tr.lastSent().Previous; got != want {
		t.Fatalf("Previous = %+v, want %+v", got, want)
	}
}

func TestOnChangeGetsFreshCopies(t *testing.T) {
	e := newEnv(t, nil)
	items := []transport.Delegation{{ID: "d1", State: "running"}}
	e.ev(&transport.DelegationsEvent{Items: items})
	e.ev(&transport.UsageEvent{Usage: transport.Usage{TotalTokens: 1}})
	e.mu.Lock()
	first := e.views[len(e.views)-1]
	e.mu.Unlock()
	first.Delegations[0].Title = "mutated"
	first.Usage.TotalTokens = 42
	v := e.view()
	if v.Delegations[0].Title != "" || v.Usage.TotalTokens != 1 {
		t.Fatalf("a published view shares memory with the controller: %+v", v)
	}
}

func TestRunConsumesEventsUntilClose(t *testing.T) {
	tr := newFakeTransport()
	changed := make(chan View, 64)
	c := New(Options{Transport: tr, Pack: testPack(), Clock: clocktest.NewFake(time.Time{}),
		OnChange: func(v View) { changed <- v }})
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.Run()
	}()
	tr.events <- &transport.StateEvent{State: transport.StateConnecting}
	for v := range changed {
		if v.Pill.Conn == "connecting" {
			break
		}
	}
	c.Close()
	<-done
	c.Close() // idempotent
}

func TestOnChangeMayCallAnAction(t *testing.T) {
	var c *Controller
	stopped := false
	tr := newFakeTransport()
	c = New(Options{Transport: tr, Pack: testPack(), Clock: clocktest.NewFake(time.Time{}),
		OnChange: func(v View) {
			if v.Bubble == "Stop me." && !stopped {
				stopped = true
				c.Stop() // would deadlock if views were published under the event lock
			}
		}})
	defer c.Close()
	c.handle(render("b1", false, say("Stop me."), say("Never said.")))
	if !stopped || c.SpeechOwed() {
		t.Fatalf("stopped %v, owed %v", stopped, c.SpeechOwed())
	}
	if rec := c.LastPlayback(); rec.Unspoken != "Stop me. Never said." {
		t.Fatalf("record = %+v", rec)
	}
}

// The pet window's PetActions (windows/petwindow/pet.go) is met by the controller.
var _ interface {
	SendText(text string, attachments []transport.Image)
	Poke()
	Stop()
	Busy() bool
} = (*Controller)(nil)

// Busy holds from the moment the turn is handed to the transport, before
// the view that shows it running is published, until the stop.
func TestBusyFromTheSendOnBeforeTheView(t *testing.T) {
	e := newEnv(t, nil)
	if e.c.Busy() {
		t.Fatal("busy before any turn")
	}
	var during bool
	var viewDuring View
	e.tr.onSend = func(string) { during, viewDuring = e.c.Busy(), e.c.View() }
	e.c.SendText("hello", nil)
	if !during || viewDuring.Running {
		t.Fatalf("inside Send: busy %v, view running %v; want busy before the view says so", during, viewDuring.Running)
	}
	if !e.c.Busy() || !e.view().Running {
		t.Fatalf("after SendText: busy %v, view %+v", e.c.Busy(), e.view())
	}
	e.c.Stop()
	if e.c.Busy() {
		t.Fatal("busy after the stop")
	}
}

func TestFillerLineIsSpokenUntilTheFirstRenderOfTheTurn(t *testing.T) {
	tests := []struct {
		name  string
		first *transport.RenderEvent
		want  string
	}{
		{"render", render("t1", true, say("Found it.")), "Found it."},
		{"speech frame", speechEv("t1", say("Found it.")), "Found it."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, nil)
			e.c.SendText("where is it?", nil)
			if v := e.view(); v.Bubble != "Hmm, let me think." || v.Motion != "thinking" {
				t.Fatalf("after send: bubble %q motion %q", v.Bubble, v.Motion)
			}
			e.clock.Advance(100 * time.Millisecond) // the filler is mid-sentence
			e.ev(tt.first)
			if v := e.view(); v.Bubble != tt.want || v.Motion != "talk" || !v.Running || v.Plate != "thinking" {
				t.Fatalf("after the first render: bubble %q motion %q running %v plate %q", v.Bubble, v.Motion, v.Running, v.Plate)
			}
		})
	}
}

func TestFillerLineAndThinkingMotionEndWithATurnEndThatHadNoRender(t *testing.T) {
	e := newEnv(t, nil)
	e.c.Poke()
	e.ev(end("t1", transport.TurnCompleted)) // a turn with nothing to render
	v := e.view()
	if v.Motion != "idle" || v.Running || v.Plate != "" {
		t.Fatalf("after turn end: motion %q running %v plate %q", v.Motion, v.Running, v.Plate)
	}
	if e.c.SpeechOwed() {
		t.Fatal("the filler line still plays after the turn ended")
	}
}

func TestFailureLineOnlyForATurnTheClientSentThatFailed(t *testing.T) {
	const line = "I can't reach my thoughts right now."
	tests := []struct {
		name string
		ev   *transport.TurnEndEvent
		want bool
	}{
		{"failed before the first render", &transport.TurnEndEvent{TurnID: "t1", OwnTurn: true, Outcome: transport.TurnFailed}, true},
		{"failed on its turn_end after an error frame", &transport.TurnEndEvent{TurnID: "t1", OwnTurn: true, Outcome: transport.TurnFailed, ErrorText: "Provider returned 429: rate limit reached"}, true},
		{"stalled", &transport.TurnEndEvent{TurnID: "t1", OwnTurn: true, Outcome: transport.TurnStalled}, false},
		{"stopped", &transport.TurnEndEvent{TurnID: "t1", OwnTurn: true, Outcome: transport.TurnStopped}, false},
		{"completed", &transport.TurnEndEvent{TurnID: "t1", OwnTurn: true, Outcome: transport.TurnCompleted}, false},
		{"a turn the client did not send", &transport.TurnEndEvent{TurnID: "b1", Outcome: transport.TurnFailed, ErrorText: "boom"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, nil)
			e.c.SendText("hello", nil)
			e.ev(tt.ev)
			e.clock.Advance(speech.MaxReadingTime)
			if got := e.sawBubble(line); got != tt.want {
				t.Fatalf("failure line shown = %v, want %v", got, tt.want)
			}
			if tt.ev.TurnID == "b1" {
				if v := e.view(); v.ErrorLine != "" || v.Pill.Voice != "" {
					t.Fatalf("a turn the client did not send showed its error: %+v", v)
				}
			}
		})
	}
}

func TestErrorMessageShowsAsOneLineCutAt200Characters(t *testing.T) {
	long := "Provider returned 500:\n" + strings.Repeat("é", 300)
	want := "Provider returned 500: " + strings.Repeat("é", 200-len([]rune("Provider returned 500: ")))
	tests := []struct {
		name  string
		send  func(c *Controller)
		field func(v View) string
	}{
		{"typed turn: the input's error line", func(c *Controller) { c.SendText("hi", nil) }, func(v View) string { return v.ErrorLine }},
		{"spoken turn: the status pill", func(c *Controller) { c.VoiceTurn("hi") }, func(v View) string { return v.Pill.Voice }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, nil)
			tt.send(e.c)
			e.ev(&transport.TurnEndEvent{TurnID: "t1", OwnTurn: true, Outcome: transport.TurnFailed, ErrorText: long})
			if got := tt.field(e.view()); got != want {
				t.Fatalf("shown %q (%d characters), want %q", got, len([]rune(got)), want)
			}
			v := e.view()
			if v.ErrorLine != "" && v.Pill.Voice != "" {
				t.Fatalf("shown in both places: %+v", v)
			}
		})
	}
}

func TestPillSaysTheBackendCannotBeReachedWhenOffline(t *testing.T) {
	e := newEnv(t, nil)
	e.ev(&transport.StateEvent{State: transport.StateOffline, Err: errors.New("dial tcp 127.0.0.1:11434: connect: connection refused")})
	got := e.view().Pill.Conn
	if !strings.HasPrefix(got, "offline") || !strings.Contains(got, "cannot be reached") {
		t.Fatalf("pill = %q", got)
	}
}

func TestFramesOfATurnArrivingBeforeSendReturnsPlayAfterTheTurnStarts(t *testing.T) {
	e := newEnv(t, nil)
	e.tr.onSend = func(id string) {
		// A fast backend: Run handles the reply while Send has not returned.
		e.ev(&transport.ToolStatusEvent{TurnID: id, OwnTurn: true, State: "running", ToolID: "read_file"},
			render(id, true, say("Quick answer.", transport.Cue{EmotionID: "happy"})))
	}
	e.c.SendText("hello", nil)
	v := e.view()
	if v.Motion == "thinking" || v.Bubble != "Quick answer." || v.Emotion != "happy" || !v.Running || v.Pill.Tool != "read_file running" {
		t.Fatalf("view = motion %q bubble %q emotion %q running %v tool %q", v.Motion, v.Bubble, v.Emotion, v.Running, v.Pill.Tool)
	}
	e.ev(end("t1", transport.TurnCompleted))
	if v := e.view(); v.Running || v.Pill.Tool != "" {
		t.Fatalf("after turn end: running %v tool %q", v.Running, v.Pill.Tool)
	}
}

func TestLateRenderAfterTheWaitEndedTheTurnStillPlays(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Pack.FillerLines = nil; o.Pack.FailureLines = nil })
	e.c.SendText("hello", nil)
	e.ev(speechEv("t1", say("First.")), end("t1", transport.TurnStalled))
	e.clock.Advance(speech.MaxReadingTime)
	e.ev(render("t1", true, say("Late.")))
	if v := e.view(); v.Bubble != "Late." || v.Running {
		t.Fatalf("late render: bubble %q running %v", v.Bubble, v.Running)
	}
}

func TestToolStatusOfATurnTheClientDidNotSendSpeaksNoToolPhrase(t *testing.T) {
	e := newEnv(t, nil)
	e.ev(&transport.ToolStatusEvent{TurnID: "b1", State: "running", ToolID: "read_file"})
	v := e.view()
	if v.Pill.Tool != "read_file running" || v.Bubble != "" || e.c.SpeechOwed() || v.Running || v.Motion != "idle" {
		t.Fatalf("view = %+v, owed %v", v, e.c.SpeechOwed())
	}
}

func TestToolStatusLeavesRunningThinkingAndSpeechAsTheyAre(t *testing.T) {
	e := newEnv(t, nil)
	e.c.SendText("hi", nil)
	before := e.view()
	e.ev(&transport.ToolStatusEvent{TurnID: "t1", OwnTurn: true, State: "running", ToolID: "read_file"})
	v := e.view()
	if v.Running != before.Running || v.Motion != "thinking" || v.Bubble != before.Bubble || v.Plate != "thinking" {
		t.Fatalf("tool_status changed the turn: before %+v after %+v", before, v)
	}
}

func TestReasoningOfAStoppedTurn(t *testing.T) {
	str := func(s string) *string { return &s }
	tests := []struct {
		name   string
		after  []transport.Event // after the stop
		middle string            // reasoning right after the stop
		want   string
	}{
		{"its turn_end ends reasoning still showing", []transport.Event{
			&transport.ReasoningEvent{TurnID: "t1", Delta: " dropped"},
			end("t1", transport.TurnStopped),
		}, "Streaming", ""},
		{"a dropped render abandons the reasoning still streaming", []transport.Event{
			&transport.RenderEvent{Kind: transport.KindRender, TurnID: "t1", OwnTurn: true, Reasoning: str("Whole text.")},
		}, "Streaming", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, nil)
			e.c.SendText("hi", nil)
			e.ev(&transport.ReasoningEvent{TurnID: "t1", Delta: "Streaming"})
			e.c.Stop()
			if got := e.view().Reasoning; got != tt.middle {
				t.Fatalf("after stop: reasoning %q, want %q", got, tt.middle)
			}
			e.ev(tt.after...)
			if got := e.view().Reasoning; got != tt.want {
				t.Fatalf("reasoning = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTextAnEarlierRenderFinishedStaysWhenTheTurnIsStopped(t *testing.T) {
	str := func(s string) *string { return &s }
	e := newEnv(t, nil)
	e.c.SendText("hi", nil)
	e.ev(&transport.RenderEvent{Kind: transport.KindSpeech, TurnID: "t1", OwnTurn: true, Reasoning: str("Finished."), Segments: []transport.Segment{say("One.")}})
	e.c.Stop()
	e.ev(render("t1", true, say("Dropped.")), end("t1", transport.TurnStopped))
	if got := e.view().Reasoning; got != "Finished." {
		t.Fatalf("reasoning = %q", got)
	}
}

func TestDeterministicUnderTheFakeClock(t *testing.T) {
	run := func() []View {
		e := newEnv(t, nil)
		e.c.SendText("How did the tests go?", nil)
		e.ev(&transport.ToolStatusEvent{TurnID: "t1", OwnTurn: true, State: "running", ToolID: "go_test"},
			&transport.ToolStatusEvent{TurnID: "t1", OwnTurn: true, State: "done", ToolID: "go_test"},
			speechEv("t1", say("All green.", transport.Cue{EmotionID: "happy", MotionID: "wave"})),
			render("t1", true, say("All green."), say("", transport.Cue{EmotionID: "curious", Caption: "?"}), say("Want the slow ones listed?")),
			end("t1", transport.TurnCompleted))
		for range 20 {
			e.clock.Advance(500 * time.Millisecond)
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		return slices.Clone(e.views)
	}
	first := run()
	for range 3 {
		if again := run(); !reflect.DeepEqual(first, again) {
			t.Fatalf("views differ between runs:\n%+v\n%+v", first, again)
		}
	}
	if n := len(first); n < 5 || first[n-1].Bubble != "" || first[n-1].Motion != "idle" || first[n-1].Pill.Tool != "" {
		t.Fatalf("final view = %+v", first[len(first)-1])
	}
}

func TestCloseLeavesNoGoroutineOrTimerBehind(t *testing.T) {
	before := runtime.NumGoroutine()
	tr := newFakeTransport()
	clk := clocktest.NewFake(time.Time{})
	eng := blockingEngine{release: make(chan struct{})}
	toolShown := make(chan struct{})
	var once sync.Once
	c := New(Options{Transport: tr, Pack: testPack(), Clock: clk, Speech: eng, OnChange: func(v View) {
		if v.Pill.Tool != "" {
			once.Do(func() { close(toolShown) })
		}
	}})
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.Run()
	}()
	// A clip playing on the queue's goroutine and a tool segment held on a timer.
	tr.events <- render("b1", false, say("A sentence on a goroutine of its own."))
	tr.events <- &transport.ToolStatusEvent{TurnID: "b1", State: "done", ToolID: "read_file"}
	<-toolShown
	c.Close()
	<-done
	if n := clk.Pending(); n != 0 {
		t.Fatalf("%d timers left after Close", n)
	}
	for i := 0; runtime.NumGoroutine() > before; i++ {
		if i > 100000 {
			t.Fatalf("goroutines: %d before, %d after Close", before, runtime.NumGoroutine())
		}
		runtime.Gosched()
	}
}

// blockingEngine's clips only play through the blocking Play, on a
// goroutine the playback queue owns.
func (blockingEngine) Close() error { return nil }

type blockingEngine struct{ release chan struct{} }

func (e blockingEngine) Prepare(context.Context, string) (speech.Clip, error) { return e, nil }

func (e blockingEngine) Play(ctx context.Context) error {
	select {
	case <-e.release:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func TestTypedAndSpokenTurnsCarryTheScreenshotTheHookGives(t *testing.T) {
	var asked []transport.Trigger
	e := newEnv(t, func(o *Options) {
		o.Screenshot = func(tr transport.Trigger) *transport.Screenshot {
			asked = append(asked, tr)
			if tr == transport.TriggerUserVoice {
				return nil
			}
			return &transport.Screenshot{Display: 1, Displays: 1, Width: 4, Height: 3}
		}
	})
	e.c.SendText("what is on my screen?", nil)
	if s := e.tr.lastSent().Screenshot; s == nil || s.Width != 4 {
		t.Fatalf("typed turn screenshot = %+v, want the hook's", s)
	}
	e.c.VoiceTurn("and now?")
	if s := e.tr.lastSent().Screenshot; s != nil {
		t.Fatalf("spoken turn screenshot = %+v, want none (the hook said nil)", s)
	}
	e.c.Poke()
	if s := e.tr.lastSent().Screenshot; s != nil {
		t.Fatalf("poke screenshot = %+v, want none", s)
	}
	if len(asked) != 2 || asked[0] != transport.TriggerUserMessage || asked[1] != transport.TriggerUserVoice {
		t.Fatalf("hook asked for %v, want the typed and the spoken turn only", asked)
	}
}

func TestToolStatusOfAToolTheClientRunsShowsInThePill(t *testing.T) {
	e := newEnv(t, nil)
	e.c.SendText("read example.com", nil)
	e.c.ToolStatus("t1", "browser", "running")
	if got := e.view().Pill.Tool; got != "browser running" {
		t.Fatalf("pill tool = %q, want browser running", got)
	}
	e.c.ToolStatus("t1", "browser", "done")
	if got := e.view().Pill.Tool; got != "browser done" {
		t.Fatalf("pill tool = %q, want browser done", got)
	}
}
