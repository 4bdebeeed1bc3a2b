package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"yui/pet"
	"yui/pet/settings"
	"yui/pet/voice"
	"yui/transport/clock"
)

// voiceInput is a session's running voice input (docs/product.md §7): its
// listener and the goroutine running it until the session closes.
type voiceInput struct {
	l      *voice.Listener
	mode   voice.Mode
	cancel context.CancelFunc
	done   chan struct{}
}

// newTranscriber builds a preset's speech-to-text engine.
func newTranscriber(v settings.Voice) (voice.Transcriber, error) {
	switch v.Engine {
	case "openai", "":
		return &voice.OpenAI{BaseURL: v.BaseURL, Key: v.Key, Model: v.Model, Language: v.Language}, nil
	case settings.VoiceEngineWhisperCpp:
		return &voice.WhisperCpp{BaseURL: v.BaseURL, Language: v.Language, Client: voice.NewWhisperCppClient()}, nil
	case "command":
		c, err := voice.NewCommand(v.Command)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	return nil, fmt.Errorf("unknown voice engine %q (openai, whisper.cpp or command)", v.Engine)
}

// newCapture is the preset's microphone (device "" is the default one),
// or the --voice-in file when one is given (the main pet only: it replaces
// that pet's microphone). onMissing, when set, is told when the named
// device goes missing and when it returns.
func newCapture(voiceIn, device string, log *slog.Logger, onMissing func(bool)) (voice.Capture, error) {
	if voiceIn == "" {
		return &voice.Mic{Device: device, Log: log, OnMissing: onMissing}, nil
	}
	f, err := voice.OpenFile(voiceIn, clock.Real{})
	if err != nil {
		return nil, err
	}
	f.OnEnd = func() { log.Debug("voice_in_end", "file", voiceIn) }
	return f, nil
}

// startVoice starts the session's voice input when its preset's mode is
// not off. It runs once the controller exists. A preset whose engine
// cannot be built, or a machine with no microphone, logs one line and
// says so in the pill; text keeps working.
func (s *session) startVoice(ctl *pet.Controller) *voiceInput {
	p := s.cfg()
	mode := voice.Mode(p.Voice.Mode)
	if mode != voice.ModePushToTalk && mode != voice.ModeHandsFree && mode != voice.ModeWakeWord {
		return nil
	}
	main := p.ID == s.y.activeID()
	voiceIn := ""
	if main {
		voiceIn = s.y.cfg.VoiceIn
	}
	tr, err := newTranscriber(p.Voice)
	var capture voice.Capture
	if err == nil {
		capture, err = newCapture(voiceIn, p.Voice.Device, s.log, func(missing bool) {
			ctl.SetVoiceStatus(missingDeviceNote(p.Voice.Device, missing))
		})
	}
	if err != nil {
		s.log.Warn("voice_unavailable", "err", err.Error())
		ctl.SetVoiceStatus(voice.FailureText(err))
		return nil
	}
	opts := voice.ListenerOptions{
		Mode:        mode,
		Capture:     capture,
		Transcriber: tr,
		Target:      ctl,
		Logger:      s.log,
		OnText:      s.win.ShowVoiceText,
		VAD:         voice.VADConfig{Threshold: p.Voice.Threshold},
	}
	s.handsFree(&opts, p, main)
	l := voice.NewListener(opts)
	ctx, cancel := context.WithCancel(context.Background())
	vi := &voiceInput{l: l, mode: mode, cancel: cancel, done: make(chan struct{})}
	s.log.Info("voice_start", "mode", string(mode), "engine", p.Voice.Engine, "file", voiceIn != "", "echo_cancel", opts.EchoCancel)
	go func() {
		defer close(vi.done)
		if err := l.Run(ctx); err != nil && !errors.Is(err, voice.ErrNoMicrophone) {
			s.log.Warn("voice_stopped", "err", err.Error())
		}
	}()
	return vi
}

// stop stops the voice input and waits for its goroutines; nil is off.
func (vi *voiceInput) stop() {
	if vi == nil {
		return
	}
	vi.cancel()
	<-vi.done
}

// voiceIn is the running connection's voice input, nil when off.
func (s *session) voiceIn() *voiceInput {
	if c := s.cur.Load(); c != nil {
		return c.voice
	}
	return nil
}

// PushToTalk, VoicePress and VoiceRelease are the pet window's mic button
// (windows.VoiceActions).
func (s *session) PushToTalk() bool {
	return voice.Mode(s.cfg().Voice.Mode) == voice.ModePushToTalk
}

func (s *session) VoicePress() {
	if vi := s.voiceIn(); vi != nil {
		vi.l.Press()
	}
}

func (s *session) VoiceRelease() {
	if vi := s.voiceIn(); vi != nil {
		vi.l.Release()
	}
}

// TestVoiceDuration is how long the settings window's voice Test button records.
const TestVoiceDuration = 3 * time.Second

// missingDeviceNote is the pill's voice note while the preset's named
// microphone is missing ("" once it is back).
func missingDeviceNote(device string, missing bool) string {
	if !missing {
		return ""
	}
	return "microphone “" + device + "” is missing: using the default"
}
