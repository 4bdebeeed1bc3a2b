package localserver

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// The speech and transcription servers people run beside a model server
// (docs/voices.md): ScanAudio asks their usual loopback ports at once and
// names each server by the shape of what it answers, not by its port
// alone, since 8000 (speaches, openedai-speech, vLLM) and 8080
// (whisper.cpp, llama.cpp) are shared.

// Service is what a found server offers a preset.
type Service string

// The services `yui servers` prints.
const (
	ServiceChat          Service = "chat"
	ServiceSpeech        Service = "speech"
	ServiceTranscription Service = "transcription"
)

// The speech and transcription servers ScanAudio knows.
const (
	Kokoro         Kind = "Kokoro-FastAPI"
	Piper          Kind = "Piper"
	GPTSoVITS      Kind = "GPT-SoVITS"
	AllTalk        Kind = "AllTalk"
	OpenedAISpeech Kind = "openedai-speech"
	Speaches       Kind = "speaches"
	WhisperCpp     Kind = "whisper.cpp"
)

// Engine names a preset's speech.engine or voice.engine that speaks a
// server's API (pet/settings/engines.go holds the same names).
type Engine string

// The engines a found server is used through.
const (
	EngineOpenAI     Engine = "openai"
	EnginePiper      Engine = "piper"
	EngineGPTSoVITS  Engine = "gpt-sovits"
	EngineAllTalk    Engine = "alltalk" // AllTalk v1's own API
	EngineWhisperCpp Engine = "whisper.cpp"
)

// AudioPort is a loopback port some speech or transcription server
// listens on by default, with the servers usually found there and how to
// start them there (docs/voices.md has the same table).
type AudioPort struct {
	Port  int
	Kinds []Kind
	Start string
}

// AudioPorts returns the usual ports, each once: a port several servers
// share is asked once, and what answers tells them apart.
func AudioPorts() []AudioPort {
	return []AudioPort{
		{8880, []Kind{Kokoro}, "`docker run -p 8880:8880 ghcr.io/remsky/kokoro-fastapi-cpu`"},
		{9880, []Kind{GPTSoVITS}, "`python api_v2.py -a 127.0.0.1 -p 9880` in GPT-SoVITS"},
		{5000, []Kind{Piper}, "`python3 -m piper.http_server -m en_US-lessac-medium`"},
		{7851, []Kind{AllTalk}, "start AllTalk (`./start_alltalk.sh`)"},
		{8000, []Kind{Speaches, OpenedAISpeech}, "`docker run -p 8000:8000 ghcr.io/speaches-ai/speaches` or openedai-speech's `docker compose up`"},
		{8080, []Kind{WhisperCpp}, "`whisper-server -m models/ggml-base.en.bin --port 8080`"},
	}
}

// AudioServer is one service a server answered with; a server that both
// speaks and transcribes (speaches) is two.
type AudioServer struct {
	Service Service
	Kind    Kind
	// Version tells apart the versions of one server whose APIs differ
	// (Piper's three servers, AllTalk v1 and v2); "" when it has one.
	Version string
	Port    int
	// URL is what the preset's base_url holds: the OpenAI base
	// (http://127.0.0.1:8880/v1) for an OpenAI-compatible server, the
	// server's root for the others.
	URL    string
	Engine Engine
	// Model is the model the engine asks for ("" is the server's own).
	Model string
	// Offers are its voices (speech) or models (transcription) as it
	// lists them; empty when it lists none (GPT-SoVITS clones a clip).
	Offers []string
}

// Name is the server with its version when it has one: "Piper 1.5+".
func (s AudioServer) Name() string {
	if s.Version == "" {
		return string(s.Kind)
	}
	return string(s.Kind) + " " + s.Version
}

// Label is how the Speech and Voice tabs name it: "Kokoro-FastAPI ·
// 67 voices".
func (s AudioServer) Label() string {
	switch n := len(s.Offers); {
	case n == 0:
		return s.Name()
	case s.Service == ServiceSpeech:
		return fmt.Sprintf("%s · %d voices", s.Name(), n)
	default:
		return fmt.Sprintf("%s · %d models", s.Name(), n)
	}
}

// AudioOptions tune ScanAudio; the zero value asks AudioPorts on
// 127.0.0.1.
type AudioOptions struct {
	// Ports to ask; nil is AudioPorts (tests give their own).
	Ports []int
	// Host must be loopback; "" is 127.0.0.1.
	Host    string
	Timeout time.Duration
	Client  *http.Client
	Logger  *slog.Logger
}

// AudioPortNumbers is AudioPorts' port numbers.
func AudioPortNumbers() []int {
	var out []int
	for _, p := range AudioPorts() {
		out = append(out, p.Port)
	}
	return out
}

// ScanAudio asks every port at once and returns what answered, in the
// order of the ports. It logs audio_server_scan and one
// audio_server_found each. It blocks for at most about two timeouts: call
// it off the UI goroutine.
func ScanAudio(ctx context.Context, o AudioOptions) []AudioServer {
	ports := o.Ports
	if ports == nil {
		ports = AudioPortNumbers()
	}
	host := o.Host
	if host == "" {
		host = "127.0.0.1"
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if !loopback(host) {
		log.Warn("audio_server_scan", "err", fmt.Sprintf("%s is not a loopback address", host))
		return nil
	}
	c := Options{Client: o.Client, Timeout: o.Timeout}.client()
	found := make([][]AudioServer, len(ports))
	var wg sync.WaitGroup
	for i, port := range ports {
		wg.Add(1)
		go func() {
			defer wg.Done()
			found[i] = askAudio(ctx, c, "http://"+joinHost(host, port), port)
		}()
	}
	wg.Wait()
	out := slices.Concat(found...)
	log.Info("audio_server_scan", "ports", ports, "found", len(out))
	for _, s := range out {
		log.Info("audio_server_found", "url", s.URL, "kind", string(s.Kind), "service", string(s.Service), "offers", len(s.Offers))
	}
	return out
}

// FirstAudio is the first found server of a service; false when none.
func FirstAudio(servers []AudioServer, sv Service) (AudioServer, bool) {
	for _, s := range servers {
		if s.Service == sv {
			return s, true
		}
	}
	return AudioServer{}, false
}

// audioOnly says whether a model list is a speech or transcription
// server's (speaches marks each model's task, its voice-activity model's
// too; openedai-speech and Kokoro-FastAPI list tts-1): the chat scan
// leaves it out, so port 8000's speech server is not taken for vLLM.
func (l modelList) audioOnly() bool {
	if len(l.Data) == 0 {
		return false
	}
	for _, m := range l.Data {
		speechID := slices.Contains([]string{"tts-1", "tts-1-hd", "kokoro", "gpt-4o-mini-tts"}, m.ID)
		if !speechID && !slices.Contains(speachesTasks, strings.ToLower(m.Task)) {
			return false
		}
	}
	return true
}
