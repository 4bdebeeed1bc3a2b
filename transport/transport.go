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
