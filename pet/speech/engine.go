package speech

import (
	"errors"
	"fmt"
	"path/filepath"

	"yui/pet/audio"
	"yui/pet/cmdline"
	"yui/pet/settings"
)

// The engine factory: which engine a preset's speech settings get
// (docs/product.md §6, docs/voices.md). The app builds one per connection
// on the pet's player, and one for the settings window's Test button.

// New builds the engine of sp playing on p; name is the engine used
// ("system (…)", "piper (server)", …), for the log. language is the app's
// language (pet/settings' Language), which AllTalk's XTTS speaks in. An
// engine that cannot be built — a system voice that is not installed, a
// command that does not split, a Piper model that is not there — gives
// the none engine, its name and the reason.
func New(sp settings.Speech, p *audio.Player, language string) (e Engine, name string, err error) {
	if e, name, ok, err := newLocal(sp, p, language); ok {
		return e, name, err
	}
	switch sp.Engine {
	case settings.SpeechEngineNone:
		return NewNone(nil), settings.SpeechEngineNone, nil
	case settings.SpeechEngineOpenAI:
		return NewAudio(&OpenAI{
			BaseURL: sp.BaseURL, Key: sp.Key, Model: sp.Model, Voice: sp.Voice, Speed: sp.Rate,
		}, p), settings.SpeechEngineOpenAI, nil
	case settings.SpeechEngineCommand:
		args, err := cmdline.Split(sp.Command)
		if err == nil && len(args) == 0 {
			err = errors.New("is empty")
		}
		if err != nil {
			return NewNone(nil), settings.SpeechEngineNone, fmt.Errorf("speech.command: %w", err)
		}
		return NewAudio(&Command{Args: args, Rate: sp.CommandRate}, p), settings.SpeechEngineCommand + " (" + filepath.Base(args[0]) + ")", nil
	}
	if sys, ok := FindSystem(sp.Voice, sp.Rate); ok {
		return NewAudio(sys, p), settings.SpeechEngineSystem + " (" + sys.Name() + ")", nil
	}
	return NewNone(nil), settings.SpeechEngineNone, errors.New("no system voice is installed (espeak-ng on Linux)")
}

// newLocal builds the engines of the local speech servers
// (docs/voices.md): gpt-sovits, piper and alltalk. ok is false for any
// other engine (New builds those). Each engine keeps one client for its
// server.
func newLocal(sp settings.Speech, p *audio.Player, language string) (e Engine, name string, ok bool, err error) {
	switch sp.Engine {
	case settings.SpeechEngineGPTSoVITS:
		return NewAudio(&GPTSoVITS{
			BaseURL: sp.BaseURL, RefAudio: sp.RefAudio, RefText: sp.RefText, RefLang: sp.RefLang,
			Speed: sp.Rate, Client: NewServerClient(),
		}, p), settings.SpeechEngineGPTSoVITS, true, nil
	case settings.SpeechEngineAllTalk:
		// XTTS speaks the sentence in the language it is told: the app's
		// (docs/product.md §13), where the replies are.
		return NewAudio(&AllTalk{BaseURL: sp.BaseURL, Voice: sp.Voice,
				Language: AllTalkLanguage(language), Client: NewServerClient()}, p),
			settings.SpeechEngineAllTalk, true, nil
	case settings.SpeechEnginePiper:
		if sp.PiperModel == "" {
			return NewAudio(&PiperHTTP{
				BaseURL: sp.BaseURL, Voice: sp.Voice, Speed: sp.Rate, Client: NewServerClient(),
			}, p), "piper (server)", true, nil
		}
		c, err := PiperCommand(sp.PiperProgram, sp.PiperModel)
		if err != nil {
			return NewNone(nil), settings.SpeechEngineNone, true, fmt.Errorf("speech.piper_model: %w", err)
		}
		return NewAudio(c, p), "piper (" + c.Name() + ")", true, nil
	}
	return nil, "", false, nil
}
