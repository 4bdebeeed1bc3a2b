package app

import (
	"context"
	"errors"
	"fmt"
	"io"

	"yui/pet/speech"
	"yui/pet/voice"
)

// PrintVoices writes the voices of a speech engine (system when engine is
// ""), one a line: id, language and name separated by tabs (yui voices);
// the openai engine's server at base lists its own when it can
// (speech.VoicesAt). An engine with no voices to list, or a machine with
// no speech program, says so on a line of its own and is no error.
func PrintVoices(ctx context.Context, w io.Writer, engine, base string) error {
	if engine == "" {
		engine = speech.EngineSystem
	}
	vs, _, err := speech.VoicesAt(ctx, engine, base)
	switch {
	case errors.Is(err, speech.ErrNoSystemVoice):
		_, err = fmt.Fprintf(w, "# %v\n", err)
		return err
	case err != nil:
		return err
	case len(vs) == 0:
		_, err = fmt.Fprintf(w, "# the %s engine has no voices to list: %s\n", engine, noVoicesWhy(engine))
		return err
	}
	for _, v := range vs {
		lang := v.Language
		if lang == "" {
			lang = "-"
		}
		if _, err := fmt.Fprintf(w, "%s\t%s\t%s\n", v.ID, lang, v.Name); err != nil {
			return err
		}
	}
	return nil
}

func noVoicesWhy(engine string) string {
	switch engine {
	case speech.EngineCommand:
		return "the command chooses its own voice"
	case speech.EngineNone:
		return "it shows speech in the bubble only"
	case speech.EngineGPTSoVITS:
		return "it speaks in the voice of the reference clip"
	case speech.EnginePiper:
		return "the Piper server's voices are listed by yui servers"
	}
	return "none found"
}

// PrintDevices writes the audio input and output devices (yui devices),
// the default of each kind marked. A machine with no audio system says so
// and is no error.
func PrintDevices(w io.Writer) error {
	d, err := voice.ListDevices()
	if err != nil {
		_, err = fmt.Fprintf(w, "# no audio devices: %v\n", err)
		return err
	}
	for _, k := range []struct {
		title string
		list  []voice.Device
	}{{"input", d.Inputs}, {"output", d.Outputs}} {
		if _, err := fmt.Fprintf(w, "%s devices:\n", k.title); err != nil {
			return err
		}
		if len(k.list) == 0 {
			fmt.Fprintf(w, "  (none: this machine has no audio %s device)\n", k.title)
		}
		for _, dev := range k.list {
			mark := ""
			if dev.Default {
				mark = "\t(default)"
			}
			fmt.Fprintf(w, "  %s%s\n", dev.Name, mark)
		}
	}
	return nil
}
