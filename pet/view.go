package pet

import (
	"slices"

	"yui/transport"
)

// Pill is the status pill's content.
type Pill struct {
	// Conn is the connection state text: "connecting", "ready",
	// "reconnecting in 4 s", "key rejected", OfflineText, or the reason of
	// an invalid setting.
	Conn string
	// ConnState is the state behind Conn.
	ConnState transport.ConnState
	// Tool is the tool segment ("read_file running", "read_file done"), ""
	// when clear. done/failed are held 1.5 s before clearing.
	Tool string
	// Voice is "listening", "transcribing", a transcription error or the
	// server text of a failed spoken turn; "" when idle.
	Voice string
	// Audio says once that speech cannot be heard (no audio device);
	// it clears after AudioNoticeHold.
	Audio string
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

// clone returns a copy sharing nothing mutable with v.
func (v View) clone() View {
	v.Delegations = slices.Clone(v.Delegations)
	v.History = slices.Clone(v.History)
	if v.Usage != nil {
		u := *v.Usage
		v.Usage = &u
	}
	return v
}

// viewHead is a View's fixed-size part: every field but the delegation
// lists, with the usage by value. Comparing two is cheap (==).
type viewHead struct {
	Emotion, Motion, Bubble, EmotionText, Caption, Plate string
	Pill                                                 Pill
	Running                                              bool
	ErrorLine                                            string
	Usage                                                transport.Usage
	HasUsage                                             bool
	Reasoning                                            string
}

func headOf(v View) viewHead {
	h := viewHead{
		Emotion: v.Emotion, Motion: v.Motion, Bubble: v.Bubble, EmotionText: v.EmotionText,
		Caption: v.Caption, Plate: v.Plate, Pill: v.Pill, Running: v.Running,
		ErrorLine: v.ErrorLine, Reasoning: v.Reasoning,
	}
	if v.Usage != nil {
		h.Usage, h.HasUsage = *v.Usage, true
	}
	return h
}
