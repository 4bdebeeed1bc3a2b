package windows

import (
	"context"

	"yui/transport/localserver"
)

// AudioServers is what the Speech and Voice tabs ask the app about the
// speech and transcription servers on this machine (docs/voices.md).
type AudioServers interface {
	// FindAudioServers asks their usual loopback ports (a second or so);
	// never on the UI thread.
	FindAudioServers(ctx context.Context) []localserver.AudioServer
	// FoundAudioServers is the last scan's answer (a first start's).
	FoundAudioServers() []localserver.AudioServer
}
