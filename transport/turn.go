package transport

import "strings"

// Trigger says what started a turn (docs/protocol/client-context.md).
type Trigger string

const (
	TriggerUserMessage Trigger = "user message"
	TriggerUserVoice   Trigger = "user voice"
	TriggerPoke        Trigger = "poke"
	TriggerGreeting    Trigger = "greeting"
	TriggerCheckIn     Trigger = "check-in"
)

// TriggerAddressedBy is the trigger of a turn another character started.
func TriggerAddressedBy(name string) Trigger { return Trigger("addressed by " + name) }

// Turn is one user or automatic input.
type Turn struct {
	Trigger Trigger
	// Text is the utterance; "" on a turn no user typed or spoke.
	Text string
	// Previous is the outcome of the preset's previous turn, for the
	// "previous turn:" line. The zero value (complete) is omitted.
	Previous PlaybackRecord
	// Screenshot is the turn's screenshot, if any.
	Screenshot *Screenshot
	// Attachments are images the user attached.
	Attachments []Image
	// Character is the "character:" line's state.
	Character CharacterState
}

// Image is an encoded image (PNG or JPEG bytes) with its MIME type.
type Image struct {
	MIME string // "image/png", "image/jpeg"
	Data []byte
}

// Screenshot is a turn's screen capture and where it came from.
type Screenshot struct {
	Image         Image
	Display       int // 1-based display number as shown to the model
	Displays      int // how many displays there are
	Width, Height int
	ActiveWindow  string
}

// CharacterState is what the "character:" line says.
type CharacterState struct {
	Name    string
	Emotion string
	// Place is where the pet sits: `sitting on "Notes"`, `on the taskbar`,
	// `walking`, or "" to leave it out.
	Place string
}

// PlaybackOutcome is how the previous turn's playback ended.
type PlaybackOutcome int

const (
	PlaybackComplete PlaybackOutcome = iota
	PlaybackInterrupted
	PlaybackFailed
)

// PlaybackRecord is the outcome of a preset's last played turn (docs/protocol/client-context.md).
type PlaybackRecord struct {
	TurnID  string
	Outcome PlaybackOutcome
	// Unspoken is everything still owed when the user interrupted.
	Unspoken string
	// Reason is the short failure reason.
	Reason string
}

// Vocabulary is what the client renders right now (push hello.vocabulary).
type Vocabulary struct {
	EmotionIDs      []string          `json:"emotion_ids"`
	MotionIDs       []string          `json:"motion_ids"`
	EmotionTextMode string            `json:"emotion_text_mode"` // "free" or "enum"
	EmotionTextMap  map[string]string `json:"emotion_text_map"`
}

// Cue is a generate_express argument object (docs/protocol/client-context.md).
type Cue struct {
	EmotionID   string `json:"emotion_id,omitempty"`
	MotionID    string `json:"motion_id,omitempty"`
	EmotionText string `json:"emotion_text,omitempty"`
	Caption     string `json:"caption,omitempty"`
}

// Segment is cues followed by the speech they precede.
type Segment struct {
	Cues   []Cue  `json:"cues,omitempty"`
	Speech string `json:"speech"`
}

// Silent reports whether the segment carries no speech: empty or the bare [SILENT] token.
func (s Segment) Silent() bool { return IsSilent(s.Speech) }

// IsSilent reports whether a speech text is empty or the bare [SILENT] token.
func IsSilent(speech string) bool {
	t := strings.TrimSpace(speech)
	return t == "" || t == "[SILENT]"
}

// Usage is the token usage of a turn's last LLM call.
type Usage struct {
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
	TotalTokens  int64 `json:"total_tokens"`
}
