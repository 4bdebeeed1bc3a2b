// Package voice is voice input (docs/product.md §7): microphone capture,
// voice-activity detection, speech-to-text engines, and the Listener that
// turns what the user says into spoken turns, barge-in and status pill
// text through a Target (pet.Controller implements it).
//
// Who calls what: the app builds a Capture (Mic, or File for --voice-in), a
// Transcriber (OpenAI or Command) and a Listener, and runs Listener.Run on
// a goroutine it owns until the preset's session closes. The pet window's
// mic button calls Press and Release in push-to-talk mode. Everything here
// runs headless: the VAD counts samples, not wall time, and File paces
// itself on an injected clock.
package voice

import "context"

// Format is the PCM format of captured audio.
type Format struct {
	SampleRate int // samples per second, e.g. 16000
	Channels   int // 1 for mono
}

// Mono16k is the format the Listener captures in: 16 kHz mono.
var Mono16k = Format{SampleRate: 16000, Channels: 1}

// Capture delivers microphone audio.
type Capture interface {
	// Start calls onFrame with each block of 16-bit PCM in format f until
	// ctx ends or the device fails; it returns the reason it stopped
	// (ctx.Err() when ctx ended). An error returned before the first block
	// means there is no usable microphone. onFrame may run on an audio
	// thread: it must return quickly and must not keep pcm after it
	// returns.
	Start(ctx context.Context, f Format, onFrame func(pcm []int16)) error
}

// Transcriber turns one utterance (a 16-bit PCM WAV file's bytes) into
// text. It may take seconds (a process, a request) and is never called
// under a lock. An error carries the reason the status pill shows.
type Transcriber interface {
	Transcribe(ctx context.Context, wav []byte) (string, error)
}

// Mode is a preset's voice.mode.
type Mode string

const (
	ModeOff        Mode = "off"
	ModePushToTalk Mode = "push_to_talk"
	ModeHandsFree  Mode = "hands_free"
	// ModeWakeWord listens like hands-free, but an utterance starts a turn
	// only when it begins with a wake word or follows the pet's speech
	// within FollowUp (wake.go).
	ModeWakeWord Mode = "wake_word"
)

// handsFree reports whether the VAD opens and closes utterances.
func (m Mode) handsFree() bool { return m == ModeHandsFree || m == ModeWakeWord }

// Status texts of the pill's voice segment.
const (
	StatusListening    = "listening"
	StatusTranscribing = "transcribing"
	StatusNoMicrophone = "no microphone"
)

// Target is what the Listener drives (pet.Controller implements it).
type Target interface {
	// VoiceTurn starts a spoken turn with the transcript (trigger "user voice").
	VoiceTurn(text string)
	// BargeIn stops the pet's speech: the user spoke over it.
	BargeIn()
	// SetVoiceStatus sets the pill's voice segment; "" clears it.
	SetVoiceStatus(s string)
	// SpeechOwed reports whether the pet is speaking (a sentence playing or
	// queued): the VAD raises its threshold while it is.
	SpeechOwed() bool
}
