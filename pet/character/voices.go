package character

import (
	"runtime"
	"strings"
)

// A pack's "speech" block names a suggested voice per engine, and for the
// system and openai engines per program or server, since a voice's name
// means nothing to another synthesiser:
//
//	"speech": {"voices": {"espeak-ng": "en-us+f2", "sapi": "Microsoft Zira Desktop",
//	           "kokoro": "af_bella", "piper": "en_US-amy-medium", "openai": "nova",
//	           "alltalk": "female_01.wav"}}
//
// "alltalk" names one of the wav files AllTalk v1 lists at /api/voices
// (the voices folder it ships: female_01.wav … male_05.wav); AllTalk v2
// is spoken to through its OpenAI endpoint, the "openai" key.
// "system" still names a voice for whichever system synthesiser runs.

// VoiceKeys are the names a pack's speech.voices may use.
var VoiceKeys = []string{"system", "espeak-ng", "say", "sapi", "openai", "kokoro", "piper", "gpt-sovits", "alltalk"}

// SystemKey is the system engine's synthesiser on this OS, as VoiceKeys
// names it (pet/speech.FindSystem picks the same program).
func SystemKey() string {
	switch runtime.GOOS {
	case "windows":
		return "sapi"
	case "darwin":
		return "say"
	}
	return "espeak-ng"
}

// Suggest is the pack's voice for a preset's speech engine and model
// (speech.model: "kokoro" is Kokoro-FastAPI's), the most specific name
// first; "" when the pack names none.
func (s Speech) Suggest(engine, model string) string {
	var keys []string
	switch engine {
	case "system", "":
		keys = []string{SystemKey(), "system"}
	case "openai":
		if strings.Contains(strings.ToLower(model), "kokoro") {
			keys = append(keys, "kokoro")
		}
		keys = append(keys, "openai")
	default:
		keys = []string{engine}
	}
	for _, k := range keys {
		if v := s.Voices[k]; v != "" {
			return v
		}
	}
	return ""
}
