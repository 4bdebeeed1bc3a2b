//go:build e2e

package bench

import (
	"encoding/binary"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
	"yui/transport/localserver/localservertest"
	"yui/transport/request/requesttest"
)

// The servers' fixed delays (issue 37): what the benchmark takes out of
// the time it measures, leaving the time Yui adds.
const (
	whisperDelay   = 300 * time.Millisecond
	firstToken     = 400 * time.Millisecond
	tokenEvery     = 20 * time.Millisecond
	speechFirstPCM = 150 * time.Millisecond
)

// replyTokens is the model's answer; its first sentence ends with the
// seventh token, 400 + 6×20 ms after the request.
var replyTokens = []string{"Sure", ",", " it", "'s", " sunny", " today", ".", " Enjoy", " the", " sun", "!"}

const replyFirstSentence = "Sure, it's sunny today."

// latencySpan is one part of a turn's way, Yui's own or a server's.
type latencySpan struct {
	Part string  `json:"part"`
	Yui  bool    `json:"yui"` // Yui's time, not a server's
	MS   float64 `json:"ms"`
}

// latencyPath is one way in, its spans in order and what Yui added.
type latencyPath struct {
	Path     string        `json:"path"` // "voice" or "typed"
	Spans    []latencySpan `json:"spans"`
	TotalMS  float64       `json:"total_ms"`
	AddedMS  float64       `json:"yui_added_ms"`
	FillerMS float64       `json:"filler_ms"`       // to the first sample of the filler line, the first sound heard
	Turns    int           `json:"turns,omitempty"` // the median of this many turns, when more than one
}

// BenchmarkTurnLatency measures, on the real yui under Xvfb, the time from
// the end of the user's speech (a recording through --voice-in, hands-free)
// and from the Enter key (typed through the composer with xdotool) to the
// reply's first sample at the audio output (the mixer's audio_out_sentence
// record), against servers with fixed delays: a Whisper-compatible server
// answering 300 ms after the upload, a Chat Completions server streaming
// its first token 400 ms after the request and one every 20 ms, a speech
// server whose first audio comes 150 ms after the request. Each server
// stamps when it got its request and when it answered, so the turn's time
// splits into Yui's parts and the servers' (latency.json, the report's
// stacked plot); Yui's added latency is the sum of its parts (goals: 250
// ms for the voice round trip, end-of-speech detection included, 30 ms
// for a typed turn). YUI_BENCH_DEBUG=1 prints the app's records along
// each path to stderr.
func BenchmarkTurnLatency(b *testing.B) {
	for i := 0; i < b.N; i++ {
		voice, typed := measureLatency(b)
		push := measurePushLatency(b)
		b.ReportMetric(voice.AddedMS, "voice-added-ms")
		b.ReportMetric(voice.TotalMS, "voice-total-ms")
		b.ReportMetric(typed.AddedMS, "typed-added-ms")
		b.ReportMetric(typed.TotalMS, "typed-total-ms")
		b.ReportMetric(push.AddedMS, "push-added-ms")
		for _, p := range []latencyPath{voice, typed, push} {
			b.Logf("%s: %.0f ms to the first sample, Yui's part %.0f ms; %v", p.Path, p.TotalMS, p.AddedMS, p.Spans)
		}
		writePerfResult(b, "latency.json", []latencyPath{voice, typed, push})
	}
}

// pushDelay is how long the push backend (yui-sim's scenario) takes from
// the turn frame to its render.
const pushDelay = 500 * time.Millisecond

// pushScenario answers every turn pushDelay later with a render of the
// reply's first sentence, then ends it.
var pushScenario = fmt.Sprintf(`{"loop": true, "steps": [
  {"wait": "turn"},
  {"sleep_ms": %d},
  {"send": {"type": "render", "turn_id": "{turn_id}", "source": "bench", "segments": [{"speech": %q}]}},
  {"send": {"type": "turn_end", "turn_id": "{turn_id}"}}
]}`, pushDelay.Milliseconds(), replyFirstSentence)

// measurePushLatency is the typed turn over push: Enter to the turn frame
// at yui-sim (its sim_frame record), the backend's delay to the render
// arriving (push.render), to the speech request, the speech server, to the
// first sample.
func measurePushLatency(b *testing.B) latencyPath {
	speech := &localservertest.Kokoro{Delay: speechFirstPCM}
	ss := serveHTTP(b, speech)
	scen := filepath.Join(b.TempDir(), "push.json")
	if err := os.WriteFile(scen, []byte(pushScenario), 0o600); err != nil {
		b.Fatal(err)
	}
	sim := harness.StartSim(b, harness.FreePort(b), "bench-key", scen)
	d := harness.StartXvfb(b, 1280, 800)
	cfg := b.TempDir()
	harness.WriteSoakSettings(b, cfg, map[string]any{
		"chat_api": "push", "chat_base_url": sim.Url, "key": "bench-key",
		"speech": map[string]any{"engine": "openai", "base_url": ss + "/v1", "model": "kokoro", "voice": "af_bella", "rate": 1, "volume": 1},
		"life":   harness.QuietLife(),
	})
	a := harness.StartYuiIn(b, d, cfg, "", "--audio-out", filepath.Join(b.TempDir(), "push.wav"))
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	a.OpenComposer()
	var runs []latencyPath
	for n := range typedTurns {
		if n > 0 {
			nthRecord(b, a, "speech_done", map[string]string{"text": replyFirstSentence}, n-1)
		}
		enter := typeAndEnter(b, a)
		runs = append(runs, pushTurn(b, a, sim, speech, enter, n))
	}
	return medianTurn(b, runs)
}

// pushTurn is push turn n's way from the Enter key to its first sample.
func pushTurn(b *testing.B, a *harness.App, sim *harness.Sim, speech *localservertest.Kokoro, enter time.Time, n int) latencyPath {
	b.Helper()
	first := nthRecord(b, a, "audio_out_sentence", map[string]string{"text": replyFirstSentence}, n)
	render := nthRecord(b, a, "push.render", nil, n)
	var turnAt time.Time
	harness.WaitFor(b, 10*time.Second, "yui-sim's turn frame", func() bool {
		turnAt = simFrameTime(sim.Proc.Output(), "turn", n)
		return !turnAt.IsZero()
	})
	var synth localservertest.Timing
	for _, t := range speech.Timings.All() {
		if t.Text == replyFirstSentence && t.Arrived.After(enter) {
			synth = t
			break
		}
	}
	if synth.Arrived.IsZero() {
		b.Fatalf("push: no speech request for %q", replyFirstSentence)
	}
	debugRecords(b, a, "push", enter, turnAt)
	ms := func(from, to time.Time) float64 { return float64(to.Sub(from).Microseconds()) / 1000 }
	p := latencyPath{Path: "push", Spans: []latencySpan{
		{"to the turn frame at the backend", true, ms(enter, turnAt)},
		{"backend, to its render received", false, ms(turnAt, recordTime(b, render))},
		{"to the speech request received", true, ms(recordTime(b, render), synth.Arrived)},
		{"speech server, to its first audio", false, ms(synth.Arrived, synth.Answered)},
		{"to the first sample at the output", true, ms(synth.Answered, recordTime(b, first))},
	}}
	p.total()
	return p
}

// typeAndEnter types the question into the open composer and presses
// Enter once the pet window shows it, as a person does who sees their
// text before sending it, and returns when Enter was pressed. Pressed the
// moment xdotool had typed the last character, the key would find the UI
// still drawing that character and count Fyne's repaint as the turn's.
func typeAndEnter(b *testing.B, a *harness.App) time.Time {
	b.Helper()
	a.D.InputSettled(b, a.PetRect(), 10*time.Second, func() {
		a.D.Run(b, "xdotool", "type", "--delay", "30", "is it warm")
	})
	return a.D.PressReturn(b)
}

// debugRecords prints, with YUI_BENCH_DEBUG set, the app's records in the
// 800 ms after enter, and when the first frame of the turn reached its
// server.
func debugRecords(b *testing.B, a *harness.App, label string, enter, request time.Time) {
	if os.Getenv("YUI_BENCH_DEBUG") == "" {
		return
	}
	for _, r := range a.Log() {
		if at := recordTime(b, r); !at.Before(enter) && at.Before(enter.Add(800*time.Millisecond)) {
			fmt.Fprintf(os.Stderr, "%s +%5.1f ms %s %v\n", label, float64(at.Sub(enter).Microseconds())/1000, r.Str("msg"), r)
		}
	}
	fmt.Fprintf(os.Stderr, "%s: the request at its server +%.1f ms\n", label, float64(request.Sub(enter).Microseconds())/1000)
}

// total sums p's spans: the whole time and Yui's part of it.
func (p *latencyPath) total() {
	p.TotalMS, p.AddedMS = 0, 0
	for _, s := range p.Spans {
		p.TotalMS += s.MS
		if s.Yui {
			p.AddedMS += s.MS
		}
	}
}

// typedTurns is how many typed turns each typed path takes: a key waits
// for the UI loop's next poll (60 a second) and a first sample for the
// output's next pull, so one turn's figure moves by tens of milliseconds
// from run to run; the report gives the median turn.
const typedTurns = 5

// medianTurn is the run whose added latency is the median, its spread logged.
func medianTurn(b *testing.B, runs []latencyPath) latencyPath {
	b.Helper()
	sorted := append([]latencyPath(nil), runs...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].AddedMS < sorted[j].AddedMS })
	added := make([]string, len(runs))
	for i, r := range runs {
		added[i] = fmt.Sprintf("%.1f", r.AddedMS)
	}
	m := sorted[len(sorted)/2]
	b.Logf("%s: Yui's part over %d turns: %s ms; the median turn is reported", m.Path, len(runs), strings.Join(added, ", "))
	m.Turns = len(runs)
	return m
}

// simFrameTime is when yui-sim logged client frame n (from 0) of type typ
// (its sim_frame record, "time=… msg=sim_frame type=…"); zero when none.
func simFrameTime(out, typ string, n int) time.Time {
	for _, line := range strings.Split(out, "\n") {
		if !strings.Contains(line, "msg=sim_frame") || !strings.Contains(line, " type="+typ+" ") {
			continue
		}
		if n > 0 {
			n--
			continue
		}
		f := strings.Fields(line)
		if len(f) == 0 || !strings.HasPrefix(f[0], "time=") {
			continue
		}
		if t, err := time.Parse(time.RFC3339Nano, strings.TrimPrefix(f[0], "time=")); err == nil {
			return t
		}
	}
	return time.Time{}
}

func measureLatency(b *testing.B) (voice, typed latencyPath) {
	said, speechEnd := utterance(b)
	whisper := &localservertest.Whisper{Text: "what is the weather like today", Delay: whisperDelay}
	speech := &localservertest.Kokoro{Delay: speechFirstPCM}
	model := &requesttest.Paced{Tokens: replyTokens, First: firstToken, Every: tokenEvery}
	chat := requesttest.Start(b, model.Handle)
	ws := serveHTTP(b, whisper)
	ss := serveHTTP(b, speech)

	d := harness.StartXvfb(b, 1280, 800)
	cfg := b.TempDir()
	harness.WriteSoakSettings(b, cfg, map[string]any{
		"chat_api": "chat_completions", "chat_base_url": chat.URL + "/v1", "model": "m", "key": "bench-key",
		"speech": map[string]any{"engine": "openai", "base_url": ss + "/v1", "model": "kokoro", "voice": "af_bella", "rate": 1, "volume": 1},
		"voice":  map[string]any{"mode": "hands_free", "engine": "openai", "base_url": ws + "/v1", "model": "whisper-1"},
		"life":   harness.QuietLife(),
	})
	wav := filepath.Join(b.TempDir(), "out.wav")
	a := harness.StartYuiIn(b, d, cfg, "", "--voice-in", said, "--audio-out", wav)
	a.WaitRecord(30*time.Second, "probe_ready", nil)

	// The voice round trip: the file ends with the speech's last sound,
	// and voice_in_end is when the block holding it was delivered, as a
	// microphone delivers it.
	end := a.WaitRecord(30*time.Second, "voice_in_end", nil)
	spoke := recordTime(b, end)
	b.Logf("the utterance: %s, its speech ending %s into it", said, speechEnd)
	voice = latencyOf(b, a, "voice", spoke, whisper, model, speech, 0)
	if os.Getenv("YUI_BENCH_DEBUG") != "" {
		for _, r := range a.Log() {
			if m := r.Str("msg"); strings.HasPrefix(m, "voice") || m == "turn" || m == "pet_pill" {
				fmt.Fprintf(os.Stderr, "%s %s %v\n", r.Str("time"), m, r)
			}
		}
	}

	// The typed turns, once the voice turn has played out.
	var runs []latencyPath
	for n := 1; n <= typedTurns; n++ {
		nthRecord(b, a, "speech_done", map[string]string{"text": "Enjoy the sun!"}, n-1)
		if n == 1 {
			a.OpenComposer()
		}
		enter := typeAndEnter(b, a)
		runs = append(runs, latencyOf(b, a, "typed", enter, nil, model, speech, n))
		debugRecords(b, a, "typed", enter, model.Turns()[n].Arrived)
	}
	typed = medianTurn(b, runs)
	return voice, typed
}

// latencyOf splits turn n's way from start to the reply's first sample.
func latencyOf(b *testing.B, a *harness.App, path string, start time.Time, whisper *localservertest.Whisper,
	model *requesttest.Paced, speech *localservertest.Kokoro, n int) latencyPath {
	b.Helper()
	first := nthRecord(b, a, "audio_out_sentence", map[string]string{"text": replyFirstSentence}, n)
	firstSample := recordTime(b, first)
	harness.WaitFor(b, 10*time.Second, "the model's answer", func() bool { return len(model.Turns()) > n })
	turn := model.Turns()[n]
	sentenceEnd := turn.Wrote[6] // "."
	var synth localservertest.Timing
	for _, t := range speech.Timings.All() {
		if t.Text == replyFirstSentence && t.Arrived.After(sentenceEnd) {
			synth = t
			break
		}
	}
	if synth.Arrived.IsZero() {
		var seen []string
		for _, t := range speech.Timings.All() {
			seen = append(seen, fmt.Sprintf("%q at %s", t.Text, t.Arrived.Format("15:04:05.000")))
		}
		b.Fatalf("%s turn %d: no speech request for %q after its last token (%s); the speech server had %s",
			path, n, replyFirstSentence, sentenceEnd.Format("15:04:05.000"), strings.Join(seen, ", "))
	}
	ms := func(from, to time.Time) float64 { return float64(to.Sub(from).Microseconds()) / 1000 }
	p := latencyPath{Path: path}
	requestAt := start
	if whisper != nil {
		// The transcription the turn took: the last one answered before
		// the chat request (early ones the speech went past were
		// cancelled).
		var tr localservertest.Timing
		for _, t := range whisper.Timings.All() {
			if !t.Cancelled && t.Answered.Before(turn.Arrived) {
				tr = t
			}
		}
		if tr.Arrived.IsZero() {
			b.Fatalf("%s: no transcription answered before the chat request", path)
		}
		p.Spans = append(p.Spans,
			latencySpan{"end of speech to the transcription's upload received", true, ms(start, tr.Arrived)},
			latencySpan{"transcription server", false, ms(tr.Arrived, tr.Answered)})
		requestAt = tr.Answered
	}
	toRequest := "to the chat request received"
	if whisper != nil {
		toRequest = "the hangover's rest, then to the chat request received"
	}
	p.Spans = append(p.Spans,
		latencySpan{toRequest, true, ms(requestAt, turn.Arrived)},
		latencySpan{"model server, to the token ending the first sentence", false, ms(turn.Arrived, sentenceEnd)},
		latencySpan{"to the speech request received", true, ms(sentenceEnd, synth.Arrived)},
		latencySpan{"speech server, to its first audio", false, ms(synth.Arrived, synth.Answered)},
		latencySpan{"to the first sample at the output", true, ms(synth.Answered, firstSample)})
	p.total()
	// The first sound heard: the turn's filler line, when one plays
	// before the reply.
	for _, r := range a.Log() {
		if r.Str("msg") == "audio_out_sentence" && !recordTime(b, r).Before(start) {
			p.FillerMS = ms(start, recordTime(b, r))
			break
		}
	}
	return p
}

// utterance is a recording of a spoken question, 1.5 s of silence first
// and nothing after its last sound, and where in it the speech ends.
func utterance(b *testing.B) (path string, speechEnd time.Duration) {
	b.Helper()
	for _, bin := range []string{"espeak-ng", "sox"} {
		if _, err := exec.LookPath(bin); err != nil {
			b.Fatalf("%s is missing (.ci/deps.sh test installs it)", bin)
		}
	}
	dir := b.TempDir()
	raw, path := filepath.Join(dir, "said.wav"), filepath.Join(dir, "mic.wav")
	run := func(name string, args ...string) {
		if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
			b.Fatalf("%s: %v\n%s", name, err, out)
		}
	}
	run("espeak-ng", "-v", "en-us", "-s", "150", "-w", raw, "what is the weather like today")
	// Trailing silence off (reverse, trim the lead, reverse), 1.5 s on.
	run("sox", raw, "-r", "16000", "-c", "1", "-b", "16", path, "reverse", "silence", "1", "0.01", "0.5%", "reverse", "pad", "1.5", "0")
	data, err := os.ReadFile(path)
	if err != nil || len(data) < 44 {
		b.Fatalf("read %s: %v", path, err)
	}
	n := binary.LittleEndian.Uint32(data[40:44]) / 2
	return path, time.Duration(n) * time.Second / 16000
}

// serveHTTP serves h on a free loopback port until the benchmark ends.
func serveHTTP(b *testing.B, h http.Handler) string {
	srv := httptest.NewServer(h)
	b.Cleanup(srv.Close)
	return srv.URL
}

func recordTime(b *testing.B, r harness.Record) time.Time {
	b.Helper()
	t, err := time.Parse(time.RFC3339Nano, r.Str("time"))
	if err != nil {
		b.Fatalf("record %s: time %q: %v", r.Str("msg"), r.Str("time"), err)
	}
	return t
}

// nthRecord waits for the nth (0-based) record named msg with fields.
func nthRecord(b *testing.B, a *harness.App, msg string, fields map[string]string, n int) harness.Record {
	b.Helper()
	var r harness.Record
	harness.WaitFor(b, 30*time.Second, fmt.Sprintf("%s #%d", msg, n+1), func() bool {
		var ok bool
		r, ok = nthRecordOr(a, msg, fields, n)
		return ok
	})
	return r
}

func nthRecordOr(a *harness.App, msg string, fields map[string]string, n int) (harness.Record, bool) {
	i := 0
	for _, r := range a.Log() {
		if _, ok := harness.FindRecord([]harness.Record{r}, msg, fields); ok {
			if i == n {
				return r, true
			}
			i++
		}
	}
	return nil, false
}
