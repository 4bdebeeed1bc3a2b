package playback

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"yui/pet/speech"
	"yui/transport"
	"yui/transport/clock"
	"yui/transport/clock/clocktest"
)

// Every sentence used below is short enough to last speech.MinReadingTime
// (1.2 s) on the "none" engine.
const sentence = speech.MinReadingTime

// harness drives a Queue on a fake clock and logs its effects as strings:
// "cue <turn> <emotion>", "say <turn> <text>", "idle", "think on|off",
// "failed <turn>".
type harness struct {
	t     *testing.T
	q     *Queue
	clock *clocktest.Fake

	mu  sync.Mutex
	log []string
}

func newHarness(t *testing.T, opts Options) *harness {
	t.Helper()
	h := &harness{t: t, clock: clocktest.NewFake(time.Date(2026, 9, 14, 15, 4, 14, 0, time.UTC))}
	opts.Clock = h.clock
	st, _ := opts.Stage.(*stageFuncs) // a test's own SpeechFailed stays
	if st == nil {
		st = &stageFuncs{}
	}
	opts.Stage = st
	st.cue = func(turn string, c transport.Cue) { h.add("cue %s %s", turn, c.EmotionID) }
	st.speech = func(turn, text string) {
		if text == "" {
			h.add("idle")
			return
		}
		h.add("say %s %s", turn, text)
	}
	st.thinking = func(on bool) {
		if on {
			h.add("think on")
		} else {
			h.add("think off")
		}
	}
	opts.ReportFailed = func(turn string) { h.add("failed %s", turn) }
	if opts.Rand == nil {
		opts.Rand = func(n int) int { return n - 1 }
	}
	h.q = New(opts)
	t.Cleanup(h.q.Close)
	return h
}

// stageFuncs is a Stage of functions; a nil one ignores its effect.
type stageFuncs struct {
	cue      func(turnID string, cue transport.Cue)
	speech   func(turnID, text string)
	thinking func(on bool)
	failed   func(reason string)
}

func (s *stageFuncs) Cue(turnID string, cue transport.Cue) {
	if s.cue != nil {
		s.cue(turnID, cue)
	}
}

func (s *stageFuncs) Speech(turnID, text string) {
	if s.speech != nil {
		s.speech(turnID, text)
	}
}

func (s *stageFuncs) Thinking(on bool) {
	if s.thinking != nil {
		s.thinking(on)
	}
}

func (s *stageFuncs) SpeechFailed(reason string) {
	if s.failed != nil {
		s.failed(reason)
	}
}

func (h *harness) add(format string, args ...any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.log = append(h.log, fmt.Sprintf(format, args...))
}

// take returns the effects logged since the last take.
func (h *harness) take() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	l := h.log
	h.log = nil
	return l
}

// expect checks the effects logged since the last take.
func (h *harness) expect(step string, want ...string) {
	h.t.Helper()
	got := h.take()
	if !slices.Equal(got, want) {
		h.t.Fatalf("%s:\n got  %q\n want %q", step, got, want)
	}
}

func seg(emotion, speech string) transport.Segment {
	s := transport.Segment{Speech: speech}
	if emotion != "" {
		s.Cues = []transport.Cue{{EmotionID: emotion}}
	}
	return s
}

func speechFrame(turn string, segs ...transport.Segment) *transport.RenderEvent {
	return &transport.RenderEvent{Kind: transport.KindSpeech, TurnID: turn, Segments: segs, OwnTurn: true}
}

func renderFrame(turn string, segs ...transport.Segment) *transport.RenderEvent {
	return &transport.RenderEvent{Kind: transport.KindRender, TurnID: turn, Segments: segs, OwnTurn: true}
}

func TestSegmentCuesRenderFirstThenSpeech(t *testing.T) {
	h := newHarness(t, Options{})
	h.q.Render(renderFrame("t1", seg("happy", "All green."), seg("curious", "Want the slow ones listed?")))
	h.expect("render", "cue t1 happy", "say t1 All green.")
	h.clock.Advance(sentence)
	h.expect("first sentence ends", "cue t1 curious", "say t1 Want the slow ones listed?")
	h.clock.Advance(speech.ReadingTime("Want the slow ones listed?"))
	h.expect("second sentence ends", "idle")
	if h.q.Owed() {
		t.Fatal("Owed after playback ended")
	}
}

func TestSilentSpeechIsSilence(t *testing.T) {
	for _, speechText := range []string{"", "[SILENT]", "  [SILENT] "} {
		t.Run(fmt.Sprintf("%q", speechText), func(t *testing.T) {
			h := newHarness(t, Options{})
			h.q.Render(renderFrame("t1", seg("sad", speechText)))
			h.expect("silent render", "cue t1 sad")
			if h.q.Owed() {
				t.Fatal("a silent render owes speech")
			}
			if rec := h.q.LastRecord(); rec.TurnID != "t1" || rec.Outcome != transport.PlaybackComplete {
				t.Fatalf("record = %+v, want complete t1", rec)
			}
		})
	}
}

func TestCueOnSilentSegment(t *testing.T) {
	tests := []struct {
		name  string
		setup func(h *harness)
		// after the silent render arrives
		now []string
		// after the sentence playing ends (the next boundary)
		boundary []string
	}{
		{
			name:     "renders as it arrives when nothing is playing",
			setup:    func(h *harness) {},
			now:      []string{"cue t2 sad"},
			boundary: nil,
		},
		{
			name: "fires at the next boundary while speech is owed",
			setup: func(h *harness) {
				h.q.Render(speechFrame("t1", seg("", "One.")))
				h.q.Render(speechFrame("t1", seg("", "Two.")))
				h.expect("speech", "say t1 One.")
			},
			now: nil,
			// before the speech already queued: the first boundary reached
			boundary: []string{"cue t2 sad", "say t1 Two."},
		},
		{
			name: "fires before the next sentence of the same reply",
			setup: func(h *harness) {
				h.q.Render(speechFrame("t2", seg("", "One.")))
				h.q.Render(speechFrame("t2", seg("happy", "Two.")))
				h.expect("speech", "say t2 One.")
			},
			now:      nil,
			boundary: []string{"cue t2 sad", "cue t2 happy", "say t2 Two."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			tt.setup(h)
			h.q.Render(renderFrame("t2", seg("sad", "[SILENT]")))
			h.expect("arrival", tt.now...)
			h.clock.Advance(sentence)
			h.expect("boundary", tt.boundary...)
		})
	}
}

func TestEveryCueWaitingOnABoundaryFiresAtTheFirstOne(t *testing.T) {
	h := newHarness(t, Options{})
	h.q.Render(speechFrame("t1", seg("", "One.")))
	h.q.Render(speechFrame("t1", seg("", "Two.")))
	h.q.Render(speechFrame("t1", seg("", "Three.")))
	h.expect("speech", "say t1 One.")
	h.q.Render(&transport.RenderEvent{Kind: transport.KindRender, TurnID: "b1",
		Segments: []transport.Segment{seg("sad", ""), seg("angry", "[SILENT]")}})
	h.q.Render(&transport.RenderEvent{Kind: transport.KindRender, TurnID: "b2",
		Segments: []transport.Segment{seg("happy", "")}})
	h.expect("silent renders while owed")
	h.clock.Advance(sentence)
	h.expect("first boundary", "cue b1 sad", "cue b1 angry", "cue b2 happy", "say t1 Two.")
	h.clock.Advance(sentence)
	h.expect("second boundary", "say t1 Three.")
}

func TestSilentSegmentAfterSpeechOfTheSameFrameKeepsItsPlace(t *testing.T) {
	h := newHarness(t, Options{})
	h.q.Render(renderFrame("t1", seg("happy", "Hi."), seg("sad", ""), seg("angry", "Bye.")))
	h.expect("render", "cue t1 happy", "say t1 Hi.")
	h.clock.Advance(sentence)
	h.expect("boundary", "cue t1 sad", "cue t1 angry", "say t1 Bye.")
}

func TestCueDuringAnotherTurnsThinkingLandsWhenThinkingEnds(t *testing.T) {
	tests := []struct {
		name   string
		end    func(h *harness)
		expect []string
	}{
		{
			name: "first render of the thinking turn",
			end:  func(h *harness) { h.q.Render(renderFrame("t1", seg("happy", "Done."))) },
			expect: []string{
				"think off", "cue b1 sad", "cue t1 happy", "say t1 Done.",
			},
		},
		{
			name: "turn end of the thinking turn",
			end: func(h *harness) {
				h.q.TurnEnded(&transport.TurnEndEvent{TurnID: "t1", OwnTurn: true, Outcome: transport.TurnCompleted})
			},
			expect: []string{"think off", "cue b1 sad"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			h.q.TurnStarted("t1")
			h.expect("sent", "think on")
			// A report the backend started on its own.
			h.q.Render(&transport.RenderEvent{Kind: transport.KindRender, TurnID: "b1",
				Segments: []transport.Segment{seg("sad", "")}})
			h.expect("cue while thinking")
			h.clock.Advance(time.Minute)
			h.expect("time passing")
			tt.end(h)
			h.expect("thinking ends", tt.expect...)
		})
	}
}

func TestRenderPlaysAfterQueuedSpeechInArrivalOrder(t *testing.T) {
	h := newHarness(t, Options{})
	h.q.Render(speechFrame("t1", seg("", "A one.")))
	h.q.Render(speechFrame("t1", seg("", "A two.")))
	h.q.Render(&transport.RenderEvent{Kind: transport.KindRender, TurnID: "b1",
		Segments: []transport.Segment{seg("happy", "B one.")}})
	h.q.Render(renderFrame("t1", seg("", "A three.")))
	h.expect("arrival", "say t1 A one.")
	var got []string
	for range 4 {
		h.clock.Advance(sentence)
		got = append(got, h.take()...)
	}
	want := []string{"say t1 A two.", "cue b1 happy", "say b1 B one.", "say t1 A three.", "idle"}
	if !slices.Equal(got, want) {
		t.Fatalf("order:\n got  %q\n want %q", got, want)
	}
}

func TestRenderDoesNotRepeatSentencesOfTheUtterance(t *testing.T) {
	tests := []struct {
		name   string
		frames []*transport.RenderEvent
		want   []string // sentences spoken, in order
	}{
		{
			name: "render repeats the speech frames",
			frames: []*transport.RenderEvent{
				speechFrame("t1", seg("happy", "All green.")),
				renderFrame("t1", seg("happy", "All green."), seg("curious", "Want the slow ones listed?")),
			},
			want: []string{"All green.", "Want the slow ones listed?"},
		},
		{
			name: "speech frames repeat a sentence",
			frames: []*transport.RenderEvent{
				speechFrame("t1", seg("", "All green.")),
				speechFrame("t1", seg("", "All green.")),
				speechFrame("t1", seg("", "Next one.")),
				renderFrame("t1", seg("", "All green. Next one.")),
			},
			want: []string{"All green.", "Next one."},
		},
		{
			name: "speech joined two lines with no space",
			frames: []*transport.RenderEvent{
				speechFrame("t1", seg("", "All green.Want the slow ones listed?")),
				renderFrame("t1", seg("", "All green."), seg("curious", "Want the slow ones listed?"), seg("", "Here.")),
			},
			want: []string{"All green.", "Want the slow ones listed?", "Here."},
		},
		{
			name: "a reply may say a sentence twice in one frame",
			frames: []*transport.RenderEvent{
				renderFrame("t1", seg("", "No. No.")),
			},
			want: []string{"No.", "No."},
		},
		{
			name: "a later render of the turn is a new utterance",
			frames: []*transport.RenderEvent{
				renderFrame("t1", seg("", "Hello.")),
				renderFrame("t1", seg("", "Hello.")),
			},
			want: []string{"Hello.", "Hello."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			for _, f := range tt.frames {
				h.q.Render(f)
			}
			var said []string
			for range 10 {
				for _, e := range h.take() {
					if s, ok := strings.CutPrefix(e, "say t1 "); ok {
						said = append(said, s)
					}
				}
				h.clock.Advance(speech.MaxReadingTime)
			}
			if !slices.Equal(said, tt.want) {
				t.Fatalf("spoken:\n got  %q\n want %q", said, tt.want)
			}
		})
	}
}

func TestRenderAfterSpeechFramesPlacesTheRemainingCues(t *testing.T) {
	h := newHarness(t, Options{})
	h.q.Render(speechFrame("t1", seg("happy", "All green.Want the slow ones listed?")))
	h.expect("speech", "cue t1 happy", "say t1 All green.")
	// The render repeats both lines; the cue naming the second line plays
	// at the next boundary, before the speech still owed.
	h.q.Render(renderFrame("t1", seg("", "All green."), seg("curious", "Want the slow ones listed?")))
	h.expect("render")
	h.clock.Advance(sentence)
	h.expect("boundary", "cue t1 curious", "say t1 Want the slow ones listed?")
}

func TestFrameOfAnotherTurnClosesTheOpenUtterance(t *testing.T) {
	h := newHarness(t, Options{})
	h.q.Render(speechFrame("t1", seg("", "One.")))
	h.q.Render(&transport.RenderEvent{Kind: transport.KindRender, TurnID: "b1", Segments: []transport.Segment{seg("", "Report.")}})
	h.clock.Advance(sentence) // t1's speech played; its utterance was closed by b1
	if rec := h.q.LastRecord(); rec.TurnID != "t1" || rec.Outcome != transport.PlaybackComplete {
		t.Fatalf("record after t1 played = %+v, want t1 complete", rec)
	}
	h.clock.Advance(sentence)
	if rec := h.q.LastRecord(); rec.TurnID != "b1" {
		t.Fatalf("record after b1 played = %+v, want b1", rec)
	}
}

func TestUtteranceClosesOnTurnEndAndOnLeavingReady(t *testing.T) {
	tests := []struct {
		name  string
		close func(q *Queue)
	}{
		{"turn end", func(q *Queue) {
			q.TurnEnded(&transport.TurnEndEvent{TurnID: "t1", OwnTurn: true, Outcome: transport.TurnStalled})
		}},
		{"socket leaving ready", func(q *Queue) { q.CloseUtterances() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			h.q.Render(speechFrame("t1", seg("", "One.")))
			h.q.Render(speechFrame("t1", seg("", "Two.")))
			h.clock.Advance(2 * sentence)
			if rec := h.q.LastRecord(); rec.TurnID != "" {
				t.Fatalf("record while the utterance is open = %+v", rec)
			}
			tt.close(h.q)
			if rec := h.q.LastRecord(); rec.TurnID != "t1" || rec.Outcome != transport.PlaybackComplete {
				t.Fatalf("record = %+v, want t1 complete", rec)
			}
			h.expect("played", "say t1 One.", "say t1 Two.", "idle")
		})
	}
}

func TestInterruptStopsAtOnceAndRecordsEverythingOwed(t *testing.T) {
	h := newHarness(t, Options{})
	h.q.Render(speechFrame("t1", seg("", "This sentence is long enough to be cut in the middle.")))
	h.q.Render(renderFrame("t1", seg("", "Want the slow ones listed?")))
	h.q.Render(renderFrame("b1", seg("", "")))
	h.expect("arrival", "say t1 This sentence is long enough to be cut in the middle.")
	h.clock.Advance(time.Second) // mid-sentence
	rec, ok := h.q.Interrupt()
	want := transport.PlaybackRecord{
		TurnID:   "t1",
		Outcome:  transport.PlaybackInterrupted,
		Unspoken: "This sentence is long enough to be cut in the middle. Want the slow ones listed?",
	}
	if !ok || rec != want {
		t.Fatalf("Interrupt = %+v, %v; want %+v", rec, ok, want)
	}
	h.expect("interrupt", "idle")
	if h.q.Owed() || h.clock.Pending() != 0 {
		t.Fatalf("after Interrupt: owed %v, timers %d", h.q.Owed(), h.clock.Pending())
	}
	h.clock.Advance(time.Minute)
	h.expect("nothing plays after the interrupt")
	if got := h.q.TakeRecord(); got != want {
		t.Fatalf("TakeRecord = %+v", got)
	}
	if got := h.q.TakeRecord(); got != (transport.PlaybackRecord{}) {
		t.Fatalf("second TakeRecord = %+v, want zero", got)
	}
}

func TestInterruptWithNothingOwedKeepsTheRecord(t *testing.T) {
	h := newHarness(t, Options{})
	h.q.Render(renderFrame("t1", seg("", "Hi.")))
	h.clock.Advance(sentence)
	if _, ok := h.q.Interrupt(); ok {
		t.Fatal("Interrupt with nothing owed saved a record")
	}
	if rec := h.q.LastRecord(); rec.TurnID != "t1" || rec.Outcome != transport.PlaybackComplete {
		t.Fatalf("record = %+v", rec)
	}
}

func TestInterruptEndsThinkingAndDropsWaitingCues(t *testing.T) {
	h := newHarness(t, Options{FillerLines: []string{"Hmm."}})
	h.q.TurnStarted("t1")
	h.q.Render(renderFrame("b1", seg("sad", "")))
	h.expect("thinking", "think on", "say t1 Hmm.")
	h.q.Interrupt()
	h.expect("interrupt", "think off", "idle")
	if h.q.Thinking() {
		t.Fatal("still thinking")
	}
	h.clock.Advance(time.Minute)
	h.expect("later")
}

func TestFillerLineAndThinkingUntilFirstRender(t *testing.T) {
	lines := []string{"Hmm.", "Let me think.", "One moment."}
	tests := []struct {
		name string
		pick int
		want string
	}{
		{"first", 0, "Hmm."},
		{"last", 2, "One moment."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, Options{FillerLines: lines, Rand: func(n int) int {
				if n != len(lines) {
					t.Errorf("Rand(%d), want Rand(%d)", n, len(lines))
				}
				return tt.pick
			}})
			h.q.TurnStarted("t1")
			h.expect("sent", "think on", "say t1 "+tt.want)
			if !h.q.Thinking() {
				t.Fatal("not thinking")
			}
			h.clock.Advance(sentence)
			h.expect("filler played", "idle")
			h.q.Render(renderFrame("t1", seg("happy", "Found it.")))
			h.expect("first render", "think off", "cue t1 happy", "say t1 Found it.")
			// The filler line is not reply speech: the record is the reply's.
			h.clock.Advance(sentence)
			if rec := h.q.LastRecord(); rec.TurnID != "t1" || rec.Outcome != transport.PlaybackComplete {
				t.Fatalf("record = %+v", rec)
			}
		})
	}
}

func TestFillerNotYetPlayingIsDroppedByTheFirstRender(t *testing.T) {
	h := newHarness(t, Options{FillerLines: []string{"Hmm."}})
	h.q.Render(renderFrame("b1", seg("", "Report.")))
	h.q.TurnStarted("t1")
	h.expect("sent while speaking", "say b1 Report.", "think on")
	h.q.Render(renderFrame("t1", seg("", "Answer.")))
	h.expect("first render", "think off")
	h.clock.Advance(sentence)
	h.expect("next", "say t1 Answer.")
}

func TestFailureLine(t *testing.T) {
	failure := []string{"I can't reach my thoughts right now."}
	tests := []struct {
		name     string
		rendered bool
		own      bool
		outcome  transport.TurnOutcome
		want     bool
	}{
		{"turn fails before its first render", false, true, transport.TurnFailed, true},
		{"error frame's failed turn end after a render", true, true, transport.TurnFailed, true},
		{"no failure line on TurnStalled", false, true, transport.TurnStalled, false},
		{"no failure line on TurnStopped", false, true, transport.TurnStopped, false},
		{"no failure line on TurnCompleted", true, true, transport.TurnCompleted, false},
		{"no failure line for a turn the client did not send", true, false, transport.TurnFailed, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, Options{FailureLines: failure})
			if tt.own {
				h.q.TurnStarted("t1")
			}
			if tt.rendered {
				h.q.Render(&transport.RenderEvent{Kind: transport.KindRender, TurnID: "t1", OwnTurn: tt.own,
					Segments: []transport.Segment{seg("", "Partial.")}})
			}
			h.take()
			h.q.TurnEnded(&transport.TurnEndEvent{TurnID: "t1", OwnTurn: tt.own, Outcome: tt.outcome})
			var said []string
			for range 3 {
				for _, e := range h.take() {
					if s, ok := strings.CutPrefix(e, "say t1 "); ok {
						said = append(said, s)
					}
				}
				h.clock.Advance(speech.MaxReadingTime)
			}
			got := slices.Contains(said, failure[0])
			if got != tt.want {
				t.Fatalf("failure line spoken = %v, want %v (said %q)", got, tt.want, said)
			}
			if h.q.Thinking() {
				t.Fatal("still thinking after the turn end")
			}
		})
	}
}

// failingEngine fails Prepare or Play of the sentences named.
func (*failingEngine) Close() error { return nil }

type failingEngine struct {
	clock    clock.Clock
	none     *speech.None
	prepare  map[string]bool
	play     map[string]bool
	mu       sync.Mutex
	prepared []string
}

func (e *failingEngine) Prepare(ctx context.Context, text string) (speech.Clip, error) {
	e.mu.Lock()
	e.prepared = append(e.prepared, text)
	e.mu.Unlock()
	if e.prepare[text] {
		return nil, errors.New("tts: synthesis failed")
	}
	c, err := e.none.Prepare(ctx, text)
	if e.play[text] {
		return failingClip{e.clock}, err
	}
	return c, err
}

// failingClip fails as soon as it starts, like a missing audio device.
type failingClip struct{ clock clock.Clock }

func (failingClip) Play(context.Context) error { return errors.New("audio: no device") }

func (c failingClip) Start(done func(error)) func() {
	t := c.clock.AfterFunc(0, func() { done(errors.New("audio: no device")) })
	return func() { t.Stop() }
}

func TestPlaybackRecords(t *testing.T) {
	tests := []struct {
		name    string
		prepare map[string]bool
		play    map[string]bool
		want    transport.PlaybackRecord
		report  bool
	}{
		{"complete", nil, nil, transport.PlaybackRecord{TurnID: "t1"}, false},
		{"failed by TTS", map[string]bool{"Two.": true}, nil,
			transport.PlaybackRecord{TurnID: "t1", Outcome: transport.PlaybackFailed, Reason: "tts: synthesis failed"}, true},
		{"failed by audio", nil, map[string]bool{"One.": true},
			transport.PlaybackRecord{TurnID: "t1", Outcome: transport.PlaybackFailed, Reason: "audio: no device"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var h *harness
			eng := &failingEngine{prepare: tt.prepare, play: tt.play}
			h = newHarness(t, Options{Engine: eng})
			eng.none = speech.NewNone(h.clock)
			eng.clock = h.clock
			h.q.TurnStarted("t1")
			h.q.Render(renderFrame("t1", seg("", "One. Two.")))
			// A failed sentence is still paced by reading speed, in order.
			h.expect("render", "think on", "think off", "say t1 One.")
			h.clock.Advance(sentence)
			h.expect("next", "say t1 Two.")
			h.clock.Advance(sentence)
			want := []string{"idle"}
			if tt.report {
				want = append(want, "failed t1")
			}
			h.expect("end", want...)
			if rec := h.q.LastRecord(); rec != tt.want {
				t.Fatalf("record = %+v, want %+v", rec, tt.want)
			}
		})
	}
}

func TestNextSentenceIsPreparedWhileTheCurrentOnePlays(t *testing.T) {
	eng := &failingEngine{}
	h := newHarness(t, Options{Engine: eng})
	eng.none = speech.NewNone(h.clock)
	h.q.Render(renderFrame("t1", seg("", "One. Two. Three.")))
	eng.mu.Lock()
	got := slices.Clone(eng.prepared)
	eng.mu.Unlock()
	if want := []string{"One.", "Two."}; !slices.Equal(got, want) {
		t.Fatalf("prepared while One plays = %q, want %q", got, want)
	}
}

// blockingEngine's clips implement only the blocking Play: the queue plays
// them on a goroutine of its own.
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

func TestBlockingClipsPlayOnAnOwnedGoroutine(t *testing.T) {
	eng := blockingEngine{release: make(chan struct{})}
	idle := make(chan struct{})
	q := New(Options{Engine: eng, Clock: clocktest.NewFake(time.Time{}), Stage: &stageFuncs{speech: func(_, text string) {
		if text == "" {
			close(idle)
		}
	}}})
	q.Render(renderFrame("t1", seg("", "One.")))
	if !q.Owed() {
		t.Fatal("not owed while playing")
	}
	eng.release <- struct{}{}
	<-idle
	if q.Owed() {
		t.Fatal("owed after the clip played")
	}
	// A clip still playing is stopped by Close, which waits for its goroutine.
	q.Render(renderFrame("t2", seg("", "Two.")))
	q.Close()
	if q.Owed() {
		t.Fatal("owed after Close")
	}
}

func TestSplitSentences(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"All green.", []string{"All green."}},
		{"All green. Want the list?", []string{"All green.", "Want the list?"}},
		{"All green.Want the list?", []string{"All green.", "Want the list?"}},
		{"Version 3.5 works...sort of!", []string{"Version 3.5 works...sort of!"}},
		{"He said \"stop.\" Then left", []string{"He said \"stop.\"", "Then left"}},
		{"できた。次は？", []string{"できた。", "次は？"}},
		{"I live in the U.S.A. now.", []string{"I live in the U.S.A.", "now."}},
		{"  ", nil},
	}
	for _, tt := range tests {
		if got := splitSentences(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("splitSentences(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFillerLineIsCutByTheFirstRenderOfTheTurn(t *testing.T) {
	for _, kind := range []transport.RenderKind{transport.KindRender, transport.KindSpeech} {
		t.Run(fmt.Sprint(kind), func(t *testing.T) {
			h := newHarness(t, Options{FillerLines: []string{"Hmm, let me think about that."}})
			h.q.TurnStarted("t1")
			h.expect("sent", "think on", "say t1 Hmm, let me think about that.")
			h.clock.Advance(sentence / 2) // mid-sentence
			h.q.Render(&transport.RenderEvent{Kind: kind, TurnID: "t1", OwnTurn: true, Segments: []transport.Segment{seg("happy", "Found it.")}})
			h.expect("first render", "think off", "cue t1 happy", "say t1 Found it.")
			h.clock.Advance(sentence)
			if kind == transport.KindRender {
				h.expect("played", "idle")
			}
			if h.clock.Pending() != 0 {
				t.Fatalf("%d timers left: the cut filler's clip still runs", h.clock.Pending())
			}
		})
	}
}

func TestFillerLineIsCutByTheFirstSilentRenderAndItsCuesRenderAtOnce(t *testing.T) {
	h := newHarness(t, Options{FillerLines: []string{"Hmm, let me think about that."}})
	h.q.TurnStarted("t1")
	h.take()
	h.q.Render(renderFrame("t1", seg("happy", "[SILENT]")))
	h.expect("silent first render", "think off", "cue t1 happy", "idle")
}

func TestFillerLineIsCutByATurnEndWithNoRenderAndTheFailureLineFollows(t *testing.T) {
	h := newHarness(t, Options{FillerLines: []string{"Hmm, let me think about that."}, FailureLines: []string{"I can't reach my thoughts."}})
	h.q.TurnStarted("t1")
	h.take()
	h.q.TurnEnded(&transport.TurnEndEvent{TurnID: "t1", OwnTurn: true, Outcome: transport.TurnFailed})
	h.expect("turn failed", "think off", "say t1 I can't reach my thoughts.")
}

func TestAFillerLineOfAnotherTurnIsNotCut(t *testing.T) {
	h := newHarness(t, Options{FillerLines: []string{"Hmm."}})
	h.q.TurnStarted("t1")
	h.q.TurnStarted("t2")
	h.expect("two turns", "think on", "say t1 Hmm.")
	h.q.Render(renderFrame("t2", seg("", "Answer two.")))
	h.expect("t2 renders while t1 thinks")
	h.clock.Advance(sentence)
	h.expect("t1's filler played out", "say t2 Answer two.")
}

func TestNextSentenceIsSynthesisedWhileTheCurrentOnePlays(t *testing.T) {
	eng := &failingEngine{}
	h := newHarness(t, Options{Engine: eng})
	eng.none = speech.NewNone(h.clock)
	prepared := func() []string {
		eng.mu.Lock()
		defer eng.mu.Unlock()
		return slices.Clone(eng.prepared)
	}
	h.q.Render(speechFrame("t1", seg("", "One.")))
	h.q.Render(speechFrame("t1", seg("", "Two.")))
	if got, want := prepared(), []string{"One.", "Two."}; !slices.Equal(got, want) {
		t.Fatalf("prepared while One plays = %q, want %q", got, want)
	}
	h.q.Render(speechFrame("t1", seg("", "Three.")))
	if got, want := prepared(), []string{"One.", "Two."}; !slices.Equal(got, want) {
		t.Fatalf("prepared = %q: only the next sentence is synthesised ahead", got)
	}
	h.clock.Advance(sentence)
	if got, want := prepared(), []string{"One.", "Two.", "Three."}; !slices.Equal(got, want) {
		t.Fatalf("prepared while Two plays = %q, want %q", got, want)
	}
}

// ctxEngine records the context each sentence was prepared with.
func (*ctxEngine) Close() error { return nil }

type ctxEngine struct {
	none *speech.None
	mu   sync.Mutex
	ctxs map[string]context.Context
}

func (e *ctxEngine) Prepare(ctx context.Context, text string) (speech.Clip, error) {
	e.mu.Lock()
	e.ctxs[text] = ctx
	e.mu.Unlock()
	return e.none.Prepare(ctx, text)
}

func (e *ctxEngine) ctx(text string) context.Context {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.ctxs[text]
}

func TestSynthesisIsAbandonedWhenItsSentenceIsDroppedOrHasPlayed(t *testing.T) {
	eng := &ctxEngine{ctxs: make(map[string]context.Context)}
	h := newHarness(t, Options{Engine: eng, FillerLines: []string{"Hmm."}})
	eng.none = speech.NewNone(h.clock)
	h.q.Render(renderFrame("b1", seg("", "Report.")))
	h.q.TurnStarted("t1") // its filler is synthesised ahead, behind the report
	if eng.ctx("Hmm.") == nil {
		t.Fatal("the filler was not prepared ahead")
	}
	h.q.Render(renderFrame("t1", seg("", "Answer.")))
	if eng.ctx("Hmm.").Err() == nil {
		t.Fatal("the dropped filler's synthesis goes on")
	}
	if eng.ctx("Report.").Err() != nil {
		t.Fatal("the playing sentence's synthesis was abandoned")
	}
	h.clock.Advance(sentence)
	if eng.ctx("Report.").Err() == nil {
		t.Fatal("a played sentence's synthesis context is still live")
	}
}

func TestNoAudioDeviceLogsOneLineAndCarriesOnWithBubblePacing(t *testing.T) {
	var buf bytes.Buffer
	eng := &failingEngine{play: map[string]bool{"One.": true, "Two.": true, "Three.": true}}
	var reported atomic.Int32
	h := newHarness(t, Options{Engine: eng, Logger: slog.New(slog.NewJSONHandler(&buf, nil)),
		Stage: &stageFuncs{failed: func(string) { reported.Add(1) }}})
	eng.none = speech.NewNone(h.clock)
	eng.clock = h.clock
	h.q.Render(renderFrame("t1", seg("", "One. Two.")))
	h.q.Render(renderFrame("t2", seg("", "Three.")))
	h.expect("render", "say t1 One.")
	h.clock.Advance(sentence)
	h.expect("paced by reading speed", "say t1 Two.")
	h.clock.Advance(sentence)
	h.expect("next turn", "say t2 Three.", "failed t1")
	h.clock.Advance(sentence)
	h.expect("end", "idle", "failed t2")
	if n := strings.Count(buf.String(), "speech_failed"); n != 1 {
		t.Fatalf("%d speech_failed lines, want 1:\n%s", n, buf.String())
	}
	// The pill is told once too (the outbox delivers it before "failed t2").
	if n := reported.Load(); n != 1 {
		t.Fatalf("SpeechFailed called %d times, want 1", n)
	}
}
