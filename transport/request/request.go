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
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
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
	// maxErrorBody bounds how much of an HTTP error body is read.
	maxErrorBody = 64 << 10
)

// Input is the user message of a turn.
type Input struct {
	// Text is the client_context block, a blank line, then the user's words.
	Text string
	// Images are data URLs: the screenshot first, then the attachments.
	Images []string
}

// Params are what every request of a turn sends besides the conversation.
type Params struct {
	Model           string
	ReasoningEffort string
	// Instructions is the card followed by the cue paragraph.
	Instructions string
	// Tools are generate_express followed by the declared client tools.
	Tools []ToolSpec
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
	Reasoning(delta string)
	Usage(u transport.Usage)
	// ToolStatus reports a tool the backend runs itself ("running", "done",
	// "failed").
	ToolStatus(state, toolID string)
}

// ErrMalformed marks a stream event that could not be read; the engine
// logs and skips it.
var ErrMalformed = errors.New("malformed stream event")

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
}

// Exchange is one turn's conversation with the server, one round (request
// and streamed reply) at a time. The engine uses it from one goroutine.
type Exchange interface {
	// Body starts a round and returns its JSON request body.
	Body(p Params) ([]byte, error)
	// Event reads one stream event of the round. An error ends the round:
	// a *StatusError for an error the stream reported, ErrMalformed for an
	// event to skip.
	Event(name string, data []byte, s Sink) error
	// Finished reports whether the round's reply ended normally.
	Finished() bool
	// Calls are the round's tool calls, in order.
	Calls() []Call
	// Answer records the results of the round's calls for the next round.
	Answer(results []Result)
	// Commit keeps the turn in the conversation. complete is false for a
	// stopped or stalled turn: only what was finished is kept.
	Commit(complete bool)
}

// Cause of a turn context's cancellation.
var (
	errStopped = errors.New("turn stopped")
	errClosed  = errors.New("transport closed")
	errStall   = errors.New("no stream event within the frame wait")
	// errCut is a stream that ended before its reply did.
	errCut = errors.New("stream ended before the reply")
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

	ctx    context.Context // ends on Close
	cancel context.CancelFunc
	wake   chan struct{}
	wg     sync.WaitGroup
	out    *outbox

	mu         sync.Mutex
	state      transport.StateEvent
	vocab      transport.Vocabulary
	exprSchema *toolcall.Schema // compiled generate_express schema, nil when it failed
	exprRaw    json.RawMessage
	nextID     int64
	queue      []*turn
	cur        *turn
	closed     bool
}

// turn is one outstanding turn.
type turn struct {
	id     string
	in     transport.Turn
	ctx    context.Context
	cancel context.CancelCauseFunc
	// Guarded by Engine.mu.
	ended    bool // its TurnEndEvent went out
	rendered bool // its first render went out
}

// New returns an engine for d. The base URL must be http or https.
func New(d Dialect, opts transport.Options) (*Engine, error) {
	u, err := url.Parse(opts.ChatBaseURL)
	if err != nil {
		return nil, fmt.Errorf("%s: chat_base_url: %w", d.Name(), err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("%s: chat_base_url %q: want an http or https URL", d.Name(), opts.ChatBaseURL)
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
	ctx, cancel := context.WithCancel(context.Background())
	e := &Engine{
		d:    d,
		opts: opts,
		url:  strings.TrimRight(opts.ChatBaseURL, "/") + d.Path(),
		clk:  clk,
		log:  log.With("transport", d.Name()),
		loc:  loc,
		// No client timeout: the frame wait bounds each stream event
		// instead, and a long reply may stream for minutes.
		client: &http.Client{},
		runner: runner,
		ctx:    ctx,
		cancel: cancel,
		wake:   make(chan struct{}, 1),
		out:    newOutbox(),
		nextID: clk.Now().UnixMilli(),
	}
	e.setVocabulary(opts.Vocabulary)
	e.wg.Add(2)
	go func() { defer e.wg.Done(); e.out.run() }()
	go func() { defer e.wg.Done(); e.work() }()
	return e, nil
}

// SetHTTPClient replaces the HTTP client (tests, proxies). Call it before Start.
func (e *Engine) SetHTTPClient(c *http.Client) { e.client = c }

// Start marks the transport usable.
func (e *Engine) Start() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.state.State == transport.StateIdle {
		e.setStateLocked(transport.StateEvent{State: transport.StateReady})
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
	tn := &turn{id: id, in: t}
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

// Reset starts a new conversation.
func (e *Engine) Reset() { e.d.Reset() }

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
func (e *Engine) Events() <-chan transport.Event { return e.out.ch }

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
	e.cancel()
	e.out.close()
	e.wg.Wait()
	e.runner.Close()
	return nil
}

func (e *Engine) setStateLocked(s transport.StateEvent) {
	if e.state.State == s.State && s.State != transport.StateOffline {
		return
	}
	e.state = s
	e.out.push(&s)
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
	e.out.push(ev)
}

// end sends t's TurnEndEvent unless it already ended. It reports whether t
// had rendered.
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
	e.out.push(ev)
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
		Model:           e.opts.Model,
		ReasoningEffort: e.opts.ReasoningEffort,
		Instructions:    Instructions(e.opts.Card),
		Tools:           tools,
	}
}

// run plays one turn to its end.
func (e *Engine) run(t *turn) {
	if t.ctx.Err() != nil {
		return
	}
	block := clientctx.Build(e.clk.Now(), e.loc, t.in)
	ex := e.d.Begin(Input{Text: clientctx.UserText(block, t.in.Text), Images: turnImages(t.in)})
	r := &reply{e: e, t: t}
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
	ex.Commit(true)
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
	case errors.Is(err, errStopped), errors.Is(err, errClosed), errors.Is(err, context.Canceled) && e.ctx.Err() != nil:
		// Interrupt or Close already ended the turn.
		ex.Commit(false)
		return
	case errors.Is(err, errStall), errors.Is(err, errCut):
		name := "network_stall"
		if errors.Is(err, errCut) {
			name = "network_drop"
		}
		e.log.Warn(name, "turn_id", t.id, "stage", stage, "err", err.Error())
		if rendered {
			ex.Commit(false)
			end.Outcome = transport.TurnStalled
		}
	case errors.As(err, &ce):
		e.log.Warn("request_failed", "turn_id", t.id, "err", err.Error())
		e.setState(transport.StateEvent{State: transport.StateOffline, Err: err})
	case errors.As(err, &se):
		e.log.Warn("request_error", "turn_id", t.id, "status", se.Status, "kind", se.Kind, "err", Cut(se.Error(), 500))
		end.ErrorText = ErrorText(err)
	default:
		e.log.Warn("request_failed", "turn_id", t.id, "err", err.Error())
	}
	e.end(t, end)
}

// connError is a request that could not reach the server.
type connError struct{ err error }

func (c *connError) Error() string { return "cannot reach the server: " + c.err.Error() }
func (c *connError) Unwrap() error { return c.err }

// round sends one request and streams its reply into r. The frame wait
// runs from the request and restarts at every stream event.
func (e *Engine) round(t *turn, ex Exchange, r *reply) error {
	body, err := ex.Body(e.params())
	if err != nil {
		return fmt.Errorf("encode request: %w", err)
	}
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
	e.setState(transport.StateEvent{State: transport.StateReady})
	if resp.StatusCode/100 != 2 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		text, _ := ServerText(b)
		return &StatusError{Status: resp.StatusCode, Text: text, HTTP: true}
	}
	w.kick()

	dec := ssestream.NewDecoder(resp)
	defer dec.Close()
	done := false
	for !done && dec.Next() {
		w.kick()
		ev := dec.Event()
		if bytes.HasPrefix(bytes.TrimSpace(ev.Data), []byte("[DONE]")) {
			done = true
			break
		}
		if err := ex.Event(ev.Type, ev.Data, r); err != nil {
			if errors.Is(err, ErrMalformed) {
				e.log.Warn("stream_malformed", "turn_id", t.id, "event", ev.Type, "err", err.Error())
				continue
			}
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
		var text string
		var images []string
		if json.Valid(args) {
			out := e.runner.Run(t.ctx, transport.ToolCall{ID: c.ID, TurnID: t.id, Name: c.Name, Arguments: args})
			text, images = e.fitResult(out)
		} else if declared {
			text = toolcall.InvalidField("arguments")
		} else {
			text = toolcall.ErrUnknownTool
		}
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

// DataURL encodes an image as a data URL.
func DataURL(im transport.Image) string {
	mime := im.MIME
	if mime == "" {
		mime = "image/png"
	}
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(im.Data)
}

// turnImages are the turn's images: the screenshot first, then attachments.
func turnImages(t transport.Turn) []string {
	var urls []string
	if t.Screenshot != nil && len(t.Screenshot.Image.Data) > 0 {
		urls = append(urls, DataURL(t.Screenshot.Image))
	}
	for _, im := range t.Attachments {
		urls = append(urls, DataURL(im))
	}
	return urls
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
