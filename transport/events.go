package transport

import "time"

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
