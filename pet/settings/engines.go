package settings

import (
	"slices"
	"strings"
)

// The engines of the local speech and transcription servers people run
// (docs/voices.md, docs/product.md §6 and §7) and the settings they need.

// Speech engines of a preset's speech.engine.
const (
	SpeechEngineSystem    = "system"
	SpeechEngineOpenAI    = "openai"
	SpeechEngineGPTSoVITS = "gpt-sovits"
	SpeechEnginePiper     = "piper"
	SpeechEngineAllTalk   = "alltalk" // AllTalk v1's own API; v2 is openai
	SpeechEngineCommand   = "command"
	SpeechEngineNone      = "none"
)

// Voice engines of a preset's voice.engine.
const (
	VoiceEngineOpenAI     = "openai"
	VoiceEngineWhisperCpp = "whisper.cpp"
	VoiceEngineCommand    = "command"
)

// SpeechEngines and VoiceEngines are every engine a preset may name.
var (
	SpeechEngines = []string{SpeechEngineSystem, SpeechEngineOpenAI, SpeechEngineGPTSoVITS, SpeechEnginePiper, SpeechEngineAllTalk, SpeechEngineCommand, SpeechEngineNone}
	VoiceEngines  = []string{VoiceEngineOpenAI, VoiceEngineWhisperCpp, VoiceEngineCommand}
)

// SpeechServer holds the speech settings of the local servers' engines;
// it is part of Speech, its fields inline in "speech".
type SpeechServer struct {
	// RefAudio is gpt-sovits' reference clip, a path on the server's
	// machine (the server reads it); RefText is what is said in it and
	// RefLang its language ("en", "ja", "zh", "ko", "yue", "auto").
	RefAudio string `json:"ref_audio,omitempty"`
	RefText  string `json:"ref_text,omitempty"`
	RefLang  string `json:"ref_lang,omitempty"`
	// PiperModel is the piper engine's voice model (an .onnx file) when
	// Yui runs the Piper program itself; "" with a base_url speaks
	// through Piper's HTTP server. PiperProgram is the program ("" is
	// piper on the PATH).
	PiperModel   string `json:"piper_model,omitempty"`
	PiperProgram string `json:"piper_program,omitempty"`
}

// gptSoVITSLangs are the languages api_v2 takes for text_lang and
// prompt_lang (GPT-SoVITS' tts_infer.yaml languages, v2 and later).
var gptSoVITSLangs = []string{"auto", "auto_yue", "en", "zh", "ja", "ko", "yue", "all_zh", "all_ja", "all_ko", "all_yue"}

// speechNeedsURL reports whether the engine speaks to a server at base_url.
func speechNeedsURL(sp Speech) bool {
	switch sp.Engine {
	case SpeechEngineOpenAI, SpeechEngineGPTSoVITS, SpeechEngineAllTalk:
		return true
	}
	// piper: a model or a server, which validateServers asks for.
	return false
}

// voiceNeedsURL reports whether the voice engine sends to base_url.
func voiceNeedsURL(v Voice) bool {
	return v.Engine == VoiceEngineOpenAI || v.Engine == VoiceEngineWhisperCpp
}

// validateServers reports the local servers' fields that cannot work.
func (p *Preset) validateServers(bad func(field string, why *Invalid)) {
	sp := p.Speech
	if sp.Engine == SpeechEngineGPTSoVITS && strings.TrimSpace(sp.RefAudio) == "" {
		bad("speech.ref_audio", invalid(CodeRefAudio))
	}
	if l := sp.RefLang; l != "" && !slices.Contains(gptSoVITSLangs, strings.ToLower(l)) {
		bad("speech.ref_lang", oneOf(gptSoVITSLangs...))
	}
	for field, v := range map[string]string{"speech.ref_audio": sp.RefAudio, "speech.ref_text": sp.RefText,
		"speech.piper_model": sp.PiperModel, "speech.piper_program": sp.PiperProgram} {
		if strings.ContainsAny(v, "\x00\n") {
			bad(field, invalid(CodeOneLine))
		}
	}
	if sp.Engine == SpeechEnginePiper && strings.TrimSpace(sp.PiperModel) == "" && strings.TrimSpace(sp.BaseURL) == "" {
		bad("speech.piper_model", invalid(CodePiperModel))
	}
}
