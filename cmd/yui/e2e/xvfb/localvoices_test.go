//go:build e2e

package xvfb

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
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
	"yui/transport/localserver"
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
	kokoro := &localservertest.Kokoro{Voices: []string{"af_bella", "af_sky", "jf_alpha"}}
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

// TestLocalSpeechServersPitch: each speech server and version of
// localservertest's table (fakes written from each server's code), alone
// on its usual port, is named once by yui servers, with its version; a
// preset pointed at it as the Speech tab points one speaks a reply that
// --audio-out holds at the pitch the server made, within 3% (a 22050 Hz
// answer played at 24 kHz is 9% high).
func TestLocalSpeechServersPitch(t *testing.T) {
	if _, err := exec.LookPath("sox"); err != nil {
		t.Fatal("sox is missing: .ci/deps.sh test installs it")
	}
	d := harness.StartXvfb(t, 1280, 800)
	yui := filepath.Join(harness.BinDir(t), "yui")
	for _, row := range localservertest.Servers() {
		if row.Rate == 0 {
			continue
		}
		t.Run(row.Name, func(t *testing.T) {
			url := serveAudio(t, row.Port, row.New())
			out, err := exec.Command(yui, "servers", "--ports", strconv.Itoa(row.Port)).Output()
			if err != nil {
				t.Fatalf("yui servers: %v", err)
			}
			name := strings.TrimSpace(row.Kind + " " + row.Version)
			var lines []string
			for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				if strings.HasPrefix(l, "speech\t") {
					lines = append(lines, l)
				}
			}
			if len(lines) != 1 || strings.Split(lines[0], "\t")[1] != name {
				t.Fatalf("yui servers named the speech server %q, want %q once:\n%s", lines, name, out)
			}
			if row.NoSpeech != "" {
				t.Skip(row.NoSpeech)
			}
			found, ok := localserver.FirstAudio(localserver.ScanAudio(context.Background(),
				localserver.AudioOptions{Ports: []int{row.Port}}), localserver.ServiceSpeech)
			if !ok || !strings.HasPrefix(found.URL, url) {
				t.Fatalf("found %+v at %s", found, url)
			}
			speech := map[string]any{"engine": string(found.Engine), "base_url": found.URL, "model": found.Model,
				"rate": 1, "volume": 1}
			if len(found.Offers) > 0 {
				speech["voice"] = found.Offers[0]
			}
			if found.Engine == localserver.EngineGPTSoVITS {
				speech["ref_audio"], speech["ref_text"], speech["ref_lang"] = "/clips/yui.wav", "Hello there.", "en"
			}
			s := harness.StartSim(t, harness.FreePort(t), "sim-key", "echo")
			cfg := t.TempDir()
			harness.WriteSettings(t, cfg, harness.Preset{ID: "p-1", Name: "Yui", Enabled: true, ChatAPI: "push",
				ChatBaseURL: s.Url, Key: "sim-key", ChatID: "yui-0000abcd"})
			st := harness.ReadSettings(t, cfg)
			p := st["presets"].([]any)[0].(map[string]any)
			p["speech"], p["life"] = speech, harness.QuietLife()
			data, _ := json.Marshal(st)
			if err := os.WriteFile(filepath.Join(cfg, "settings.json"), data, 0o600); err != nil {
				t.Fatal(err)
			}
			wav := filepath.Join(harness.Artifacts(t), strings.NewReplacer(" ", "-", "/", "-", "(", "", ")", "", "+", "plus").Replace(row.Name)+".wav")
			a := harness.StartYuiIn(t, d, cfg, "", "--audio-out", wav, "--verbose")
			a.WaitRecord(30*time.Second, "ws_ready", nil)
			a.Talk("hello from the speech server")
			turn := a.WaitRecord(20*time.Second, "turn", map[string]string{"spoke_text": "false"})
			a.WaitRecord(60*time.Second, "speech_done", map[string]string{"turn_id": turn.Str("turn_id")})
			a.Proc.Stop()
			a.WaitRecord(10*time.Second, "audio_out_written", nil)
			for _, r := range a.Log() {
				if r.Str("msg") == "speech_failed" || r.Str("outcome") == "failed" {
					t.Fatalf("speech failed: %v", r)
				}
			}
			stat := soxStat(t, wav)
			freq := stat["Rough   frequency"]
			t.Logf("%s spoke through %s at %.1f Hz", found.Name(), found.URL, freq)
			if math.Abs(freq-localservertest.ToneHz)/localservertest.ToneHz > 0.03 {
				t.Errorf("%s: the reply at %.0f Hz; the server made %d Hz at %d Hz", wav, freq, localservertest.ToneHz, row.Rate)
			}
		})
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
