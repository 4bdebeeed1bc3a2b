package speech

import (
	"context"
	"io"
	"net/http"
	"slices"
	"strings"

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
	// Language is XTTS's language code (AllTalkLanguage); "" is "en".
	Language string
	Client   *http.Client
}

// allTalkLanguages are the language codes AllTalk v1 takes: the pattern
// of its JSONInput's language field (tts_server.py, erew123/alltalk_tts),
// XTTS v2's languages.
var allTalkLanguages = []string{"ar", "zh-cn", "cs", "nl", "en", "fr", "de", "hu", "hi", "it", "ja", "ko", "pl", "pt", "ru", "es", "tr"}

// AllTalkLanguage is the code AllTalk takes for a BCP 47 language tag
// (the app's language, pet/settings.Language): "zh-Hans" and any Chinese
// is "zh-cn", a region is dropped ("pt-BR" is "pt"); "en" for a language
// XTTS does not speak, which AllTalk would refuse.
func AllTalkLanguage(tag string) string {
	t := strings.ToLower(strings.TrimSpace(tag))
	base, _, _ := strings.Cut(strings.ReplaceAll(t, "_", "-"), "-")
	if base == "zh" || base == "cmn" {
		return "zh-cn"
	}
	if slices.Contains(allTalkLanguages, base) {
		return base
	}
	return "en"
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
	} else if !slices.Contains(allTalkLanguages, lang) {
		lang = AllTalkLanguage(lang)
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
