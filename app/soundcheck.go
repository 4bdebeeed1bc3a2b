package app

import (
	"context"
	"log/slog"
	"math"

	"yui/pet/settings"
	"yui/pet/speech"
	"yui/pet/voice"
)

// soundCheck is the settings window's Speech and Voice tabs
// (settingswindow.Speech and Voice): the speech sample on the process's
// audio output, the voice test and level meter on a preset's microphone
// (or --voice-in's file, voiceIn), the voice and device lists.
type soundCheck struct {
	out     *audioOut
	voiceIn string
	log     *slog.Logger
}

// SpeakSample speaks the sample sentence with p's speech settings as
// edited (speech.go).
func (sc soundCheck) SpeakSample(ctx context.Context, p settings.Preset) error {
	return sc.out.speakSample(ctx, p.Speech)
}

// TestVoice records a few seconds of p's microphone and transcribes them
// with p's voice settings as edited.
func (sc soundCheck) TestVoice(ctx context.Context, p settings.Preset) (string, error) {
	tr, err := newTranscriber(p.Voice)
	if err != nil {
		return "", err
	}
	c, err := newCapture(sc.voiceIn, p.Voice.Device, sc.log, nil)
	if err != nil {
		return "", err
	}
	return voice.RecordAndTranscribe(ctx, c, tr, TestVoiceDuration)
}

// Voices lists a speech engine's voices (the Speech tab's picker): an
// OpenAI-compatible server at base that lists its own gives those.
func (soundCheck) Voices(ctx context.Context, engine, base string) ([]speech.Voice, bool, error) {
	return speech.VoicesAt(ctx, engine, base)
}

// AudioDevices lists the audio devices (the Voice tab's microphone picker
// and the App tab's speakers).
func (soundCheck) AudioDevices() (voice.Devices, error) { return voice.ListDevices() }

// MeterVoice runs the Voice tab's level meter on p's microphone, or on
// the --voice-in file that replaces it, cleaned of the pets' voices when
// p's echo canceller is on.
func (sc soundCheck) MeterVoice(ctx context.Context, p settings.Preset, fn func(voice.Reading)) error {
	c, err := newCapture(sc.voiceIn, p.Voice.Device, sc.log, nil)
	if err != nil {
		return err
	}
	o := voice.MeterOptions{VAD: voice.VADConfig{Threshold: p.Voice.Threshold}}
	// With the echo canceller on, the meter shows what the detector
	// hears: the microphone cleaned of what the pets are saying.
	if p.Voice.EchoCancelOn() {
		if ref := sc.out.reference(); ref != nil {
			o.FarEnd = ref
		}
	}
	sc.log.Info("voice_meter", "preset", p.ID, "device", p.Voice.Device, "file", sc.voiceIn != "", "echo_cancel", o.FarEnd != nil)
	heard := false
	return voice.Meter(ctx, c, o, func(r voice.Reading) {
		// The first reading over the threshold is logged: the meter saw voice.
		if !heard && r.Level >= r.Threshold {
			heard = true
			sc.log.Info("voice_meter_heard", "preset", p.ID, "level", math.Round(r.Level), "threshold", math.Round(r.Threshold))
		}
		fn(r)
	})
}
