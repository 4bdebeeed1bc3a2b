// Package request is the engine the two request transports (Chat
// Completions and Responses) share: turn ids and queue, the turn loop with
// client-run tools and generate_express cues, sentence cutting, the 240 s
// wait between stream events, the error-text rules, connection state and
// logging. A Dialect supplies the wire format of one API.
package request

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openai/openai-go/v3/packages/ssestream"

	"yui/transport"
	"yui/transport/clientctx"
	"yui/transport/clock"
	"yui/transport/toolcall"
)

// Limits.
const (
	// FrameWait is the wait for each stream event of a turn, counted from
	// the request and again from every event (push-transport.md limits).
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
	// at most MaxMemoryBytes), nil for none. The engine takes it after a
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
	// a *StatusError for an error the stream reported, ErrStreamEnd for
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

	budget *budgeter

	// Memory across restarts (memory.go); saver is nil without one.
	memMu   sync.Mutex
	memFile memoryFile
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
	nextID     int64
	queue      []*turn
	cur        *turn
	closed     bool
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
		out:    transport.NewEventQueue(),
		nextID: clk.Now().UnixMilli(),
		budget: newBudgeter(opts.ContextWindow),
	}
	e.loadMemory()
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

// Start marks the transport usable, or, with Options.Probe, connecting
// until a probe of the server says whether it can be reached.
func (e *Engine) Start() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.state.State != transport.StateIdle || e.closed {
		return
	}
	if !e.opts.Probe {
		e.setStateLocked(transport.StateEvent{State: transport.StateReady})
		return
	}
	e.setStateLocked(transport.StateEvent{State: transport.StateConnecting})
	e.wg.Add(1)
	go func() { defer e.wg.Done(); e.probe() }()
}

// probeTimeout bounds the start-up probe; a turn has its own frame wait.
const probeTimeout = 10 * time.Second

// probe asks for the model list: any HTTP answer means the server is
// there (401 and 403: with a key it refuses), no answer means offline. A
// turn that already changed the state wins over the probe. With no model
// set, the first model listed is the one the turns use.
func (e *Engine) probe() {
	ctx, cancel := context.WithTimeout(e.ctx, probeTimeout)
	defer cancel()
	next := transport.StateEvent{State: transport.StateReady}
	status, first, err := e.listModels(ctx)
	switch {
	case err != nil:
		if e.ctx.Err() != nil {
			return
		}
		err = &connError{err}
		e.log.Warn("probe_failed", "err", e.redact(err.Error()))
		next = transport.StateEvent{State: transport.StateOffline, Err: err}
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		next = transport.StateEvent{State: transport.StateKeyRejected}
	default:
		e.pickModel(first)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.state.State == transport.StateConnecting && !e.closed {
		e.setStateLocked(next)
	}
}

// maxModelList bounds how much of a model list is read: a router such as
// OpenRouter lists hundreds of models, and only the first one is needed.
const maxModelList = 8 << 20

// listModels asks GET {chat_base_url}/models and returns the answer's
// status and, when it is a list, the first model's id. An error means no
// HTTP answer came.
func (e *Engine) listModels(ctx context.Context) (status int, first string, err error) {
	status, err = GetModels(ctx, e.client, e.opts.ChatBaseURL, e.opts.Key, func(body io.Reader) {
		if e.opts.Model == "" {
			first = FirstModel(io.LimitReader(body, maxModelList))
		}
	})
	return status, first, err
}

// GetModels asks a server GET {base}/models with the key as a bearer
// token and hands a 2xx answer's body to read. It returns the HTTP status;
// an error means no HTTP answer came.
func GetModels(ctx context.Context, client *http.Client, base, key string, read func(body io.Reader)) (int, error) {
	url, err := Endpoint(base, "/models")
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 == 2 {
		read(resp.Body)
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, maxErrorBody))
	return resp.StatusCode, nil
}

// ModelIDs reads a whole model list ({"data":[{"id":...},...]}, at most
// maxModelList bytes) and returns its ids.
func ModelIDs(r io.Reader) ([]string, error) {
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(r, maxModelList)).Decode(&list); err != nil {
		return nil, fmt.Errorf("the model list does not parse: %w", err)
	}
	var ids []string
	for _, m := range list.Data {
		if id := strings.TrimSpace(m.ID); id != "" {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// FirstModel reads a model list, {"object":"list","data":[{"id":...},...]},
// up to its first model and returns that model's id; "" when the list is
// empty or not in that shape. The rest of the list is not read.
func FirstModel(r io.Reader) string {
	dec := json.NewDecoder(r)
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return ""
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return ""
		}
		if key != "data" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return ""
			}
			continue
		}
		if tok, err := dec.Token(); err != nil || tok != json.Delim('[') || !dec.More() {
			return ""
		}
		var m struct {
			ID string `json:"id"`
		}
		if dec.Decode(&m) != nil {
			return ""
		}
		return strings.TrimSpace(m.ID)
	}
	return ""
}

// pickModel makes model the one the turns send, when none is set and none
// was picked yet, and says so in the log.
func (e *Engine) pickModel(model string) {
	if model == "" || e.opts.Model != "" {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.model != "" {
		return
	}
	e.model = model
	e.log.Info("model_auto", "model", model)
	if e.state.State == transport.StateReady {
		e.setStateLocked(transport.StateEvent{State: transport.StateReady}) // the pill says which
	}
}

// Model is the model the turns send: the preset's, or with none set, the
// first model the server lists (once the probe or the first turn asked);
// "" while none is known.
func (e *Engine) Model() string {
	if e.opts.Model != "" {
		return e.opts.Model
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.model
}

// resolveModel asks the server for its models when no model is set, the
// transport probes its server, and no model was picked yet (the probe has
// not answered yet, or found the server down). A server that lists none
// gets requests with no model, and picks its own.
func (e *Engine) resolveModel(turn context.Context) {
	if !e.opts.Probe || e.Model() != "" {
		return
	}
	ctx, cancel := context.WithTimeout(turn, probeTimeout)
	defer cancel()
	_, first, err := e.listModels(ctx)
	if err == nil {
		e.pickModel(first)
	}
	if e.Model() == "" && turn.Err() == nil {
		e.log.Warn("model_auto_failed", "err", "the server lists no model")
	}
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
	e.saveMemory(true)
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

// Reconnect marks the transport usable again; the next turn tries the server.
func (e *Engine) Reconnect() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.closed {
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
	if e.state.State == s.State && s.State != transport.StateOffline && s.AutoModel == e.state.AutoModel {
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

// work runs queued turns one at a time until Close.
func (e *Engine) work() {
	for {
		e.mu.Lock()
		var t *turn
		if len(e.queue) > 0 {
			t, e.queue = e.queue[0], e.queue[1:]
		}
		e.cur = t
		e.mu.Unlock()
		if t != nil {
			e.run(t)
			t.cancel(nil)
			continue
		}
		select {
		case <-e.ctx.Done():
			return
		case <-e.wake:
		}
	}
}

// params snapshots what every request sends.
func (e *Engine) params() Params {
	e.mu.Lock()
	raw := e.exprRaw
	e.mu.Unlock()
	tools := make([]ToolSpec, 0, 1+len(e.opts.Tools))
	tools = append(tools, ToolSpec{Name: ExpressName, Description: ExpressDescription, Parameters: raw})
	for _, t := range e.opts.Tools {
		tools = append(tools, ToolSpec{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
	}
	return Params{
		Model:           e.Model(),
		ReasoningEffort: e.opts.ReasoningEffort,
		Instructions:    Instructions(e.opts.Card),
		Tools:           tools,
		Budget:          e.budget.budget(),
	}
}

// run plays one turn to its end.
func (e *Engine) run(t *turn) {
	if t.ctx.Err() != nil {
		return
	}
	e.resolveModel(t.ctx)
	block := clientctx.Build(t.at, e.loc, t.in)
	images, notes := turnImages(t.in)
	ex := e.d.Begin(Input{Text: clientctx.UserText(block, t.in.Text), Images: images, ImageNotes: notes})
	r := &reply{e: e, t: t}
	r.think.Implied = e.thinkImplied.Load()
	for round := 0; ; round++ {
		err := e.round(t, ex, r)
		if err != nil {
			e.fail(t, ex, r, err)
			return
		}
		calls := ex.Calls()
		if len(calls) == 0 {
			break
		}
		// A tool call is a cue boundary: text before it is a sentence.
		r.flush()
		if round == MaxRounds-1 {
			e.log.Warn("tool_round_limit", "turn_id", t.id, "rounds", MaxRounds)
			res := make([]Result, len(calls))
			for i, c := range calls {
				res[i] = Result{Call: c, Text: "error: tool round limit reached"}
			}
			ex.Answer(res)
			break
		}
		res := e.runCalls(t, calls, r)
		if cause := context.Cause(t.ctx); cause != nil {
			e.fail(t, ex, r, cause)
			return
		}
		ex.Answer(res)
	}
	e.commit(ex, true)
	r.finish()
	e.end(t, &transport.TurnEndEvent{TurnID: t.id, OwnTurn: true, Outcome: transport.TurnCompleted, Usage: r.usage})
}

// fail ends a turn whose round failed with err.
func (e *Engine) fail(t *turn, ex Exchange, r *reply, err error) {
	if cause := context.Cause(t.ctx); cause != nil && !errors.Is(err, errStall) {
		err = cause
	}
	rendered := e.rendered(t)
	stage := "push_wait"
	if rendered {
		stage = "push_turn_end"
	}
	end := &transport.TurnEndEvent{TurnID: t.id, OwnTurn: true, Outcome: transport.TurnFailed, Usage: r.usage}
	var se *StatusError
	var ce *connError
	switch {
	case errors.Is(err, errStopped), errors.Is(err, errClosed):
		// Interrupt or Close already ended the turn.
		e.commit(ex, false)
		return
	case errors.Is(err, errStall), errors.Is(err, errCut):
		// The frame wait passing and the stream ending early are push's
		// wait passing and socket leaving ready: the same outcomes and
		// log lines.
		switch {
		case errors.Is(err, ErrEventTooLarge):
			e.log.Warn("frame_oversize", "direction", "in", "turn_id", t.id, "limit", MaxEventBytes)
		case errors.Is(err, errStall):
			e.log.Warn("network_stall", "turn_id", t.id, "stage", stage)
		default:
			e.log.Warn("network_drop", "turn_id", t.id, "stage", stage, "err", e.redact(err.Error()))
		}
		if rendered {
			e.commit(ex, false)
			end.Outcome = transport.TurnStalled
		}
	case errors.As(err, &ce):
		// An unreachable server is push's socket that is not ready: a
		// network failure, or a delivered turn once something rendered.
		e.log.Warn("network_drop", "turn_id", t.id, "stage", stage, "err", e.redact(err.Error()))
		e.setState(transport.StateEvent{State: transport.StateOffline, Err: err})
		if rendered {
			e.commit(ex, false)
			end.Outcome = transport.TurnStalled
		}
	case errors.As(err, &se):
		se.Text = e.redact(se.Text)
		e.log.Warn("request_error", "turn_id", t.id, "status", se.Status, "kind", se.Kind, "code", e.redact(se.Code), "err", Cut(se.Error(), 500))
		end.ErrorText = ErrorText(se)
	default:
		e.log.Warn("request_failed", "turn_id", t.id, "err", e.redact(err.Error()))
	}
	e.end(t, end)
}

// redact blanks the key out of server text: a server may echo the key it
// refused, and the key never appears in a log line or on screen.
func (e *Engine) redact(s string) string {
	if e.opts.Key == "" {
		return s
	}
	return strings.ReplaceAll(s, e.opts.Key, "[key]")
}

// connError is a request that could not reach the server.
type connError struct{ err error }

func (c *connError) Error() string { return "cannot reach the server: " + c.err.Error() }
func (c *connError) Unwrap() error { return c.err }

// commit keeps the turn in the conversation and saves it.
func (e *Engine) commit(ex Exchange, complete bool) {
	ex.Commit(complete)
	e.saveMemory(false)
}

// round sends one request and streams its reply into r. A server that
// says the request is over its context gets it once more, trimmed
// harder, when nothing of the round was streamed yet.
func (e *Engine) round(t *turn, ex Exchange, r *reply) error {
	p := e.params()
	est, err := e.send(t, ex, r, p)
	over, stated := Overflow(err)
	if !over || r.heard || context.Cause(t.ctx) != nil {
		return err
	}
	p.Budget = e.budget.tight(est, stated)
	e.log.Warn("context_overflow", "turn_id", t.id, "estimate", p.Budget.Tokens(est), "room", p.Budget.Room, "stated", stated)
	_, err = e.send(t, ex, r, p)
	return err
}

// send sends one request and streams its reply into r; est is the
// request's estimated size in tokens. The frame wait runs from the
// request and restarts at every stream event.
func (e *Engine) send(t *turn, ex Exchange, r *reply, p Params) (est int, err error) {
	body, err := ex.Body(p)
	if err != nil {
		return 0, fmt.Errorf("encode request: %w", err)
	}
	est = Estimate(body)
	if tr, ok := ex.(Trimmer); ok && tr.Dropped() > 0 {
		e.log.Debug("context_trim", "turn_id", t.id, "dropped_turns", tr.Dropped(), "estimate", p.Budget.Tokens(est), "room", p.Budget.Room)
	}
	r.beginRound(est)
	return est, e.post(t, ex, r, body)
}

// post sends body and streams the reply into r.
func (e *Engine) post(t *turn, ex Exchange, r *reply, body []byte) error {
	ctx, cancel := context.WithCancelCause(t.ctx)
	defer cancel(nil)
	w := &watchdog{clk: e.clk, fire: func() { cancel(errStall) }}
	w.kick()
	defer w.stop()

	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.url, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	if e.opts.Key != "" {
		req.Header.Set("Authorization", "Bearer "+e.opts.Key)
	}
	resp, err := e.client.Do(req)
	if err != nil {
		if cause := context.Cause(ctx); cause != nil {
			return cause
		}
		return &connError{err}
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
		// The server refused the key: the status pill says so, as it does
		// for push's 4401, until a request goes through again.
		e.setState(transport.StateEvent{State: transport.StateKeyRejected})
	} else {
		e.setState(transport.StateEvent{State: transport.StateReady})
	}
	if resp.StatusCode/100 != 2 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		se := ServerError(b)
		se.Status, se.HTTP = resp.StatusCode, true
		return se
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "application/json" {
		// A server that answers a streamed request with one JSON body
		// either reports an error in it or does not stream at all.
		b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		if se := ServerError(b); se.Text != "" {
			return se
		}
		return errNotStream
	}
	// The response headers are no stream event: the wait armed at the
	// request keeps running until the first event.

	dec := NewDecoder(resp)
	defer dec.Close()
	done := false
	for !done && dec.Next() {
		w.kick()
		ev := dec.Event()
		switch err := ex.Event(ev.Type, ev.Data, r); {
		case err == nil:
		case errors.Is(err, ErrStreamEnd):
			done = true
		case errors.Is(err, ErrMalformed):
			e.log.Warn("stream_malformed", "turn_id", t.id, "event", ev.Type, "err", err.Error())
		default:
			return err
		}
	}
	if cause := context.Cause(ctx); cause != nil {
		return cause
	}
	if !done && !ex.Finished() {
		if err := dec.Err(); err != nil {
			return fmt.Errorf("%w: %w", errCut, err)
		}
		return errCut
	}
	return nil
}

// NewDecoder reads the event stream of resp with the SDK's decoder, each
// event bounded by MaxEventBytes: past it the decoder stops and its Err is
// ErrEventTooLarge.
func NewDecoder(resp *http.Response) ssestream.Decoder {
	resp.Body = &eventLimiter{r: resp.Body, max: MaxEventBytes}
	return ssestream.NewDecoder(resp)
}

// eventLimiter fails a server-sent event stream whose current event grows
// past max bytes. The SDK's decoder buffers a line up to 32 MiB and the
// data lines of an event without bound; this keeps both under max.
type eventLimiter struct {
	r   io.ReadCloser
	max int
	n   int  // bytes of the current event so far
	bol bool // at the beginning of a line: a line break now ends the event
	err error
}

func (l *eventLimiter) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.r.Read(p)
	for i, b := range p[:n] {
		switch b {
		case '\n':
			if l.bol {
				l.n = 0 // a blank line: the event is complete
				continue
			}
			l.bol = true
		case '\r':
			// Part of a CRLF line break; it leaves bol as it is.
		default:
			l.bol = false
		}
		if l.n++; l.n > l.max {
			l.err = ErrEventTooLarge
			return i, l.err
		}
	}
	return n, err
}

func (l *eventLimiter) Close() error { return l.r.Close() }

// runCalls answers a round's calls in order: generate_express here, the
// declared tools through the runner with their own waits.
func (e *Engine) runCalls(t *turn, calls []Call, r *reply) []Result {
	res := make([]Result, 0, len(calls))
	for _, c := range calls {
		if t.ctx.Err() != nil {
			res = append(res, Result{Call: c, Text: toolcall.ErrTurnStopped})
			continue
		}
		args := json.RawMessage(c.Arguments)
		if strings.TrimSpace(c.Arguments) == "" {
			args = json.RawMessage("{}")
		}
		if c.Name == ExpressName {
			res = append(res, Result{Call: c, Text: e.express(r, args)})
			continue
		}
		declared := e.runner.Declared(c.Name)
		if declared {
			r.toolStatus(e.d.RunningStatus(), "running", c.Name)
		}
		// The runner answers an unknown tool and arguments that are not
		// a JSON object (or break the schema) with push's result strings.
		out := e.runner.Run(t.ctx, transport.ToolCall{ID: c.ID, TurnID: t.id, Name: c.Name, Arguments: args})
		text, images := e.fitResult(out)
		if declared {
			r.toolStatus(true, "done", c.Name)
		}
		res = append(res, Result{Call: c, Text: text, Images: images})
	}
	return res
}

// express answers a generate_express call and queues its cue.
func (e *Engine) express(r *reply, args json.RawMessage) string {
	if !json.Valid(args) {
		return toolcall.InvalidField("arguments")
	}
	e.mu.Lock()
	s := e.exprSchema
	e.mu.Unlock()
	if s == nil {
		return toolcall.InvalidField("arguments")
	}
	if msg := s.Check(args); msg != "" {
		return msg
	}
	var c transport.Cue
	if err := json.Unmarshal(args, &c); err != nil {
		return toolcall.InvalidField("arguments")
	}
	r.cue(c)
	return "ok"
}

// fitResult applies the tool_result size limit to a result.
func (e *Engine) fitResult(res transport.ToolResult) (string, []string) {
	textJSON, _ := json.Marshal(res.Text)
	if len(textJSON) > ResultLimit {
		return toolcall.ErrResultTooLarge, nil
	}
	if len(res.Images) == 0 {
		return res.Text, nil
	}
	room := ResultLimit - len(textJSON)
	if e.opts.FitImages != nil {
		urls, ok := e.opts.FitImages(res.Images, room)
		if !ok {
			return toolcall.ErrResultTooLarge, nil
		}
		return res.Text, urls
	}
	// No fitter: keep the images that fit, leave out the others.
	var urls []string
	used := 2 // brackets
	for _, im := range res.Images {
		u := DataURL(im)
		if used+len(u)+3 > room {
			continue
		}
		used += len(u) + 3
		urls = append(urls, u)
	}
	return res.Text, urls
}

// MarshalBody encodes a request body as JSON without escaping <, > and &:
// the client_context block is full of them, and servers and logs read the
// body better as written.
func MarshalBody(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// DataURL encodes an image as a data URL.
func DataURL(im transport.Image) string {
	mime := im.MIME
	if mime == "" {
		mime = "image/png"
	}
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(im.Data)
}

// turnImages are the turn's images, the screenshot first, then
// attachments, and what each one is.
func turnImages(t transport.Turn) (urls, notes []string) {
	if t.Screenshot != nil && len(t.Screenshot.Image.Data) > 0 {
		urls = append(urls, DataURL(t.Screenshot.Image))
		notes = append(notes, "the screenshot")
	}
	for _, im := range t.Attachments {
		urls = append(urls, DataURL(im))
		notes = append(notes, "an image the user attached")
	}
	return urls, notes
}

// watchdog cancels a round when no stream event arrives within FrameWait.
type watchdog struct {
	clk  clock.Clock
	fire func()
	mu   sync.Mutex
	t    clock.Timer
	off  bool
}

// kick restarts the wait.
func (w *watchdog) kick() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.off {
		return
	}
	if w.t != nil {
		w.t.Stop()
	}
	w.t = w.clk.AfterFunc(FrameWait, w.fire)
}

func (w *watchdog) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.off = true
	if w.t != nil {
		w.t.Stop()
	}
}
