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

// The model, speech and transcription servers on this machine
// (docs/voices.md): the model servers asked on a first start and from the
// welcome page (firstrun.go), the audio ones when the Speech or Voice tab
// opens and on a first start beside them, and all of them by `yui
// servers`.

// localServers finds the servers on this machine and keeps what the last
// scans found, for the settings window: the model servers (the welcome
// page, settingswindow.Welcomer's half) and the speech and transcription
// servers (the Speech and Voice tabs, settingswindow.AudioServers). Every
// scan waits on the network: never on the UI thread. The zero value asks
// the usual ports; a nil log logs nothing.
type localServers struct {
	log *slog.Logger
	// chatPorts and audioPorts are the ports a scan asks; nil is
	// localserver.KnownPorts and localserver.AudioPorts (tests give their
	// own).
	chatPorts  []localserver.Port
	audioPorts []int

	mu    sync.Mutex
	chat  []localserver.Server // the last model scan's
	audio []localserver.AudioServer
}

// scan asks the model servers' ports and keeps the answer; repeat is
// localserver's Repeat (a rescan logs less).
func (l *localServers) scan(ctx context.Context, repeat bool) []localserver.Server {
	found := localserver.Scan(ctx, localserver.Options{Ports: l.chatPorts, Logger: l.log, Repeat: repeat})
	l.mu.Lock()
	l.chat = found
	l.mu.Unlock()
	return found
}

// FindServers scans the model servers' ports (the welcome page's "Find
// local servers").
func (l *localServers) FindServers(ctx context.Context) []localserver.Server {
	return l.scan(ctx, false)
}

// FoundServers is the last model scan's answer.
func (l *localServers) FoundServers() []localserver.Server {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]localserver.Server(nil), l.chat...)
}

// FindAudioServers asks the speech and transcription servers' ports and
// keeps the answer.
func (l *localServers) FindAudioServers(ctx context.Context) []localserver.AudioServer {
	found := localserver.ScanAudio(ctx, localserver.AudioOptions{Ports: l.audioPorts, Logger: l.log})
	l.mu.Lock()
	l.audio = found
	l.mu.Unlock()
	return found
}

// FoundAudioServers is the last audio scan's answer.
func (l *localServers) FoundAudioServers() []localserver.AudioServer {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]localserver.AudioServer(nil), l.audio...)
}

// startAudioScan scans the audio servers on a goroutine of its own; the
// returned func waits for it (a first start scans for speech while it
// scans for models).
func (l *localServers) startAudioScan(ctx context.Context) (wait func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		l.FindAudioServers(ctx)
	}()
	return func() { <-done }
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
