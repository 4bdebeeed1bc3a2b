package app

import (
	"fmt"

	"yui/pet/audio"
	"yui/pet/settings"
	"yui/pet/speech"
	"yui/windows/i18n"
)

// localEngine builds the engines of the local speech servers
// (docs/voices.md): gpt-sovits, piper and alltalk. ok is false for any other
// engine (newEngine builds those). Each engine keeps one client for its
// server.
func localEngine(sp settings.Speech, p *audio.Player) (e speech.Engine, name string, ok bool, err error) {
	switch sp.Engine {
	case settings.SpeechEngineGPTSoVITS:
		return speech.NewAudio(&speech.GPTSoVITS{
			BaseURL: sp.BaseURL, RefAudio: sp.RefAudio, RefText: sp.RefText, RefLang: sp.RefLang,
			Speed: sp.Rate, Client: speech.NewServerClient(),
		}, p), settings.SpeechEngineGPTSoVITS, true, nil
	case settings.SpeechEngineAllTalk:
		// XTTS speaks the sentence in the language it is told: the app's
		// (docs/product.md §13), where the replies are.
		return speech.NewAudio(&speech.AllTalk{BaseURL: sp.BaseURL, Voice: sp.Voice,
				Language: speech.AllTalkLanguage(string(i18n.Current())), Client: speech.NewServerClient()}, p),
			settings.SpeechEngineAllTalk, true, nil
	case settings.SpeechEnginePiper:
		if sp.PiperModel == "" {
			return speech.NewAudio(&speech.PiperHTTP{
				BaseURL: sp.BaseURL, Voice: sp.Voice, Speed: sp.Rate, Client: speech.NewServerClient(),
			}, p), "piper (server)", true, nil
		}
		c, err := speech.PiperCommand(sp.PiperProgram, sp.PiperModel)
		if err != nil {
			return speech.NewNone(nil), engineNone, true, fmt.Errorf("speech.piper_model: %w", err)
		}
		return speech.NewAudio(c, p), "piper (" + c.Name() + ")", true, nil
	}
	return nil, "", false, nil
}
