package fakeapp

import (
	"context"

	"yui/transport/localserver"
)

// FindAudioServers answers AudioServers and counts the scan.
func (b *Backend) FindAudioServers(context.Context) []localserver.AudioServer {
	b.Mu.Lock()
	defer b.Mu.Unlock()
	b.AudioScans++
	return b.AudioServers
}

func (b *Backend) FoundAudioServers() []localserver.AudioServer {
	b.Mu.Lock()
	defer b.Mu.Unlock()
	return b.AudioServers
}
