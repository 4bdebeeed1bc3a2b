package app

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"yui/pet/audio"
	"yui/pet/settings"
	"yui/pet/speech"
	"yui/pet/voice"
)

// halfSecondWAV is the known answer of the fakes: 0.5 s of a 300 Hz tone,
// 16-bit mono at 32 kHz (GPT-SoVITS's rate).
func halfSecondWAV() []byte {
	const rate, n = 32000, 16000
	h := make([]byte, 44)
	copy(h, "RIFF")
	binary.LittleEndian.PutUint32(h[4:], 36+2*n)
	copy(h[8:], "WAVEfmt ")
	binary.LittleEndian.PutUint32(h[16:], 16)
	binary.LittleEndian.PutUint16(h[20:], 1)
	binary.LittleEndian.PutUint16(h[22:], 1)
	binary.LittleEndian.PutUint32(h[24:], rate)
	binary.LittleEndian.PutUint32(h[28:], rate*2)
	binary.LittleEndian.PutUint16(h[32:], 2)
	binary.LittleEndian.PutUint16(h[34:], 16)
	copy(h[36:], "data")
	binary.LittleEndian.PutUint32(h[40:], 2*n)
	for i := range n {
		h = binary.LittleEndian.AppendUint16(h, uint16(int16(10000*math.Sin(float64(i)*2*math.Pi*300/rate))))
	}
	return h
}

// A gpt-sovits preset (a fake of api_v2.py's POST /tts) and a piper one
// (a fake of Piper's HTTP server, GET /?text=) speak into --audio-out.
func TestLocalServerEnginesReachAudioOut(t *testing.T) {
	wav := halfSecondWAV()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/tts" && r.Method == http.MethodPost:
			var req map[string]any
			if json.NewDecoder(r.Body).Decode(&req) != nil || req["ref_audio_path"] != "/clips/yui.wav" || req["text"] == "" {
				w.WriteHeader(http.StatusBadRequest)
				io.WriteString(w, `{"message":"ref_audio_path is required"}`)
				return
			}
		case r.URL.Path == "/" && r.Method == http.MethodGet && r.URL.Query().Get("text") != "":
		default:
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "audio/wav")
		w.Write(wav)
	}))
	defer srv.Close()
	for _, sp := range []settings.Speech{
		{Engine: settings.SpeechEngineGPTSoVITS, BaseURL: srv.URL, Rate: 1, Volume: 1,
			SpeechServer: settings.SpeechServer{RefAudio: "/clips/yui.wav", RefText: "Hello.", RefLang: "en"}},
		{Engine: settings.SpeechEnginePiper, BaseURL: srv.URL, Rate: 1, Volume: 1},
	} {
		t.Run(sp.Engine, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "out.wav")
			log := slog.New(slog.DiscardHandler)
			out, err := openAudio(path, log)
			if err != nil {
				t.Fatal(err)
			}
			y := &yui{log: log, audio: out}
			o := y.audio.speechOut(sp, log)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if err := speech.Speak(ctx, o.engine, "Nice to meet you."); err != nil {
				t.Fatal(err)
			}
			o.close()
			out.close()
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			st := audio.NewStream()
			if err := audio.Decode(f, audio.Format{}, st); err != nil {
				t.Fatal(err)
			}
			var sum float64
			var loud int
			for _, x := range st.Unread() {
				sum += float64(x) * float64(x)
				if math.Abs(float64(x)) > 0.1 {
					loud++
				}
			}
			// The fake's half second, resampled to the mixer's rate.
			if secs := float64(loud) / audio.Rate; secs < 0.3 || secs > 0.6 {
				t.Errorf("%.2f s of the fake's tone in --audio-out, want about 0.5", secs)
			}
		})
	}
}

func TestLocalTranscriberNames(t *testing.T) {
	tr, err := newTranscriber(settings.Voice{Engine: "whisper.cpp", BaseURL: "http://127.0.0.1:8080"})
	if _, ok := tr.(*voice.WhisperCpp); !ok || err != nil {
		t.Errorf("whisper.cpp transcriber %T, %v", tr, err)
	}
}
