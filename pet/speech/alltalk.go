package speech

import (
	"context"
	"io"
	"net/http"

	"yui/pet/audio"
)

// EngineAllTalk is the engine of AllTalk v1's own API (pet/settings's
// SpeechEngineAllTalk). AllTalk v2 is spoken to through its OpenAI
// endpoint, the openai engine.
const EngineAllTalk = "alltalk"

// AllTalk is the "alltalk" engine's synth: AllTalk v1's GET
// /api/tts-generate-streaming?text=&voice=&language=&output_file=
// (tts_server.py's tts_generate_streaming in erew123/alltalk_tts, v1),
// which streams a WAV: a header written by Python's wave module at
// 24 kHz, XTTS's chunks as they are made. v1 has no OpenAI endpoint.
type AllTalk struct {
	// BaseURL is the server's root, e.g. "http://127.0.0.1:7851".
	BaseURL string
	// Voice is one of GET /api/voices' wav files; "" is "female_01.wav",
	// the one AllTalk ships.
	Voice string
	// Language is XTTS's language code; "" is "en".
	Language string
	Client   *http.Client
}

// Name is "alltalk".
func (a *AllTalk) Name() string { return EngineAllTalk }

// allTalkOutput is the file AllTalk writes each sentence to (in its
// outputs folder): one name, overwritten, so its folder does not grow.
const allTalkOutput = "yui_speech.wav"

// Open asks for the sentence and returns the WAV as it streams.
func (a *AllTalk) Open(ctx context.Context, text string) (io.ReadCloser, audio.Format, error) {
	u, err := serverURL(a.BaseURL, "/api/tts-generate-streaming")
	if err != nil {
		return nil, audio.Format{}, err
	}
	voice, lang := a.Voice, a.Language
	if voice == "" {
		voice = "female_01.wav"
	}
	if lang == "" {
		lang = "en"
	}
	q := u.Query()
	q.Set("text", text)
	q.Set("voice", voice)
	q.Set("language", lang)
	q.Set("output_file", allTalkOutput)
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, audio.Format{}, err
	}
	body, err := send(a.Client, req, "GET /api/tts-generate-streaming")
	if err != nil {
		return nil, audio.Format{}, err
	}
	return wavOnly(body, "GET /api/tts-generate-streaming")
}
