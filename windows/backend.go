// Package windows is Yui's Fyne UI, one sub-package per window and two
// shared ones:
//
//   - petwindow: the shaped pet window of one preset;
//   - settingswindow: the settings window;
//   - messagewindow: the message window of one preset;
//   - widgets: what the windows share (the tag, the icon button, the
//     composer entry, text wrapping, the theme and its colours, the image
//     dialog);
//   - native: the per-platform window shims (X11 SHAPE, the Windows region
//     and hot key, the rectangular fallback).
//
// This package holds only the interfaces through which the settings and
// message windows see the app (Backend, Session) and what a connection test
// found (Probe).
package windows

import (
	"context"

	"yui/pet"
	"yui/pet/settings"
	"yui/pet/speech"
	"yui/pet/transcript"
	"yui/pet/voice"
	"yui/tools/facts"
	"yui/transport"
	"yui/transport/localserver"
)

// Session is one running preset as the message and settings windows see it:
// they mirror it and open no connection of their own. The app implements
// it; every method is safe from any goroutine.
type Session interface {
	// View is the pet's current view (connection state, usage, history).
	View() pet.View
	// WatchView calls fn with each new view, from any goroutine (hand it
	// to the UI thread with fyne.Do), until cancel is called.
	WatchView(fn func(pet.View)) (cancel func())
	// Transcript is the preset's conversation.
	Transcript() *transcript.Log
	// SendText, Stop, Reconnect and Reset act on the preset's connection
	// as the pet's composer and menu do. Reset starts a new conversation
	// (push reset frame, a Chat Completions transcript boundary, a cleared
	// Responses previous_response_id) and marks it in the transcript.
	SendText(text string, attachments []transport.Image)
	Stop()
	Reconnect()
	Reset()
	// Busy reports whether a turn is being sent or runs: the composer's
	// button stops then, even before the view that says so arrives.
	Busy() bool
}

// Probe is what the test-connection button found.
type Probe struct {
	// OK is true when the backend answered as one of its kind should.
	OK bool
	// Code says what it found, for the window to say in the user's
	// language with Args (settingswindow's probeText).
	Code ProbeCode
	// Args are the named arguments of the code's text.
	Args map[string]any
	// Text says it in English, for the log: "connected: 3 models",
	// "key rejected", "unreachable: …", "not a push backend: …".
	Text string
	// Models are the models a request server lists (GET /models).
	Models []string
}

// ProbeCode is what a probe found.
type ProbeCode string

// The probe codes; the comment names each one's Args.
const (
	ProbeReady         ProbeCode = "ready"           // a push backend said ready
	ProbeModels        ProbeCode = "models"          // a request server lists Models
	ProbeKeyRejected   ProbeCode = "key_rejected"    // the key was refused
	ProbeUnreachable   ProbeCode = "unreachable"     // Detail: no answer
	ProbeNotPushHTTP   ProbeCode = "not_push_http"   // Status: HTTP, not a WebSocket
	ProbeNotPushClosed ProbeCode = "not_push_closed" // Code: the socket closed before ready
	ProbeNoReady       ProbeCode = "no_ready"        // the socket took no hello
	ProbeClosed        ProbeCode = "closed"          // the transport closed
	ProbeInvalid       ProbeCode = "invalid"         // Detail: the settings cannot work
	ProbeHTTP          ProbeCode = "http"            // Status, Detail: an HTTP error
	ProbeTimeout       ProbeCode = "timeout"         // the window's: no answer in its time
)

// Backend is the app as the settings and message windows need it.
type Backend interface {
	// Store is the settings store: read it, update it, subscribe to it.
	// An edit saved there applies live (the app subscribes too).
	Store() *settings.Store
	// Session returns the running preset's connection, nil when the preset
	// is not running (disabled, or failed to start).
	Session(presetID string) Session
	// WatchSessions calls fn (from any goroutine) whenever a preset starts or
	// stops running, until cancel.
	WatchSessions(fn func()) (cancel func())
	// Probe tests p's backend as edited (not as saved): dial and hello for
	// push, GET /models for the request transports. It honours ctx.
	Probe(ctx context.Context, p settings.Preset) Probe
	// SpeakSample speaks a sample sentence with p's speech settings as
	// edited; an error says why it could not.
	SpeakSample(ctx context.Context, p settings.Preset) error
	// TestVoice records a few seconds with p's voice settings as edited
	// and returns the recognised text.
	TestVoice(ctx context.Context, p settings.Preset) (string, error)
	// Voices lists a speech engine's voices for a preset whose server is
	// at base; it may run a program or ask the server. fromServer says
	// the server listed them itself (Kokoro-FastAPI does).
	Voices(ctx context.Context, engine, base string) (vs []speech.Voice, fromServer bool, err error)
	// AudioDevices lists the audio inputs and outputs; it may block for a
	// moment on the audio system.
	AudioDevices() (voice.Devices, error)
	// MeterVoice captures from p's microphone as edited (its device, or
	// the --voice-in file that replaces it) and calls fn, from any
	// goroutine, with each level reading until ctx ends.
	MeterVoice(ctx context.Context, p settings.Preset, fn func(voice.Reading)) error
	// ShowPets shows every running pet, hidden ones included (the way
	// back for a pet hidden from its menu where there is no tray).
	ShowPets()
	// Facts is preset id's remembered facts (the Facts page), the same
	// store its pet's requests read.
	Facts(presetID string) *facts.Store
	// LogDir is the log folder; OpenLogFolder shows it in the file manager.
	LogDir() string
	OpenLogFolder() error

	// The welcome page's ways in (windows/settingswindow/welcome.go).
	Welcomer
	// The App tab's desktop row (windows/settingswindow/desktop.go).
	DesktopSetup
	// The speech and transcription servers found (audioservers.go).
	AudioServers
}

// Welcomer is what the welcome page asks the app.
type Welcomer interface {
	// FindServers asks the usual local ports for model servers (at most
	// a second or so); never on the UI thread.
	FindServers(ctx context.Context) []localserver.Server
	// FoundServers is the last scan's answer (the first start's).
	FoundServers() []localserver.Server
	// UseServer points preset id at a local server and saves it.
	UseServer(presetID string, s localserver.Server)
	// TryDemo starts the demo backend in this run, no restart. UI thread.
	TryDemo() error
}

// DesktopSetup is what the App tab's desktop row asks the app: how much
// of this desktop's windows Yui sees, and the install of what it lacks
// (GNOME's extension; `yui desktop setup`).
type DesktopSetup interface {
	// DesktopState reads the session; it may run programs (gsettings),
	// so never on the UI thread.
	DesktopState(ctx context.Context) DesktopState
	// InstallDesktop installs and enables what the session needs.
	InstallDesktop(ctx context.Context) error
}

// DesktopState is the desktop row's content.
type DesktopState struct {
	// Session names the session as the row shows it: "GNOME (Wayland)",
	// "KDE Plasma (Wayland)", "X11".
	Session string
	Status  DesktopStatus
	// CanInstall shows the Install button.
	CanInstall bool
}

// DesktopStatus says how much of the desktop's windows Yui sees.
type DesktopStatus string

const (
	// DesktopSeen: every window (X11, KDE Plasma, GNOME with the extension running).
	DesktopSeen DesktopStatus = "seen"
	// DesktopNeedsExtension: GNOME without Yui's extension installed and enabled.
	DesktopNeedsExtension DesktopStatus = "needs_extension"
	// DesktopNextLogin: the extension is installed and enabled, and runs from the next login.
	DesktopNextLogin DesktopStatus = "next_login"
	// DesktopBlind: a compositor that tells nothing of its native windows.
	DesktopBlind DesktopStatus = "blind"
)
