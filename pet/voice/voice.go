// Package voice is the seam for voice input (product.md §7): microphone
// capture, voice-activity detection and speech-to-text sit behind these
// interfaces so the pet controller can take spoken turns (pet.Controller's
// VoiceTurn, BargeIn and SetVoiceStatus) without knowing the devices or
// servers behind them. The engines themselves come with the voice issue.
package voice

import "context"

// Format is the PCM format of captured audio.
type Format struct {
	SampleRate int // samples per second, e.g. 16000
	Channels   int // 1 for mono
}

// Capture delivers microphone audio.
type Capture interface {
	// Start calls onFrame with each block of 16-bit little-endian PCM until
	// ctx ends or the device fails; it returns the reason it stopped.
	Start(ctx context.Context, f Format, onFrame func(pcm []int16)) error
}

// Transcriber turns one utterance (a WAV file's bytes) into text.
type Transcriber interface {
	Transcribe(ctx context.Context, wav []byte) (string, error)
}
