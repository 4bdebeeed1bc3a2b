package speech

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// Voice is one voice an engine can speak with: ID is what the preset's
// speech.voice holds and the engine is given, Language its language or
// locale ("" when the engine does not say), Name what the user reads.
type Voice struct {
	ID       string
	Language string
	Name     string
}

// Engine names of a preset's speech.engine.
const (
	EngineSystem  = "system"
	EngineOpenAI  = "openai"
	EngineNone    = "none"
	EngineCommand = "command"
)

// OpenAIVoices are the voices of OpenAI's speech endpoint, offered for the
// openai engine. Compatible servers (Kokoro, openedai-speech) have others,
// which the settings window takes as free text.
var openAIVoices = []string{"alloy", "ash", "ballad", "coral", "echo", "fable", "nova", "onyx", "sage", "shimmer", "verse"}

// ErrNoSystemVoice is the error of Voices for the system engine when no
// speech program is installed.
var ErrNoSystemVoice = errors.New("no system voice is installed (espeak-ng on Linux, say on macOS, SAPI on Windows)")

// voiceListWait bounds how long a speech program may take to list its voices.
const voiceListWait = 10 * time.Second

// Voices lists the voices of engine: the system synth's (espeak-ng
// --voices, say -v '?', SAPI's installed voices), the usual names for
// openai, and none for the none and command engines (a command picks its
// own voice). It runs a program for the system engine: call it off the UI
// goroutine.
func Voices(ctx context.Context, engine string) ([]Voice, error) {
	switch engine {
	case EngineSystem, "":
		return systemVoices(ctx)
	case EngineOpenAI:
		vs := make([]Voice, len(openAIVoices))
		for i, id := range openAIVoices {
			vs[i] = Voice{ID: id, Language: "multilingual", Name: strings.ToUpper(id[:1]) + id[1:]}
		}
		return vs, nil
	case EngineNone, EngineCommand, EngineGPTSoVITS, EnginePiper:
		// A server's voices come with the server found (localserver).
		return nil, nil
	}
	return nil, fmt.Errorf("unknown speech engine %q (system, openai, gpt-sovits, piper, command or none)", engine)
}

func systemVoices(ctx context.Context) ([]Voice, error) {
	s, ok := FindSystem("", 1)
	if !ok {
		return nil, ErrNoSystemVoice
	}
	ctx, cancel := context.WithTimeout(ctx, voiceListWait)
	defer cancel()
	var cmd *exec.Cmd
	switch s.kind {
	case kindSay:
		cmd = exec.CommandContext(ctx, s.Program, "-v", "?")
	case kindSAPI:
		cmd = exec.CommandContext(ctx, s.Program, "-NoProfile", "-NonInteractive", "-Command",
			"Add-Type -AssemblyName System.Speech; (New-Object System.Speech.Synthesis.SpeechSynthesizer).GetInstalledVoices() | "+
				"ForEach-Object { $_.VoiceInfo.Name + \"`t\" + $_.VoiceInfo.Culture.Name }")
	default:
		cmd = exec.CommandContext(ctx, s.Program, "--voices")
	}
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("listing the voices of %s: %w", s.kind, err)
	}
	return parseVoices(s.kind, out), nil
}

// parseVoices reads a voice list: espeak-ng's table (the language column,
// which -v takes, and the voice name), say's lines (the name before the
// locale), SAPI's "name<TAB>culture" lines.
func parseVoices(kind string, out []byte) []Voice {
	var voices []Voice
	sc := bufio.NewScanner(bytes.NewReader(out))
	first := true
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		switch kind {
		case kindEspeak:
			if first { // the header row
				first = false
				continue
			}
			f := strings.Fields(line)
			if len(f) < 2 {
				continue
			}
			v := Voice{ID: f[1], Language: f[1], Name: f[1]}
			if len(f) >= 4 {
				v.Name = strings.ReplaceAll(f[3], "_", " ")
			}
			voices = append(voices, v)
		case kindSay:
			head, _, _ := strings.Cut(line, "#")
			f := strings.Fields(head)
			if len(f) >= 2 {
				name := strings.Join(f[:len(f)-1], " ")
				voices = append(voices, Voice{ID: name, Language: f[len(f)-1], Name: name})
			}
		default:
			name, culture, _ := strings.Cut(line, "\t")
			name = strings.TrimSpace(name)
			voices = append(voices, Voice{ID: name, Language: strings.TrimSpace(culture), Name: name})
		}
	}
	return voices
}
