package app

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"yui/transport/localserver"
)

// The speech and transcription servers on this machine (docs/voices.md):
// asked when the Speech or Voice tab opens, on a first start beside the
// model servers, and by `yui servers`, which prints the model servers too.

// audioScan is the last scan's speech and transcription servers.
type audioScan struct {
	mu    sync.Mutex
	found []localserver.AudioServer
	// ports are the ports a scan asks; nil is localserver.AudioPorts
	// (tests give their own).
	ports []int
}

// scanAudio asks the usual ports and keeps the answer. Never on the UI
// thread: it waits on the network.
func (y *yui) scanAudio(ctx context.Context) []localserver.AudioServer {
	found := localserver.ScanAudio(ctx, localserver.AudioOptions{Ports: y.voices.ports, Logger: y.log})
	y.voices.mu.Lock()
	y.voices.found = found
	y.voices.mu.Unlock()
	return found
}

// startAudioScan scans on a goroutine of its own; the returned func waits
// for it (a first start scans for speech while it scans for models).
func (y *yui) startAudioScan(ctx context.Context) (wait func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		y.scanAudio(ctx)
	}()
	return func() { <-done }
}

// FindAudioServers and FoundAudioServers are the Speech and Voice tabs'
// (settingswindow.AudioServers).
func (y *yui) FindAudioServers(ctx context.Context) []localserver.AudioServer {
	return y.scanAudio(ctx)
}

func (y *yui) FoundAudioServers() []localserver.AudioServer {
	y.voices.mu.Lock()
	defer y.voices.mu.Unlock()
	return append([]localserver.AudioServer(nil), y.voices.found...)
}

// ServersOptions are `yui servers`' ports; nil asks the usual ones.
type ServersOptions struct {
	ChatPorts  []localserver.Port
	AudioPorts []int
	Timeout    time.Duration
}

// serversWait bounds `yui servers`: every port is asked at once.
const serversWait = 5 * time.Second

// PrintServers asks every usual local port at once and writes each server
// found, one a line, tab-separated: its kind (chat, speech or
// transcription), name, base URL and what it offers. None found is one
// comment line and no error (yui servers exits 0).
func PrintServers(ctx context.Context, w io.Writer, o ServersOptions) error {
	ctx, cancel := context.WithTimeout(ctx, serversWait)
	defer cancel()
	log := slog.New(slog.DiscardHandler)
	var chat []localserver.Server
	var audio []localserver.AudioServer
	var wg sync.WaitGroup
	wg.Go(func() {
		chat = localserver.Scan(ctx, localserver.Options{Ports: o.ChatPorts, Timeout: o.Timeout, Logger: log})
	})
	wg.Go(func() {
		audio = localserver.ScanAudio(ctx, localserver.AudioOptions{Ports: o.AudioPorts, Timeout: o.Timeout, Logger: log})
	})
	wg.Wait()
	var lines []string
	for _, s := range chat {
		lines = append(lines, chatLine(s))
	}
	for _, s := range audio {
		what := "voices"
		if s.Service == localserver.ServiceTranscription {
			what = "models"
		}
		offers := s.Offers
		if len(offers) == 0 && s.Model != "" {
			offers, what = []string{s.Model}, "model"
		}
		// Named with its version ("Piper 1.5+"): the versions speak different APIs.
		lines = append(lines, serverLine(s.Service, localserver.Kind(s.Name()), s.URL, what, offers))
	}
	if len(lines) == 0 {
		_, err := fmt.Fprintln(w, "# no local servers found (docs/voices.md and the welcome page say how to start one)")
		return err
	}
	_, err := io.WriteString(w, strings.Join(lines, "\n")+"\n")
	return err
}

// chatLine is a model server's line; what it offers says when it needs
// its key or has no model loaded.
func chatLine(s localserver.Server) string {
	line := serverLine(localserver.ServiceChat, s.Kind, s.URL, "models", s.Models)
	var note string
	switch {
	case s.NeedsKey:
		note = "needs its API key"
	case len(s.Models) == 0 && s.NoneLoaded:
		note = "no model loaded"
	default:
		return line
	}
	if len(s.Models) == 0 {
		return strings.TrimSuffix(line, "-") + note
	}
	return line + " (" + note + ")"
}

// maxListed bounds the offers a line names; the rest are counted.
const maxListed = 8

func serverLine(sv localserver.Service, k localserver.Kind, url, what string, offers []string) string {
	list := "-"
	if n := len(offers); n > 0 {
		list = what + ": " + strings.Join(offers[:min(n, maxListed)], ", ")
		if n > maxListed {
			list += fmt.Sprintf(" (+%d more)", n-maxListed)
		}
	}
	return strings.Join([]string{string(sv), string(k), url, list}, "\t")
}
