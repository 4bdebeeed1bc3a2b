//go:build e2e

package room

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
	"yui/pet/voice"
	"yui/transport/pushsim"
)

// backend is the push backend in the test's own process: it starts the
// pet's replies (turns of its own, as an agent speaking up does), ends
// every turn the pet sends it, and keeps them for the test to read.
type backend struct {
	t      testing.TB
	srv    *pushsim.Server
	conn   *pushsim.Conn
	replyN int

	mu     sync.Mutex
	turns  []turnFrame
	answer string // the reply to the next user turn, "" for none
}

type turnFrame struct {
	ID            string `json:"turn_id"`
	Text          string `json:"text"`
	ClientContext string `json:"client_context"`
}

func startBackend(t testing.TB, key string) *backend {
	t.Helper()
	srv, err := pushsim.Start(pushsim.Options{Key: key})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return &backend{t: t, srv: srv}
}

// connected waits for the pet's connection and answers its turns from then on.
func (b *backend) connected() {
	b.t.Helper()
	b.conn = b.srv.NextConn(b.t, 60*time.Second)
	go b.serve()
}

func (b *backend) serve() {
	for {
		f, err := b.conn.NextOfType(context.Background(), "turn")
		if err != nil {
			return
		}
		var tf turnFrame
		if f.Decode(&tf) != nil {
			continue
		}
		b.mu.Lock()
		b.turns = append(b.turns, tf)
		answer := b.answer
		b.answer = ""
		b.mu.Unlock()
		if answer != "" {
			_ = b.conn.Send(render(tf.ID, answer))
		}
		_ = b.conn.Send(map[string]any{"type": "turn_end", "turn_id": tf.ID})
	}
}

func render(id, text string) map[string]any {
	return map[string]any{"type": "render", "turn_id": id, "source": pushsim.Source,
		"segments": []map[string]any{{"cues": []any{}, "speech": text}}}
}

// reply makes the pet say text in a turn of the backend's own.
func (b *backend) reply(text string) {
	b.t.Helper()
	b.replyN++
	id := fmt.Sprintf("room-%d", b.replyN)
	if err := b.conn.Send(render(id, text)); err != nil {
		b.t.Fatal(err)
	}
	if err := b.conn.Send(map[string]any{"type": "turn_end", "turn_id": id}); err != nil {
		b.t.Fatal(err)
	}
}

// userTurns are the turns the pet started from the user's voice.
func (b *backend) userTurns() []turnFrame {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []turnFrame
	for _, tf := range b.turns {
		if containsLine(tf.ClientContext, "trigger: user voice") {
			out = append(out, tf)
		}
	}
	return out
}

func containsLine(s, line string) bool {
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != '\n' {
			i++
		}
		if s[:i] == line {
			return true
		}
		if i == len(s) {
			break
		}
		s = s[i+1:]
	}
	return false
}

// transcriber is an OpenAI-compatible transcription server that knows
// the user's sentences: it answers with the text of the clip whose
// loudness contour the utterance follows, and with a word no user said
// when it follows none (the pet's own voice, noise), so a turn from the
// wrong audio shows in the text.
type transcriber struct {
	t     testing.TB
	url   string
	clips []*clip
}

// notTheUser is the transcript of audio that is none of the user's clips.
const notTheUser = "unrecognised"

func startTranscriber(t testing.TB, clips ...*clip) *transcriber {
	tr := &transcriber{t: t, clips: clips}
	srv := httptest.NewServer(http.HandlerFunc(tr.serve))
	t.Cleanup(srv.Close)
	tr.url = srv.URL + "/v1"
	return tr
}

func (tr *transcriber) serve(w http.ResponseWriter, r *http.Request) {
	f, _, err := r.FormFile("file")
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	data, _ := io.ReadAll(f)
	pcm, _, err := voice.DecodeWAV(data)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	text, score := notTheUser, 0.0
	for _, c := range tr.clips {
		if s := matchContour(pcm, c); s > score {
			score = s
			if s >= matchMin {
				text = c.text
			}
		}
	}
	tr.t.Logf("transcriber: %.1f s of audio, best contour match %.2f: %q", float64(len(pcm))/rate, score, text)
	_ = json.NewEncoder(w).Encode(map[string]string{"text": text})
}

// matchMin is the contour correlation that names a clip: the user's
// sentence through the canceller scores about 0.9, another sentence or the
// pet's voice under 0.5.
const matchMin = 0.7

// contour is a signal's level per 10 ms, in dB, floored at -70.
func contour(x []float64) []float64 {
	out := make([]float64, len(x)/block)
	for i := range out {
		var ms float64
		for _, v := range x[i*block : (i+1)*block] {
			ms += v * v
		}
		out[i] = max(-70, 10*math.Log10(ms/block+1e-12))
	}
	return out
}

// matchContour is the best correlation, over the clip's placements in
// the utterance, of their level contours: the clip where it is placed, its
// floor elsewhere, so a clip that explains only part of the utterance
// scores lower than one that explains it all.
func matchContour(pcm []int16, c *clip) float64 {
	u := make([]float64, len(pcm))
	for i, s := range pcm {
		u[i] = float64(s) / 32768
	}
	U, C := contour(u), contour(c.pcm)
	best := -1.0
	v := make([]float64, len(U))
	for lag := -len(C) / 2; lag < len(U)-len(C)/2; lag++ {
		for i := range v {
			v[i] = -70
			if j := i - lag; j >= 0 && j < len(C) {
				v[i] = C[j]
			}
		}
		best = max(best, pearson(U, v))
	}
	return best
}

func pearson(a, b []float64) float64 {
	n := float64(len(a))
	var sa, sb float64
	for i := range a {
		sa += a[i]
		sb += b[i]
	}
	ma, mb := sa/n, sb/n
	var cov, va, vb float64
	for i := range a {
		cov += (a[i] - ma) * (b[i] - mb)
		va += (a[i] - ma) * (a[i] - ma)
		vb += (b[i] - mb) * (b[i] - mb)
	}
	if va == 0 || vb == 0 {
		return 0
	}
	return cov / math.Sqrt(va*vb)
}

// startApp writes the settings (hands-free or wake_word on the default
// microphone, the system voice, the fake transcriber, no turns of her own)
// and starts yui on the sound server, its voice input recorded into debug
// (--voice-debug) when set.
func startApp(t testing.TB, p *pulse, b *backend, tr *transcriber, mode string, echoCancel bool, debug string) *harness.App {
	t.Helper()
	d := harness.StartXvfb(t, 1280, 800)
	cfg := t.TempDir()
	v := map[string]any{"mode": mode, "engine": "openai", "base_url": tr.url, "key": "room", "echo_cancel": echoCancel}
	preset := map[string]any{
		"id": "p-0000room", "name": "Yui", "enabled": true, "character": "yui",
		"chat_api": "push", "chat_base_url": b.srv.URL, "key": "room-key", "chat_id": "yui-0000room",
		"speech": map[string]any{"engine": "system", "rate": 1, "volume": 1},
		"voice":  v, "screen_on_turn": "never", "poke": false, "relation": 50, "life": harness.QuietLife(),
	}
	s := map[string]any{"version": 1, "active_preset": "p-0000room", "presets": []any{preset},
		"screen_look": "unset", "log_level": "debug"}
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg, "settings.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"--config-dir", cfg}
	if debug != "" {
		args = append(args, "--voice-debug", debug)
	}
	env := append(append([]string{}, p.Env...), "DISPLAY="+d.Name)
	a := harness.WatchApp(t, d, cfg, harness.Start(t, env, filepath.Join(harness.BinDir(t), "yui"), args...))
	a.WaitRecord(30*time.Second, "audio_open", nil)
	a.WaitRecord(30*time.Second, "voice_start", map[string]string{"mode": mode, "echo_cancel": fmt.Sprint(echoCancel)})
	b.connected()
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	return a
}
