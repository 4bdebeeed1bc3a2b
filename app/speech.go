package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"yui/pet"
	"yui/pet/audio"
	"yui/pet/settings"
	"yui/pet/speech"
	"yui/transport/clock"
	"yui/windows/i18n"
	"yui/windows/petwindow"
)

// Speech output wiring (docs/product.md §6): one audio context per process,
// owned here and handed to the pets as one player each; each preset's
// engine built from its speech settings (pet/speech/engine.go's New); the
// --audio-out tee.

// noDeviceNotice is what the pill says once when speech cannot be heard.
const noDeviceNotice = petwindow.NoAudioText

// SampleSentence is what the settings window's Test button speaks.
const SampleSentence = "Hello! This is how I sound with these settings."

// audioOut is the process's audio output: the mixer every pet's player
// feeds, the device playing it (or, with no device and --audio-out, a
// clock pulling it in real time), and the WAV tee.
type audioOut struct {
	log   *slog.Logger
	mixer *audio.Mixer
	file  *os.File
	wav   *audio.WAVWriter
	// opened is closed once openDevice has set device, paced and notice;
	// nil when they were set with the audioOut (tests).
	opened chan struct{}
	device *audio.Device // nil when there is no device
	paced  *audio.Paced  // pulls the mix when there is no device but a WAV
	// notice is the pill's once-only text, "" when audio is heard.
	notice string
	// farEnd is the echo canceller's reference (handsfree.go).
	farEnd farEnd
}

// openAudio opens the audio device and, when path is set, the WAV file
// the mix is also written to. No device is not an error: one log line,
// and the pets pace speech by reading speed (or by the WAV's clock).
func openAudio(path string, log *slog.Logger) (*audioOut, error) {
	o, err := newAudioOut(path, log)
	if err != nil {
		return nil, err
	}
	o.openDevice()
	return o, nil
}

// newAudioOut makes the mixer and, when path is set, the WAV file the mix
// is also written to; openDevice opens the device, which the output's
// users wait for (ready). Split so that start-up can open the device off
// the first frame's way (start.go's startAudioOut), while a WAV file that
// cannot be made still stops the start at once.
func newAudioOut(path string, log *slog.Logger) (*audioOut, error) {
	o := &audioOut{log: log, mixer: audio.NewMixer(), opened: make(chan struct{})}
	if path != "" {
		f, err := os.Create(path)
		if err != nil {
			return nil, fmt.Errorf("app: --audio-out: %w", err)
		}
		w, err := audio.NewWAVWriter(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("app: --audio-out: %w", err)
		}
		o.file, o.wav = f, w
		o.mixer.SetTee(w)
		o.mixer.SetMarks(func(mk audio.Mark) {
			log.Info("audio_out_sentence", "text", mk.Label, "at", float64(mk.At)/audio.Rate)
		})
	}
	return o, nil
}

// openDevice opens the audio device (a device's library takes tens of
// milliseconds to start), or, with none, the WAV's clock; it is called
// once, from any goroutine.
func (o *audioOut) openDevice() {
	defer close(o.opened)
	d, err := audio.OpenDevice(o.mixer)
	if err != nil {
		o.log.Warn("audio_unavailable", "err", err.Error(), "audio_out", o.wav != nil)
		o.notice = noDeviceNotice
		if o.wav != nil {
			o.paced = audio.NewPaced(o.mixer, clock.Real{}, nil)
			o.notice = petwindow.NoAudioFileText
		}
		return
	}
	o.device = d
	o.log.Info("audio_open", "rate", audio.Rate, "audio_out", o.wav != nil)
}

// ready waits until openDevice has run; safe on nil.
func (o *audioOut) ready() {
	if o != nil && o.opened != nil {
		<-o.opened
	}
}

// playable reports whether audio is pulled at all (a device or the WAV
// clock), once the device's opening has ended.
func (o *audioOut) playable() bool {
	o.ready()
	return o != nil && (o.device != nil || o.paced != nil)
}

// close stops the output and finishes the WAV file.
func (o *audioOut) close() {
	if o == nil {
		return
	}
	o.ready()
	if o.device != nil {
		o.device.Close()
	}
	if o.paced != nil {
		o.paced.Close()
	}
	if o.wav != nil {
		o.mixer.SetTee(nil)
		err := o.wav.Close()
		if cerr := o.file.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = o.mixer.TeeErr()
		}
		if err != nil {
			o.log.Warn("audio_out_failed", "err", err.Error())
		} else {
			o.log.Info("audio_out_written", "seconds", float64(o.wav.Samples())/audio.Rate)
		}
	}
}

// speechOut is one pet's speech output: its engine and player.
type speechOut struct {
	engine speech.Engine
	player *audio.Player // nil when the pet has no audio
	notice string
}

// speechOut builds the engine of a preset's speech settings on a new
// player of the mixer; safe on nil (no audio output).
func (a *audioOut) speechOut(sp settings.Speech, log *slog.Logger) *speechOut {
	o := &speechOut{}
	if !a.playable() {
		o.engine = speech.NewNone(nil)
		if a != nil && sp.Engine != settings.SpeechEngineNone {
			// A preset that does not speak loses nothing to a missing
			// device: no note for it.
			o.notice = a.notice
		}
		log.Info("speech_engine", "engine", settings.SpeechEngineNone, "configured", sp.Engine, "reason", "no audio output")
		return o
	}
	o.player = a.mixer.NewPlayer()
	o.player.SetVolume(sp.Volume)
	engine, name, err := newEngine(sp, o.player)
	if err != nil {
		log.Warn("speech_engine_unavailable", "engine", sp.Engine, "err", err.Error())
	}
	o.engine = engine
	o.notice = a.notice
	log.Info("speech_engine", "engine", name, "configured", sp.Engine, "voice", sp.Voice, "volume", sp.Volume)
	return o
}

// petOptions adds the speech output to a pet's options.
func (o *speechOut) petOptions(opts pet.Options) pet.Options {
	opts.Speech = o.engine
	opts.AudioNotice = o.notice
	if o.player != nil {
		opts.Mouth = o.player
	}
	return opts
}

// close ends the engine's syntheses and takes the player out of the mix;
// the controller, whose queue plays on them, is closed first.
func (o *speechOut) close() {
	if o == nil {
		return
	}
	o.engine.Close()
	if o.player != nil {
		o.player.Close()
	}
}

// speakSample speaks SampleSentence with the edited settings sp, on a
// player of its own, and returns when it has played: the settings
// window's Test button calls it (off the UI goroutine). The error says
// why nothing could be heard.
func (a *audioOut) speakSample(ctx context.Context, sp settings.Speech) error {
	if !a.playable() {
		return errors.New(noDeviceNotice)
	}
	p := a.mixer.NewPlayer()
	defer p.Close()
	p.SetVolume(sp.Volume)
	e, _, err := newEngine(sp, p)
	if err != nil {
		return err
	}
	defer e.Close()
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	return speech.Speak(ctx, e, SampleSentence)
}

// MouthFrame is the talk frame the pet's audio asks for (pet.Controller's
// MouthFrame); the pet window's lip-sync reads it.
func (s *session) MouthFrame(n int) (int, bool) {
	if c := s.ctl(); c != nil {
		return c.MouthFrame(n)
	}
	return 0, false
}

// newEngine is speech.New in the app's language.
func newEngine(sp settings.Speech, p *audio.Player) (speech.Engine, string, error) {
	return speech.New(sp, p, string(i18n.Current()))
}
