//go:build e2e

package xvfb

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// soxStat runs `sox file -n [trim start dur] stat` and returns its figures.
func soxStat(t testing.TB, file string, trim ...string) map[string]float64 {
	t.Helper()
	args := append([]string{file, "-n"}, trim...)
	args = append(args, "stat")
	out, err := exec.Command("sox", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("sox %v: %v\n%s", args, err, out)
	}
	stats := map[string]float64{}
	re := regexp.MustCompile(`^([A-Za-z ]+?)(?:\([a-z]+\))?:\s+(-?[0-9.]+)`)
	for _, line := range strings.Split(string(out), "\n") {
		if m := re.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			v, _ := strconv.ParseFloat(m[2], 64)
			stats[strings.TrimSpace(m[1])] = v
		}
	}
	return stats
}

// TestDemoSpeaksIntoAudioOut runs `yui --demo --audio-out out.wav` under
// Xvfb (no audio device), types one turn and listens to the file: speech
// of plausible length and loudness, each sentence audible where the app
// says it lies, in the order the sentences were rendered.
func TestDemoSpeaksIntoAudioOut(t *testing.T) {
	if _, err := exec.LookPath("sox"); err != nil {
		t.Fatal("sox is missing: .ci/deps.sh test installs it")
	}
	d := harness.StartXvfb(t, 1280, 800)
	wav := filepath.Join(harness.Artifacts(t), "out.wav")
	a := startYui(t, d, "", "--demo", "--audio-out", wav, "--verbose") // debug records: speech_done
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	a.WaitRecord(10*time.Second, "speech_engine", map[string]string{"engine": "system (espeak-ng)"})

	a.Talk("hello yui")
	turn := a.WaitRecord(20*time.Second, "turn", map[string]string{"spoke_text": "false"})
	id := turn.Str("turn_id")
	a.WaitRecord(30*time.Second, "push.turn_end", map[string]string{"turn_id": id})
	// The demo's reply ends with the render's sentence; wait until it has
	// played out, then quit so the WAV is finished.
	a.WaitRecord(30*time.Second, "speech", map[string]string{"turn_id": id, "text": "That was the render closing my reply."})
	a.WaitRecord(30*time.Second, "audio_out_sentence", map[string]string{"text": "That was the render closing my reply."})
	a.WaitRecord(30*time.Second, "speech_done", map[string]string{"turn_id": id, "text": "That was the render closing my reply."})
	a.Proc.Stop()
	a.WaitRecord(10*time.Second, "audio_out_written", nil)

	all := soxStat(t, wav)
	secs, rms := all["Length"], all["RMS     amplitude"]
	if rms == 0 {
		rms = all["RMS amplitude"]
	}
	t.Logf("out.wav: %.2f s, RMS %.4f", secs, rms)
	if secs < 4 || secs > 60 {
		t.Fatalf("out.wav lasts %.2f s", secs)
	}
	if rms < 0.01 {
		t.Fatalf("out.wav RMS %.4f: silent", rms)
	}

	// What the app spoke, in order, and where each sentence lies in the file.
	var spoken, placed []string
	var at []float64
	for _, r := range a.Log() {
		switch r.Str("msg") {
		case "speech":
			spoken = append(spoken, r.Str("text"))
		case "audio_out_sentence":
			placed = append(placed, r.Str("text"))
			v, _ := r["at"].(float64)
			at = append(at, v)
		}
	}
	if !slices.Equal(spoken, placed) {
		t.Fatalf("sentences spoken %q, in the file %q", spoken, placed)
	}
	order := []string{"You said: hello yui", "Let me show you what a backend can send.", "That was the render closing my reply."}
	prev := -1
	for _, s := range order {
		i := slices.Index(placed, s)
		if i <= prev {
			t.Fatalf("%q is not after the sentences rendered before it in %q", s, placed)
		}
		prev = i
	}
	for i, s := range placed {
		if i > 0 && at[i] < at[i-1] {
			t.Fatalf("%q starts at %.2f s, before the sentence before it (%.2f s)", s, at[i], at[i-1])
		}
		dur := 0.8
		if i+1 < len(at) {
			dur = min(dur, at[i+1]-at[i])
		}
		st := soxStat(t, wav, "trim", fmt.Sprintf("%.3f", at[i]), fmt.Sprintf("%.3f", dur))
		r := st["RMS     amplitude"]
		if r == 0 {
			r = st["RMS amplitude"]
		}
		t.Logf("%6.2f s  rms %.4f  %q", at[i], r, s)
		if r < 0.005 {
			t.Fatalf("sentence %q at %.2f s is silent in the file (RMS %.4f)", s, at[i], r)
		}
	}
}

// TestSpeechCommandEngine runs yui with speech.engine "command" and
// speech.command "espeak-ng --stdout" (the README's example) against the
// echo simulator, with --audio-out: the reply is spoken through the
// command, and the file holds audible speech.
func TestSpeechCommandEngine(t *testing.T) {
	if _, err := exec.LookPath("sox"); err != nil {
		t.Fatal("sox is missing: .ci/deps.sh test installs it")
	}
	d := harness.StartXvfb(t, 1280, 800)
	s := harness.StartSim(t, harness.FreePort(t), "sim-key", "echo")
	cfg := t.TempDir()
	harness.WriteSettings(t, cfg, harness.Preset{ID: "p-1", Name: "Yui", Enabled: true, ChatAPI: "push", ChatBaseURL: s.Url, Key: "sim-key", ChatID: "yui-0000abcd"})
	st := harness.ReadSettings(t, cfg)
	st["presets"].([]any)[0].(map[string]any)["speech"] = map[string]any{
		"engine": "command", "command": "espeak-ng --stdout", "rate": 1, "volume": 1}
	data, _ := json.Marshal(st)
	if err := os.WriteFile(filepath.Join(cfg, "settings.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	wav := filepath.Join(harness.Artifacts(t), "command.wav")
	a := harness.StartYuiIn(t, d, cfg, "", "--audio-out", wav, "--verbose")
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	a.WaitRecord(10*time.Second, "speech_engine", map[string]string{"engine": "command (espeak-ng)"})
	a.Talk("hello from the command voice")
	turn := a.WaitRecord(20*time.Second, "turn", map[string]string{"spoke_text": "false"})
	id := turn.Str("turn_id")
	done := a.WaitRecord(60*time.Second, "speech_done", map[string]string{"turn_id": id})
	t.Logf("speech_done: %v", done)
	a.Proc.Stop()
	a.WaitRecord(10*time.Second, "audio_out_written", nil)
	for _, r := range a.Log() {
		if r.Str("msg") == "speech_failed" || r.Str("outcome") == "failed" {
			t.Fatalf("speech failed: %v", r)
		}
	}
	all := soxStat(t, wav)
	secs, rms := all["Length"], all["RMS     amplitude"]
	if rms == 0 {
		rms = all["RMS amplitude"]
	}
	t.Logf("command.wav: %.2f s, RMS %.4f", secs, rms)
	if secs < 1 || rms < 0.01 {
		t.Fatalf("command.wav lasts %.2f s at RMS %.4f: no speech", secs, rms)
	}
}
