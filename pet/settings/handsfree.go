package settings

import (
	"slices"
	"strings"
)

// VoiceModes are the values of voice.mode.
var VoiceModes = []string{"off", "push_to_talk", "hands_free", "wake_word"}

// HandsFree is the part of a preset's voice input that hands-free over
// speakers adds (docs/hands-free.md): the echo canceller and the wake
// words. It is embedded in Voice, so its keys sit in "voice".
type HandsFree struct {
	// EchoCancel is voice.echo_cancel; absent (nil) is on (EchoCancelOn).
	EchoCancel *bool `json:"echo_cancel,omitempty"`
	// WakeWords are the words a wake_word utterance must begin with (any
	// case, punctuation ignored); empty is the character's name and "hey"
	// before it.
	WakeWords []string `json:"wake_words,omitempty"`
}

// Wake word limits.
const (
	MaxWakeWords   = 8
	MaxWakeWordLen = 40
)

// EchoCancelOn reports voice.echo_cancel, true unless set false.
func (h HandsFree) EchoCancelOn() bool { return h.EchoCancel == nil || *h.EchoCancel }

// SetEchoCancel sets voice.echo_cancel; true is stored as the default (absent).
func (h *HandsFree) SetEchoCancel(on bool) {
	if on {
		h.EchoCancel = nil
		return
	}
	h.EchoCancel = &on
}

// validateHandsFree reports the invalid hands-free fields through bad.
func (h HandsFree) validateHandsFree(bad func(field string, why *Invalid)) {
	if len(h.WakeWords) > MaxWakeWords {
		bad("voice.wake_words", invalid(CodeTooManyWords, "Max", MaxWakeWords))
	}
	for _, w := range h.WakeWords {
		switch {
		case strings.TrimSpace(w) == "":
			bad("voice.wake_words", invalid(CodeEmptyWord))
		case len([]rune(w)) > MaxWakeWordLen:
			bad("voice.wake_words", invalid(CodeLongWord, "Max", MaxWakeWordLen))
		case strings.ContainsAny(w, "\x00\n"):
			bad("voice.wake_words", invalid(CodeWordLineBreak))
		}
	}
}

// clone is a deep copy: Preset.Clone's copies share nothing.
func (h HandsFree) clone() HandsFree {
	c := HandsFree{WakeWords: slices.Clone(h.WakeWords)}
	if h.EchoCancel != nil {
		on := *h.EchoCancel
		c.EchoCancel = &on
	}
	return c
}
