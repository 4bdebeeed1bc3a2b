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
// This package holds only what the windows share of the app: the running
// preset as they see it (Session), what a connection test found (Probe)
// and what the desktop row shows (DesktopState). Each window declares the
// small interfaces it needs of the app where it uses them
// (messagewindow.App; settingswindow.App, one interface per page).
package windows

import (
	"yui/pet"
	"yui/pet/transcript"
	"yui/transport"
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
