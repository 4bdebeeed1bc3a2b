package app

import (
	"sync"

	"yui/pet/audio"
	"yui/pet/settings"
	"yui/pet/voice"
)

// Hands-free over speakers (docs/hands-free.md): the echo canceller's
// reference is the process's mixer, made on the first listener that asks
// for it; the wake words default to the character's name.

// farEnd is the mixer's far-end tap, made once.
type farEnd struct {
	once sync.Once
	ref  *audio.Reference
}

// reference is the mixer's far-end tap, nil when there is no audio output.
func (a *audioOut) reference() *audio.Reference {
	if a == nil || a.mixer == nil {
		return nil
	}
	a.farEnd.once.Do(func() {
		a.farEnd.ref = audio.NewReference(nil)
		a.mixer.SetReference(a.farEnd.ref)
	})
	return a.farEnd.ref
}

// handsFree fills the listener options hands-free mode adds: the echo
// canceller (voice.echo_cancel, on by default, in every mode), the wake
// words, and --voice-debug for the main pet.
func (s *session) handsFree(o *voice.ListenerOptions, p settings.Preset, main bool) {
	if p.Voice.EchoCancelOn() {
		if ref := s.y.audio.reference(); ref != nil {
			o.FarEnd, o.EchoCancel = ref, true
		}
	}
	o.WakeWords = p.Voice.WakeWords
	if len(o.WakeWords) == 0 {
		o.WakeWords = voice.DefaultWakeWords(s.characterName())
	}
	if main {
		o.DebugDir = s.y.cfg.VoiceDebug
	}
}

// characterName is the running character's display name ("" before its
// pack is loaded).
func (s *session) characterName() string {
	if s.pack == nil {
		return ""
	}
	return s.pack.Name
}
