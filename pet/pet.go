// Package pet is the character's behaviour, headless: it consumes a
// transport's events and the user's actions, drives the playback queue and
// speech, and publishes a View snapshot that the pet window draws.
package pet

import (
	"log/slog"
	"time"

	"yui/pet/character"
	"yui/pet/speech"
	"yui/transport"
	"yui/transport/clock"
)

// Pill is the status pill's content.
type Pill struct {
	// Conn is the connection state text: "connecting", "ready",
	// "reconnecting in 4 s", "key rejected", "offline", or the reason of an
	// invalid setting.
	Conn string
	// ConnState is the state behind Conn.
	ConnState transport.ConnState
	// Tool is the tool segment ("read_file running", "read_file done"), ""
	// when clear. done/failed are held 1.5 s before clearing.
	Tool string
	// Voice is "listening", "transcribing" or a transcription error; "" when idle.
	Voice string
}

// View is everything the pet window and message window draw. Each change
// produces a fresh copy through Options.OnChange.
type View struct {
	Emotion string // emotion id; the pack's image
	Motion  string // motion id playing
	// Bubble is the sentence being spoken, kept a few seconds after playback ends.
	Bubble      string
	EmotionText string // emotion_text badge of the last cue
	Caption     string // caption of the last cue
	// Plate is the message plate: "thinking" while a turn runs, else "".
	Plate string
	Pill  Pill
	// Running is true from a turn the user can stop until its turn end: the
	// composer is locked and its send button is a stop button.
	Running bool
	// ErrorLine is the composer's error line (server text of a failed typed turn).
	ErrorLine string
	// Delegations is the chip's list; History the settings Session list.
	Delegations []transport.Delegation
	History     []transport.Delegation
	// Usage is the last usage readout, nil before the first.
	Usage *transport.Usage
	// Reasoning is the reasoning text showing now.
	Reasoning string
}

// Options wires a Controller.
type Options struct {
	Transport transport.Transport
	Pack      *character.Pack
	Speech    speech.Engine // nil means the "none" engine (bubble paced by reading speed)
	Clock     clock.Clock
	Logger    *slog.Logger
	// OnChange receives each new View, from the controller's goroutine.
	OnChange func(View)
	// BubbleHold is how long the bubble stays after playback; 0 means 4 s.
	BubbleHold time.Duration
}

// Controller is one pet's behaviour.
type Controller struct{}

// New returns a controller; Run starts it.
func New(opts Options) *Controller { panic("TODO") }

// Run consumes transport events until Close.
func (c *Controller) Run() { panic("TODO") }

// SendText starts a typed turn (it stops speech first). Empty text is ignored.
func (c *Controller) SendText(text string, attachments []transport.Image) { panic("TODO") }

// Poke starts a poke turn (a click on the pet).
func (c *Controller) Poke() { panic("TODO") }

// Stop is the stop button: it stops speech and the running turns.
func (c *Controller) Stop() { panic("TODO") }

// View returns the current snapshot.
func (c *Controller) View() View { panic("TODO") }

// Close stops Run and playback.
func (c *Controller) Close() { panic("TODO") }
