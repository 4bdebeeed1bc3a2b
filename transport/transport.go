// Package transport defines the one interface every chat transport (push,
// Chat Completions, Responses) implements, and the events they emit. The pet
// and the windows see only this package: they cannot tell which transport runs.
//
// transport imports no other Yui package. What it needs from the rest of the
// app (tool handlers, the JPEG fitter, the delegation history store, the
// playback queue's "speech still owed" answer) is injected through Options.
package transport

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"time"

	"yui/transport/clock"
)

// Transport is the chat connection of one pet window.
//
// All methods are safe for concurrent use. Events are delivered in order on
// the channel returned by Events; the channel is closed after Close returns.
type Transport interface {
	// Start begins connecting (push) or marks the transport usable (request
	// transports). It returns at once; connection progress arrives as
	// StateEvents.
	Start()

	// Send starts a turn and returns its turn id. Sending never blocks on the
	// network. A turn that cannot start (not ready, bad configuration) still
	// gets an id and ends with a TurnEndEvent whose Outcome says why.
	Send(t Turn) string

	// Interrupt marks every outstanding turn as stopped: frames still to come
	// for them are dropped until their turn end. It is what the three
	// speech-stopping user actions do. notifyBackend is true for the stop
	// button: push then sends a stop frame naming the turns (only while
	// ready); request transports abort their requests either way.
	// Turns it stops that were still running get a TurnEndEvent with
	// Outcome TurnStopped at once, so the composer unlocks; the backend's own
	// turn end for them is then consumed silently. It returns the ids of the
	// turns it stopped.
	Interrupt(notifyBackend bool) []string

	// Reset starts a new conversation (push reset frame; request transports
	// drop the transcript or the stored response id).
	Reset()

	// SetVocabulary replaces what the client renders; push sends a
	// vocabulary frame when connected and the set changed.
	SetVocabulary(v Vocabulary)

	// ReportPlaybackFailed tells the backend that playback of a turn failed
	// (push playback frame, only while connected; dropped otherwise).
	ReportPlaybackFailed(turnID string)

	// Reconnect drops any connection or failed state and connects again now
	// (the user's way out of a 4401).
	Reconnect()

	// Events is the ordered stream of everything the transport reports.
	Events() <-chan Event

	// State is the current connection state.
	State() StateEvent

	// Close stops every goroutine the transport owns and closes Events.
	Close() error
}

// Options is what every transport constructor takes besides its own settings.
type Options struct {
	// ChatBaseURL is the preset's chat_base_url.
	ChatBaseURL string
	// Key is the chat API key. It is never logged.
	Key string
	// ChatID is the preset's chat_id (push).
	ChatID string
	// Model, ReasoningEffort and Card are sent by the request transports.
	Model           string
	ReasoningEffort string
	Card            string
	// ContextWindow is the preset's context_window in tokens. The Chat
	// Completions transport keeps each request under it, less room for
	// the reply; 0 (unknown) bounds nothing until a server says its
	// context is too long.
	ContextWindow int
	// Conversation keeps the conversation a request transport holds across
	// restarts. Nil keeps it for the transport's life only; push ignores it.
	Conversation Conversation
	// Facts is the long-term memory of the request transports (the
	// app's is tools/facts' Store). Nil adds nothing and summarizes
	// nothing; push ignores it.
	Facts Facts

	Vocabulary Vocabulary
	// Tools are the client-declared tools of this pet window (docs/protocol/client-tools.md).
	Tools []Tool
	// TurnTools, when set, gives more tools at the start of each turn (the user's MCP tools, tools/mcp); request transports only.
	TurnTools func() []Tool
	// FitImages shrinks images to fit a frame (the JPEG fitter of tools/).
	// Nil means images that do not fit are left out.
	FitImages ImageFitter
	// Delegations persists the delegation history (push). Nil keeps it in memory.
	Delegations DelegationStore
	// SpeechOwed reports whether the playback queue still owes speech; the
	// push.render log record carries it. Nil reads as false.
	SpeechOwed func() bool

	// Probe makes a request transport check at Start that the server can
	// be reached (GET {chat_base_url}/models), so the status pill tells a
	// user whose server is down before their first turn. Push needs none:
	// its socket is the check.
	Probe bool
	// Server, when set, names the request server once the probe reached
	// it (the app asks the local server's own endpoints): the pill then
	// says "ready · Ollama · qwen3:8b", and a known server that lists no
	// chat model is offline with its hint until one is there.
	Server func(ctx context.Context) ServerInfo

	Clock  clock.Clock  // nil means the wall clock
	Logger *slog.Logger // nil discards
	// Location names the IANA zone for the client_context time line; nil is time.Local.
	Location *time.Location
}

// Facts is the long-term memory a request transport asks while it builds
// a request: Prompt is the text that follows the card in the system
// prompt, the facts within room tokens as tokens counts them ("" adds
// nothing).
type Facts interface {
	Prompt(room int, tokens func(string) int) string
}

// FactsFunc is a func used as Facts, as http.HandlerFunc is a Handler.
type FactsFunc func(room int, tokens func(string) int) string

// Prompt calls f.
func (f FactsFunc) Prompt(room int, tokens func(string) int) string { return f(room, tokens) }

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

// Tool is one client-declared tool: its schema, the client's wait, and the
// handler that runs it. Handlers get arguments already validated against
// the schema; they return the result text (errors as "error: ...").
type Tool struct {
	Name        string
	Description string
	// Parameters is the JSON schema of the arguments (docs/protocol/client-tools.md).
	Parameters json.RawMessage
	// Wait is the client's wait for this tool (docs/protocol/push-transport.md limits).
	Wait    time.Duration
	Handler ToolHandler
}

// ToolHandler runs one tool call. ctx ends when the client wait passes or
// the transport closes.
type ToolHandler func(ctx context.Context, call ToolCall) ToolResult

// ToolCall is one call of a declared tool.
type ToolCall struct {
	ID        string
	TurnID    string
	Name      string
	Arguments json.RawMessage
}

// ToolResult is a tool's answer: text, and images beside it.
type ToolResult struct {
	Text   string
	Images []Image
}

// ImageFitter returns data URLs ("data:image/<subtype>;base64,<data>") for
// images, re-encoding those over an equal share of room as smaller JPEGs, so
// that the URLs, JSON-encoded as an array of strings (brackets, quotes and
// commas included), take at most room bytes. ok is false when nothing fits.
type ImageFitter func(images []Image, room int) (urls []string, ok bool)

// Delegation is one item of the backend's delegations list.
type Delegation struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	StartedAt int64  `json:"started_at"`
	State     string `json:"state"` // "running" or "done"
	EndedAt   int64  `json:"ended_at,omitempty"`
	Status    string `json:"status,omitempty"` // "ok", "error", "unknown" on done items
	Summary   string `json:"summary,omitempty"`
}

// DelegationStore persists the delegation history (settings: yui.delegation_history).
type DelegationStore interface {
	LoadDelegations() []Delegation
	SaveDelegations(history []Delegation) error
}

// Conversation keeps the conversation a request transport holds on the client
// (the Chat Completions transcript, the Responses previous_response_id)
// across restarts. The app keeps one file per preset beside the settings.
//
// The transport calls Load once, from its constructor, before any turn
// runs. It calls Save from one goroutine of its own, one call at a time,
// with the whole state to keep: after a turn was kept in the conversation
// and after Reset (then with an empty conversation). The data holds no
// key and no image, and is bounded (request.MaxConversationBytes); its last
// Save returns before the transport's Close does.
type Conversation interface {
	// Load returns what Save last saved; an error wrapping fs.ErrNotExist
	// when nothing was. The transport starts an empty conversation on
	// any error or on data it cannot read, and logs why.
	Load() ([]byte, error)
	// Save replaces the saved data atomically: a crash leaves the old
	// data or the new, never a mix.
	Save(data []byte) error
}

// Event is one thing a transport reports. It is one of the *Event types below.
type Event interface{ isEvent() }

// ConnState is a connection state shown in the status pill.
type ConnState int

const (
	StateIdle         ConnState = iota // not started
	StateConnecting                    // dialing or waiting for ready
	StateReady                         // usable
	StateReconnecting                  // waiting RetryIn before the next attempt
	StateKeyRejected                   // 4401: no retry until settings change or Reconnect
	StateOffline                       // request transports: the server could not be reached
	StateInvalid                       // the settings cannot work (Err says why); no dial
	StateClosed                        // Close was called
	StateRateLimited                   // request transports: waiting out a server's Retry-After (RetryAt) before sending again
)

func (s ConnState) String() string {
	switch s {
	case StateIdle:
		return "idle"
	case StateConnecting:
		return "connecting"
	case StateReady:
		return "ready"
	case StateReconnecting:
		return "reconnecting"
	case StateKeyRejected:
		return "key rejected"
	case StateOffline:
		return "offline"
	case StateInvalid:
		return "invalid settings"
	case StateClosed:
		return "closed"
	case StateRateLimited:
		return "rate limited"
	}
	return "unknown"
}

// StateEvent reports a connection state change.
type StateEvent struct {
	State ConnState
	// RetryAt is when the next attempt starts (StateReconnecting,
	// StateRateLimited).
	RetryAt time.Time
	// RetryIn is the delay that was scheduled (StateReconnecting).
	RetryIn time.Duration
	// CloseCode is the WebSocket close code that caused the change, if any.
	CloseCode int
	// Err is the reason for StateInvalid or StateOffline.
	Err error
	// AutoModel is, on a ready request transport whose preset names no
	// model, the model it picked itself (the first the server lists); ""
	// otherwise.
	AutoModel string
	// Server names the local server a ready request transport talks to
	// ("Ollama"), and Model is then the model its turns send; both ""
	// when the server is not one Options.Server knows.
	Server, Model string
}

// ServerInfo is what Options.Server tells of a request server.
type ServerInfo struct {
	// Name is the server program ("Ollama"); "" when unknown.
	Name string
	// NoModelHint says how to get a chat model onto it ("run: ollama
	// pull qwen3:4b"); "" when unknown.
	NoModelHint string
	// NoneLoaded: the server holds one model, loaded by the user, and its
	// having none is "no model loaded" (KoboldCpp, text-generation-webui).
	NoneLoaded bool
	// KeyHint says where the key of a local server that refuses without
	// one is ("paste Jan's API key (Jan → Settings → Local API Server)
	// into the preset's key"); "" when unknown.
	KeyHint string
}

// KeyNeededError is a request transport's StateKeyRejected reason when
// the server refusing the key is a local one that says where its key is
// (Jan since 0.5.18 wants one).
type KeyNeededError struct{ Info ServerInfo }

func (e *KeyNeededError) Error() string {
	name := e.Info.Name
	if name == "" {
		name = "the server"
	}
	return name + " needs its API key · " + e.Info.KeyHint
}

// NoModelError is a request transport's StateOffline reason when its
// server answers but lists no chat model for a preset that names none.
type NoModelError struct{ Info ServerInfo }

func (e *NoModelError) Error() string {
	name := e.Info.Name
	if name == "" {
		name = "the server"
	}
	if e.Info.NoneLoaded {
		return name + " has no model loaded · " + e.Info.NoModelHint
	}
	return name + " has no model · " + e.Info.NoModelHint
}

// RenderKind tells a render from a speech frame.
type RenderKind int

const (
	// KindRender closes the turn's open utterance after playing its segments.
	KindRender RenderKind = iota
	// KindSpeech is one finished sentence; the first one opens an utterance.
	KindSpeech
)

// RenderEvent is a reply to play: a push render or speech frame, or a
// sentence (speech) / the whole reply (render) of a request transport.
type RenderEvent struct {
	Kind     RenderKind
	TurnID   string
	Source   string
	Segments []Segment
	// Reasoning is the render frame's reasoning, nil when absent.
	Reasoning *string
	// OwnTurn is true when the client sent the turn; false for a run the
	// backend started on its own.
	OwnTurn bool
	// First is true on the first render or speech of the turn.
	First bool
}

// TurnOutcome is how a turn's running state ended.
type TurnOutcome int

const (
	// TurnCompleted: turn end arrived normally.
	TurnCompleted TurnOutcome = iota
	// TurnFailed: the turn failed (error frame, request error, network
	// failure before the first render). The pet speaks its failure line.
	TurnFailed
	// TurnStalled: the frame wait passed or the connection dropped after the
	// first render; the turn counts as delivered, no failure line.
	TurnStalled
	// TurnStopped: the user stopped the turn; its turn end arrived.
	TurnStopped
)

// TurnEndEvent releases the running state of a turn (composer unlocked,
// thinking cleared) and closes its open utterance. Outstanding turns whose
// wait ended may still get a late RenderEvent afterwards; that plays.
type TurnEndEvent struct {
	TurnID  string
	OwnTurn bool
	Outcome TurnOutcome
	// ErrorText is the server text to show for a failed turn the client sent
	// (one line, at most 200 characters), "" for the generic failure text.
	ErrorText string
	// Usage is nil when the backend had none.
	Usage *Usage
}

// ToolStatusEvent is the tool segment of the status pill.
type ToolStatusEvent struct {
	TurnID  string
	OwnTurn bool
	State   string // "running", "done", "failed"
	ToolID  string
}

// ReasoningEvent is reasoning text written so far.
type ReasoningEvent struct {
	TurnID string
	Delta  string
}

// DelegationsEvent carries the latest delegation list (done items past 30
// minutes already removed) and the history.
type DelegationsEvent struct {
	Items   []Delegation
	History []Delegation
}

// UsageEvent is the usage readout of a turn.
type UsageEvent struct {
	TurnID string
	Usage  Usage
}

func (*StateEvent) isEvent()       {}
func (*RenderEvent) isEvent()      {}
func (*TurnEndEvent) isEvent()     {}
func (*ToolStatusEvent) isEvent()  {}
func (*ReasoningEvent) isEvent()   {}
func (*DelegationsEvent) isEvent() {}
func (*UsageEvent) isEvent()       {}
