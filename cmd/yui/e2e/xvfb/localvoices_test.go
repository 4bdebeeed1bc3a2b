//go:build e2e

package xvfb

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
	"yui/transport/localserver/localservertest"
)

// The engines' own ports (transport/localserver's AudioPorts).
const kokoroPort, gptSoVITSPort, whisperCppPort = 8880, 9880, 8080

// serveAudio binds h on 127.0.0.1:port, the port Yui asks; a port already
// held on this machine skips the test, saying which.
func serveAudio(t *testing.T, port int, h http.Handler) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		t.Skipf("port %d is taken by something else on this machine (%v): the fake server cannot bind it", port, err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return "http://" + l.Addr().String()
}

// TestLocalVoiceServers: with fakes of Kokoro-FastAPI, GPT-SoVITS and
// whisper.cpp's server on their own ports, a hands-free turn is heard by
// whisper.cpp and answered in GPT-SoVITS's voice, played from its first
// chunk while the server still holds the rest; the Speech tab finds all
// three when it opens; yui servers and yui voices list them.
func TestLocalVoiceServers(t *testing.T) {
	if _, err := exec.LookPath("sox"); err != nil {
		t.Fatal("sox is missing: .ci/deps.sh test installs it")
	}
	kokoro := &localservertest.Kokoro{}
	gpt := &localservertest.GPTSoVITS{}
	whisper := &localservertest.WhisperCpp{Text: voiceSentence}
	kokoroURL := serveAudio(t, kokoroPort, kokoro)
	gptURL := serveAudio(t, gptSoVITSPort, gpt)
	whisperURL := serveAudio(t, whisperCppPort, whisper)
	voiceIn := spokenFile(t)

	d := harness.StartXvfb(t, 1280, 800)
	s := harness.StartSim(t, harness.FreePort(t), "sim-key", "echo")
	cfg := t.TempDir()
	writeVoiceSettings(t, cfg, map[string]any{"mode": "hands_free", "engine": "whisper.cpp", "base_url": whisperURL})
	st := harness.ReadSettings(t, cfg)
	p := st["presets"].([]any)[0].(map[string]any)
	p["chat_base_url"] = s.Url
	p["life"] = harness.QuietLife()
	p["speech"] = map[string]any{"engine": "gpt-sovits", "base_url": gptURL, "rate": 1, "volume": 1,
		"ref_audio": "/clips/yui.wav", "ref_text": "Hello there, I am Yui.", "ref_lang": "en"}
	data, _ := json.Marshal(st)
	if err := os.WriteFile(filepath.Join(cfg, "settings.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	wav := filepath.Join(harness.Artifacts(t), "gpt-sovits.wav")
	gpt.Hold.Hold() // the first chunk only, until the pet is heard speaking
	a := harness.StartYuiIn(t, d, cfg, "sim-key", "--voice-in", voiceIn, "--audio-out", wav)
	t.Cleanup(func() {
		if t.Failed() {
			for _, r := range a.Log() {
				b, _ := json.Marshal(r)
				t.Logf("log: %s", b)
			}
		}
	})
	a.WaitRecord(30*time.Second, "ws_ready", nil)

	// Heard by whisper.cpp: the turn is its transcript, word for word.
	turn := a.WaitRecord(60*time.Second, "turn", map[string]string{"trigger": "user voice"})
	id := turn.Str("turn_id")
	var frame map[string]any
	harness.WaitFor(t, 10*time.Second, "the turn frame at the simulator", func() bool {
		for _, f := range s.Frames("turn") {
			if f["turn_id"] == id {
				frame = f
				return true
			}
		}
		return false
	})
	if frame["text"] != voiceSentence {
		t.Fatalf("turn text %q, want whisper.cpp's %q", frame["text"], voiceSentence)
	}
	if reqs := whisper.Requests.All(); len(reqs) == 0 || reqs[0]["response_format"] != "json" || reqs[0]["file_bytes"] == "0" {
		t.Fatalf("whisper.cpp was asked %v", reqs)
	}

	// Spoken by GPT-SoVITS: playback starts on the first chunk, before the
	// server has sent the rest.
	a.WaitRecord(30*time.Second, "audio_out_sentence", map[string]string{"text": voiceSentence})
	// (A filler line may be asked for too, while the turn waits.)
	var r map[string]string
	for _, q := range gpt.Requests.All() {
		if q["text"] == voiceSentence {
			r = q
		}
	}
	if r == nil {
		t.Fatalf("GPT-SoVITS was never asked for the reply: %v", gpt.Requests.All())
	}
	if r["streaming_mode"] != "true" || r["ref_audio_path"] != "/clips/yui.wav" ||
		r["prompt_text"] != "Hello there, I am Yui." || r["prompt_lang"] != "en" || r["text_lang"] != "en" {
		t.Fatalf("GPT-SoVITS was asked %v", r)
	}
	gpt.Hold.Release()
	a.WaitRecord(30*time.Second, "speech_done", map[string]string{"turn_id": id})

	// The Speech tab asks the ports when it opens and lists all three.
	scans := a.Count("audio_server_scan", nil)
	x, y := openSettingsFromMenu(a)
	clickTab(t, a, x, y, "Speech", 520, 536, 552, 568)
	harness.WaitFor(t, 10*time.Second, "a scan when the Speech tab opened", func() bool { return a.Count("audio_server_scan", nil) > scans })
	for _, want := range []map[string]string{
		{"url": kokoroURL + "/v1", "kind": "Kokoro-FastAPI", "service": "speech"},
		{"url": gptURL, "kind": "GPT-SoVITS", "service": "speech"},
		{"url": whisperURL, "kind": "whisper.cpp", "service": "transcription"},
	} {
		a.WaitRecord(5*time.Second, "audio_server_found", want)
	}
	a.WaitRecord(5*time.Second, "settings_audio_servers", map[string]string{"speech": "2", "transcription": "1"})
	d.Screenshot(t, "speech-tab-servers")

	a.Proc.Stop()
	a.WaitRecord(10*time.Second, "audio_out_written", nil)
	stat := soxStat(t, wav)
	rms := stat["RMS     amplitude"]
	if rms == 0 {
		rms = stat["RMS amplitude"]
	}
	if freq := stat["Rough   frequency"]; rms < 0.05 || freq < 250 || freq > 350 {
		t.Errorf("the reply in %s: RMS %.3f, frequency %.0f Hz; want GPT-SoVITS's %d Hz tone", wav, rms, freq, localservertest.ToneHz)
	}

	yui := filepath.Join(harness.BinDir(t), "yui")
	ports := fmt.Sprintf("%d,%d,%d", kokoroPort, gptSoVITSPort, whisperCppPort)
	out, err := exec.Command(yui, "servers", "--ports", ports).Output()
	if err != nil {
		t.Fatalf("yui servers: %v", err)
	}
	for _, want := range []string{
		"speech\tKokoro-FastAPI\t" + kokoroURL + "/v1\tvoices: af_bella, af_sky, jf_alpha",
		"speech\tGPT-SoVITS\t" + gptURL + "\t-",
		"transcription\twhisper.cpp\t" + whisperURL + "\t-",
	} {
		if !strings.Contains(string(out), want+"\n") {
			t.Errorf("yui servers printed no line %q:\n%s", want, out)
		}
	}
	out, err = exec.Command(yui, "voices", "--engine", "openai", "--base-url", kokoroURL+"/v1").Output()
	if err != nil || string(out) != "af_bella\ten-US\tBella\naf_sky\ten-US\tSky\njf_alpha\tja\tAlpha\n" {
		t.Errorf("yui voices at Kokoro: %v\n%s", err, out)
	}
}

// clickTab clicks the settings window's tab named name, trying each x in
// turn until the app logs the tab shown (its place depends on the font).
func clickTab(t *testing.T, a *harness.App, x, y int, name string, xs ...int) {
	t.Helper()
	for _, tx := range xs {
		harness.Click(t, a.D, x+tx, y+harness.TabY)
		if harness.WaitForOr(time.Second, func() bool { return a.Count("settings_tab", map[string]string{"tab": name}) > 0 }) {
			return
		}
	}
	a.D.Screenshot(t, "no-"+strings.ToLower(name)+"-tab")
	t.Fatalf("no click on %v found the %s tab (screenshot no-%s-tab)", xs, name, strings.ToLower(name))
}
