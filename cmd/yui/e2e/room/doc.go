//go:build e2e

// Package room is the hands-free group on a real sound server (issue 35,
// docs/hands-free.md): PulseAudio in user mode with a null sink for the
// pet's speech and a virtual microphone, and a room simulator between them
// (pet/voice/room) that records the sink's monitor, delays, filters and
// attenuates it, adds a noise floor and the user's recorded speech, and
// plays the result into the microphone. Yui speaks through oto (ALSA's
// default device routed to the server) and listens through malgo, as on a
// desk. Run with `make e2e-room`.
package room
