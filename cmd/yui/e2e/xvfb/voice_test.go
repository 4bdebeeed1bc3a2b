//go:build e2e

package xvfb

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// voiceSentence is what espeak-ng says to the pet. pocketsphinx's general
// US English model hears espeak-ng's voice well enough at this speed.
const voiceSentence = "what is the weather like today"

// spokenFile is espeak-ng saying voiceSentence after two seconds of silence.
func spokenFile(t *testing.T) string {
	for _, bin := range []string{"espeak-ng", "sox", "pocketsphinx_continuous"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Fatalf("%s is missing (.ci/deps.sh test installs it)", bin)
		}
	}
	dir := t.TempDir()
	said := filepath.Join(dir, "said.wav")   // espeak-ng's own rate, 22050 Hz
	voiceIn := filepath.Join(dir, "mic.wav") // two seconds of silence first
	run := func(name string, args ...string) {
		if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
	}
	run("espeak-ng", "-v", "en-us", "-s", "150", "-w", said, voiceSentence)
	run("sox", said, voiceIn, "pad", "2", "0")
	return voiceIn
}

// TestVoiceTurnFromAFile: espeak-ng says a sentence into a WAV; yui plays
// it as the microphone (--voice-in) in hands-free mode, with the command
// engine running pocketsphinx_continuous; the simulator gets a turn frame
// with trigger "user voice" whose text shares most words with the sentence.
func TestVoiceTurnFromAFile(t *testing.T) {
	voiceIn := spokenFile(t)

	d, s, a := startVoiceYui(t, "hands_free", voiceIn)
	a.WaitRecord(30*time.Second, "voice_start", map[string]string{"mode": "hands_free", "file": "true"})
	a.WaitRecord(30*time.Second, "voice_utterance", nil)
	// The status pill said so along the way.
	a.WaitRecord(10*time.Second, "pet_pill", map[string]string{"voice": "listening"})
	a.WaitRecord(10*time.Second, "pet_pill", map[string]string{"voice": "transcribing"})
	// pocketsphinx takes a few seconds on a busy machine.
	turn := a.WaitRecord(90*time.Second, "turn", map[string]string{"trigger": "user voice", "spoke_text": "false"})
	id := turn.Str("turn_id")

	var got map[string]any
	harness.WaitFor(t, 10*time.Second, "the turn frame at the simulator", func() bool {
		for _, f := range s.Frames("turn") {
			if f["turn_id"] == id {
				got = f
				return true
			}
		}
		return false
	})
	checkVoiceFrame(t, got)
	// The composer shows what was heard.
	a.WaitRecord(20*time.Second, "push.turn_end", map[string]string{"turn_id": id})
	d.WaitShot(t, "voice-turn", 10*time.Second, harness.DrawnCheck(a.PetRect()))
}

// TestVoicePushToTalkShortcut: in push-to-talk mode, holding the global
// shortcut Ctrl+Alt+Y over the sentence makes the same turn; before the
// press the file's speech is not listened to.
func TestVoicePushToTalkShortcut(t *testing.T) {
	voiceIn := spokenFile(t)
	d, s, a := startVoiceYui(t, "push_to_talk", voiceIn)
	a.WaitRecord(30*time.Second, "pet_shortcut", map[string]string{"keys": "ctrl+alt+y"})
	a.WaitRecord(30*time.Second, "voice_start", map[string]string{"mode": "push_to_talk"})
	// The file's speech runs from 2 s to about 4 s after the capture
	// starts: the key goes down in its silence and up once it played out.
	d.Run(t, "xdotool", "keydown", "ctrl+alt+y")
	a.WaitRecord(5*time.Second, "pet_pill", map[string]string{"voice": "listening"})
	a.WaitRecord(30*time.Second, "voice_in_end", nil)
	d.Screenshot(t, "push-to-talk-held")
	d.Run(t, "xdotool", "keyup", "ctrl+alt+y")
	a.WaitRecord(10*time.Second, "pet_mic_release", map[string]string{"by": "shortcut"})
	if n := a.Count("pet_mic_press", nil); n != 1 {
		t.Fatalf("%d presses for one hold", n)
	}
	turn := a.WaitRecord(90*time.Second, "turn", map[string]string{"trigger": "user voice"})
	var got map[string]any
	harness.WaitFor(t, 10*time.Second, "the turn frame at the simulator", func() bool {
		for _, f := range s.Frames("turn") {
			if f["turn_id"] == turn.Str("turn_id") {
				got = f
				return true
			}
		}
		return false
	})
	checkVoiceFrame(t, got)
}

// startVoiceYui starts yui-sim (echo) and yui on Xvfb, the preset in voice
// mode with the pocketsphinx command engine and voiceIn as its microphone.
func startVoiceYui(t *testing.T, mode, voiceIn string) (*harness.Display, *harness.Sim, *harness.App) {
	d := harness.StartXvfb(t, 1280, 800)
	s := harness.StartSim(t, harness.FreePort(t), "sim-key", "echo")
	cfg := t.TempDir()
	writeVoiceSettings(t, cfg, map[string]any{
		"mode": mode, "engine": "command",
		"command": "pocketsphinx_continuous -logfn /dev/null -infile",
	})
	env := append(d.Env(), "YUI_KEY=sim-key")
	p := harness.Start(t, env, filepath.Join(harness.BinDir(t), "yui"), "--config-dir", cfg,
		"--chat-api", "push", "--chat-base-url", s.Url, "--voice-in", voiceIn)
	a := &harness.App{T: t, D: d, Cfg: cfg, Proc: p, Logs: harness.NewLogReader(cfg)}
	t.Cleanup(func() {
		if t.Failed() {
			for _, r := range a.Log() {
				b, _ := json.Marshal(r)
				t.Logf("log: %s", b)
			}
		}
	})
	return d, s, a
}

// checkVoiceFrame checks a spoken turn's frame: trigger user voice, and
// text sharing most words with what espeak-ng said.
func checkVoiceFrame(t *testing.T, got map[string]any) {
	t.Helper()
	cc, _ := got["client_context"].(string)
	if !strings.Contains(cc, "\ntrigger: user voice\n") {
		t.Fatalf("client_context = %q", cc)
	}
	text, _ := got["text"].(string)
	if n, of := sharedWords(text, voiceSentence); n*2 <= of {
		t.Fatalf("heard %q: %d of the %d words of %q", text, n, of, voiceSentence)
	}
	t.Logf("said %q, heard %q", voiceSentence, text)
}

// writeVoiceSettings writes a settings file whose one preset has voice v.
func writeVoiceSettings(t *testing.T, dir string, v map[string]any) {
	t.Helper()
	preset := map[string]any{
		"id": "p-0000voic", "name": "Yui", "enabled": true, "character": "yui",
		"chat_api": "push", "chat_base_url": "http://127.0.0.1:1", "chat_id": "yui-0000voic",
		"speech": map[string]any{"engine": "none", "rate": 1},
		"voice":  v, "screen_on_turn": "never", "poke": true, "relation": 50,
	}
	s := map[string]any{"version": 1, "active_preset": "p-0000voic", "presets": []any{preset},
		"screen_look": "unset", "log_level": "debug"} // debug records: voice_in_end
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// sharedWords counts the words of want that appear in got.
func sharedWords(got, want string) (n, of int) {
	have := map[string]bool{}
	for _, w := range strings.Fields(strings.ToLower(got)) {
		have[strings.Trim(w, ".,?!")] = true
	}
	for _, w := range strings.Fields(want) {
		of++
		if have[w] {
			n++
		}
	}
	return n, of
}

// TestVoiceNoMicrophone: hands-free on a machine with no capture device
// (Xvfb, no sound card) logs one line, says "no microphone" in the pill,
// and typed turns keep working.
func TestVoiceNoMicrophone(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	s := harness.StartSim(t, harness.FreePort(t), "sim-key", "echo")
	cfg := t.TempDir()
	writeVoiceSettings(t, cfg, map[string]any{"mode": "hands_free", "engine": "command", "command": "true"})
	p := harness.Start(t, append(d.Env(), "YUI_KEY=sim-key"), filepath.Join(harness.BinDir(t), "yui"), "--config-dir", cfg,
		"--chat-api", "push", "--chat-base-url", s.Url)
	a := &harness.App{T: t, D: d, Cfg: cfg, Proc: p, Logs: harness.NewLogReader(cfg)}
	a.WaitRecord(30*time.Second, "voice_start", nil)
	if !harness.WaitForOr(10*time.Second, func() bool { _, ok := harness.FindRecord(a.Log(), "voice_no_microphone", nil); return ok }) {
		t.Skip("this machine has a capture device")
	}
	a.WaitRecord(10*time.Second, "pet_pill", map[string]string{"voice": "no microphone"})
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	a.Talk("hello yui")
	a.WaitRecord(20*time.Second, "turn", map[string]string{"trigger": "user message"})
	if n := a.Count("voice_no_microphone", nil); n != 1 {
		t.Fatalf("%d voice_no_microphone lines", n)
	}
}
