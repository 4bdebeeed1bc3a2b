// Package aec is the acoustic echo canceller of voice input (issue 35,
// docs/hands-free.md): it takes the microphone and the far-end reference
// (every sample the mixer handed to the speakers, pet/audio/reference.go)
// and returns the microphone with the pet's own voice taken out, so that
// the voice-activity detector (pet/voice/vad.go) hears the user and not
// the loudspeaker.
//
// The chain, per 8 ms block at 16 kHz:
//
//  1. delay.go estimates the bulk delay between the reference and its echo
//     from the cross-correlation of their envelopes, and follows it when
//     the device's latency moves;
//  2. filter.go, a partitioned-block frequency-domain adaptive filter
//     (multi-delay NLMS, the "MDF" structure), models the room and
//     subtracts its echo estimate; its step follows the residual echo
//     ratio, which collapses during double talk, so the user talking over
//     the pet does not make it diverge;
//  3. suppress.go, a residual echo suppressor, takes out per frequency the
//     echo the linear filter left, from the filter's own estimate of it.
//
// Nothing here allocates after New, and nothing reads a clock: time is
// counted in samples, so tests run synthetic rooms faster than real time.
package aec
