// Package request is the engine the two request transports (Chat
// Completions and Responses) share: turn ids and queue, the turn loop with
// client-run tools and generate_express cues, sentence cutting, the 240 s
// wait between stream events, the error-text rules, connection state and
// logging. A Dialect supplies the wire format of one API.
package request

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"yui/transport"
	"yui/transport/clock"
	"yui/transport/toolcall"
)

// Limits.
const (
	// FrameWait is the wait for each stream event of a turn, counted from
	// the request and again from every event (docs/protocol/push-transport.md limits).
	FrameWait = 240 * time.Second
	// MaxRounds bounds the requests of one turn: a model that keeps calling
	// tools is cut off after this many.
	MaxRounds = 8
	// ResultLimit is the size limit of a tool result, as for a push
	// tool_result frame without max_turn_bytes.
	ResultLimit = 256 << 10
	// MaxEventBytes bounds one stream event, its lines included: a server
	// that sends an endless line or event fails the turn instead of
	// taking memory without bound. A Responses response.completed event
	// repeats the whole reply, so the bound is well above any real event.
	MaxEventBytes = 4 << 20
	// maxErrorBody bounds how much of an HTTP error body is read.
	maxErrorBody = 64 << 10
)

// Input is the user message of a turn.
type Input struct {
	// Text is the client_context block, a blank line, then the user's words.
	Text string
	// Images are data URLs: the screenshot first, then the attachments.
	Images []string
	// ImageNotes say what each image was ("the screenshot"), for the
	// note that stands in for it once a newer turn carries the images.
	ImageNotes []string
}

// Params are what every request of a turn sends besides the conversation.
type Params struct {
	Model           string
	ReasoningEffort string
	// Instructions is the card followed by the cue paragraph.
	Instructions string
	// Tools are generate_express followed by the declared client tools.
	Tools []ToolSpec
	// Budget bounds the conversation the request carries.
	Budget Budget
}

// Call is one tool call the model made.
type Call struct {
	ID        string
	Name      string
	Arguments string
}

// Result answers a Call.
type Result struct {
	Call Call
	Text string
	// Images are data URLs beside the text.
	Images []string
}

// Sink receives what a stream carries. Dialects call it from Exchange.Event.
type Sink interface {
	Text(delta string)
	// Refusal is a refusal the model streams in place of text: its own
	// words, spoken as the reply and logged as a refusal.
	Refusal(delta string)
	Reasoning(delta string)
	Usage(u transport.Usage)
	// ToolStatus reports a tool the backend runs itself ("running", "done",
	// "failed").
	ToolStatus(state, toolID string)
}

// ErrMalformed marks a stream event that could not be read; the engine
// logs and skips it.
var ErrMalformed = errors.New("malformed stream event")

// ErrStreamEnd marks the event that ends a round's stream (Chat
// Completions' [DONE], Responses' response.completed): the engine reads
// no further, so a server that keeps the connection open after it does
// not hold the turn until the frame wait passes.
var ErrStreamEnd = errors.New("end of stream")

// ErrEventTooLarge is a stream event over MaxEventBytes.
var ErrEventTooLarge = fmt.Errorf("stream event over %d bytes", MaxEventBytes)

// Dialect is the wire format of one request API.
type Dialect interface {
	// Name is the render source and log name, e.g. "chat_completions".
	Name() string
	// Path is the endpoint appended to chat_base_url, e.g. "/chat/completions".
	Path() string
	// Begin opens the exchange of one turn.
	Begin(in Input) Exchange
	// Reset starts a new conversation. An exchange begun before it commits
	// nothing.
	Reset()
	// RunningStatus reports whether a client tool's run shows "running"
	// before its "done" (Responses), or only "done" (Chat Completions).
	RunningStatus() bool
	// Snapshot is the conversation to keep across a restart (no image,
	// at most MaxConversationBytes), nil for none. The engine takes it after a
	// Commit.
	Snapshot() []byte
	// Restore continues the conversation a Snapshot saved, before any
	// turn. sameServer is false when it was saved for another endpoint.
	// An error leaves the conversation empty.
	Restore(state []byte, sameServer bool) error
}

// Exchange is one turn's conversation with the server, one round (request
// and streamed reply) at a time. The engine uses it from one goroutine.
type Exchange interface {
	// Body starts a round and returns its JSON request body.
	Body(p Params) ([]byte, error)
	// Event reads one stream event of the round. An error ends the round:
	// a *apierror.StatusError for an error the stream reported, ErrStreamEnd for
	// the event that ends the stream, ErrMalformed for an event to skip.
	Event(name string, data []byte, s Sink) error
	// Finished reports whether the round's reply ended normally.
	Finished() bool
	// Calls are the round's tool calls, in order.
	Calls() []Call
	// Answer records the results of the round's calls for the next round.
	Answer(results []Result)
	// Commit keeps the turn in the conversation. complete is false for a
	// stopped or stalled turn: only what was finished is kept. Images go
	// no further than the turn that carried them: a short note stays.
	Commit(complete bool)
}

// Trimmer is an Exchange whose requests carry the conversation and may
// leave its oldest turns out to keep within the budget.
type Trimmer interface {
	// Dropped is how many turns the last Body left out.
	Dropped() int
}

// Cause of a turn context's cancellation.
var (
	errStopped = errors.New("turn stopped")
	errClosed  = errors.New("transport closed")
	errStall   = errors.New("no stream event within the frame wait")
	// errCut is a stream that ended before its reply did.
	errCut = errors.New("stream ended before the reply")
	// errNotStream is a success answer that is not an event stream.
	errNotStream = errors.New("the server answered without an event stream")
)

// Engine implements transport.Transport over a Dialect.
type Engine struct {
	d      Dialect
	opts   transport.Options
	url    string
	clk    clock.Clock
	log    *slog.Logger
	loc    *time.Location
	client *http.Client
	runner *toolcall.Runner

	ctx    context.Context // ends on Close, with cause errClosed
	cancel context.CancelCauseFunc
	wake   chan struct{}
	wg     sync.WaitGroup
	out    *transport.EventQueue

	budget    *budgeter
	summaries summariser // summaries of dropped turns (facts.go)

	// The conversation across restarts (conversation.go); saver is nil without one.
	memMu   sync.Mutex
	memFile conversationFile
	saver   *saver

	// thinkImplied is set once a stream closed a reasoning block it never
	// opened: the server's chat template writes the <think>.
	thinkImplied atomic.Bool

	mu         sync.Mutex
	state      transport.StateEvent
	vocab      transport.Vocabulary
	exprSchema *toolcall.Schema // compiled generate_express schema, nil when it failed
	exprRaw    json.RawMessage
	model      string // picked from the server's list when opts.Model is ""
	probe      probeState
	nextID     int64
	queue      []*turn
	cur        *turn
	closed     bool
}

// probeState is the server probe's part of the engine (reprobe.go),
// guarded by Engine.mu but for now, which wakes the probe loop.
type probeState struct {
	server  transport.ServerInfo // what Options.Server told
	asked   bool                 // Options.Server was asked
	running bool                 // probeLoop runs
	now     chan struct{}        // wakes probeLoop's wait
}

// turn is one outstanding turn.
type turn struct {
	id string
	in transport.Turn
	// at is when the turn was sent: the client_context time line.
	at     time.Time
	ctx    context.Context
	cancel context.CancelCauseFunc
	// Guarded by Engine.mu.
	ended    bool // its TurnEndEvent went out
	rendered bool // its first render went out
}

// New returns an engine for d. The base URL must be http or https.
func New(d Dialect, opts transport.Options) (*Engine, error) {
	endpoint, err := Endpoint(opts.ChatBaseURL, d.Path())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.Name(), err)
	}
	clk := opts.Clock
	if clk == nil {
		clk = clock.Real{}
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	loc := opts.Location
	if loc == nil {
		loc = time.Local
	}
	runner, err := toolcall.NewRunner(opts.Tools, clk, log)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.Name(), err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	e := &Engine{
		d:    d,
		opts: opts,
		url:  endpoint,
		clk:  clk,
		log:  log.With("transport", d.Name()),
		loc:  loc,
		// No client timeout: the frame wait bounds each stream event
		// instead, and a long reply may stream for minutes. The engine
		// owns its connection pool so that Close leaves no idle
		// connection (and its goroutines) behind.
		client: &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()},
		runner: runner,
		ctx:    ctx,
		cancel: cancel,
		wake:   make(chan struct{}, 1),
		probe:  probeState{now: make(chan struct{}, 1)},
		out:    transport.NewEventQueue(),
		nextID: clk.Now().UnixMilli(),
		budget: newBudgeter(opts.ContextWindow),
	}
	e.loadConversation()
	e.setVocabulary(opts.Vocabulary)
	e.wg.Add(2)
	go func() { defer e.wg.Done(); e.out.Run() }()
	go func() { defer e.wg.Done(); e.work() }()
	return e, nil
}

// Endpoint joins chat_base_url and an API path:
// http://127.0.0.1:11434/v1 and /chat/completions give
// http://127.0.0.1:11434/v1/chat/completions, with or without a trailing
// slash on the base. A query on the base (an api-version, say) is kept.
// The base must be an http or https URL with a host.
func Endpoint(base, path string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil {
		return "", fmt.Errorf("chat_base_url: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return "", fmt.Errorf("chat_base_url %q: want an http or https URL", base)
	}
	u.Path = strings.TrimRight(u.Path, "/") + path
	u.RawPath = ""
	u.Fragment, u.RawFragment = "", ""
	return u.String(), nil
}

// Send queues a turn and returns its id. Turns run one at a time, in order.
func (e *Engine) Send(t transport.Turn) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	id := strconv.FormatInt(e.nextID, 10)
	e.nextID++
	e.log.Info("turn", "turn_id", id, "trigger", string(t.Trigger), "spoke_text", t.Trigger == transport.TriggerUserVoice)
	if e.closed {
		return id
	}
	tn := &turn{id: id, in: t, at: e.clk.Now()}
	tn.ctx, tn.cancel = context.WithCancelCause(e.ctx)
	e.queue = append(e.queue, tn)
	select {
	case e.wake <- struct{}{}:
	default:
	}
	return id
}

// Interrupt stops every outstanding turn: its request is aborted and it
// ends with TurnStopped at once. notifyBackend makes no difference here.
func (e *Engine) Interrupt(notifyBackend bool) []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var ids []string
	stop := func(t *turn) {
		if t == nil || t.ended {
			return
		}
		t.cancel(errStopped)
		e.endLocked(t, &transport.TurnEndEvent{TurnID: t.id, OwnTurn: true, Outcome: transport.TurnStopped})
		ids = append(ids, t.id)
	}
	stop(e.cur)
	for _, t := range e.queue {
		stop(t)
	}
	e.queue = nil
	return ids
}

// Reset starts a new conversation and clears the saved one.
func (e *Engine) Reset() {
	e.d.Reset()
	e.saveConversation(true)
}

// SetVocabulary replaces the vocabulary generate_express offers and checks.
func (e *Engine) SetVocabulary(v transport.Vocabulary) { e.setVocabulary(v) }

func (e *Engine) setVocabulary(v transport.Vocabulary) {
	raw := ExpressSchema(v)
	s, err := toolcall.Compile(raw)
	if err != nil {
		e.log.Error("express_schema", "err", err)
	}
	e.mu.Lock()
	e.vocab, e.exprRaw, e.exprSchema = v, raw, s
	e.mu.Unlock()
}

// ReportPlaybackFailed does nothing: the next turn's "previous turn:" line
// carries the failure.
func (e *Engine) ReportPlaybackFailed(turnID string) {}

// Reconnect marks the transport usable again; the next turn tries the
// server. With Options.Probe it probes the server now instead (reprobe.go).
func (e *Engine) Reconnect() {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case e.closed:
	case e.opts.Probe:
		e.reprobeLocked()
	default:
		e.setStateLocked(transport.StateEvent{State: transport.StateReady})
	}
}

// Events is the ordered stream of everything the transport reports.
func (e *Engine) Events() <-chan transport.Event { return e.out.C() }

// State is the current connection state.
func (e *Engine) State() transport.StateEvent {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.state
}

// Close aborts every turn, stops the engine's goroutines and closes Events.
func (e *Engine) Close() error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil
	}
	e.closed = true
	e.setStateLocked(transport.StateEvent{State: transport.StateClosed})
	e.queue = nil
	e.mu.Unlock()
	e.cancel(errClosed)
	e.out.Close()
	e.wg.Wait()
	if e.saver != nil {
		e.saver.stop()
	}
	e.runner.Close()
	e.client.CloseIdleConnections()
	return nil
}

func (e *Engine) setStateLocked(s transport.StateEvent) {
	if s.State == transport.StateReady && e.opts.Model == "" {
		s.AutoModel = e.model
	}
	if s.State == transport.StateReady && e.probe.server.Name != "" {
		s.Server, s.Model = e.probe.server.Name, e.opts.Model
		if s.Model == "" {
			s.Model = e.model
		}
	}
	if e.state.State == s.State && s.State != transport.StateOffline && s.AutoModel == e.state.AutoModel && s.Server == e.state.Server {
		return
	}
	e.state = s
	e.out.Push(&s)
}

func (e *Engine) setState(s transport.StateEvent) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.closed {
		e.setStateLocked(s)
	}
}

// emit sends an event of turn t unless t already ended (stopped).
func (e *Engine) emit(t *turn, ev transport.Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if t.ended {
		return
	}
	if r, ok := ev.(*transport.RenderEvent); ok {
		r.First = !t.rendered
		t.rendered = true
	}
	e.out.Push(ev)
}

// end sends t's TurnEndEvent unless it already ended.
func (e *Engine) end(t *turn, ev *transport.TurnEndEvent) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.endLocked(t, ev)
}

func (e *Engine) endLocked(t *turn, ev *transport.TurnEndEvent) {
	if t.ended {
		return
	}
	t.ended = true
	e.out.Push(ev)
}

func (e *Engine) rendered(t *turn) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return t.rendered
}
