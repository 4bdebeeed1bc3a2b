package toolcall

// The Runner: one chat's tool calls, one at a time, in arrival order.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"yui/transport"
	"yui/transport/clock"
)

// tool is a declared tool with its compiled schema.
type tool struct {
	transport.Tool
	schema *Schema
}

// job is one accepted call waiting for or holding the runner.
type job struct {
	call   transport.ToolCall
	reply  func(transport.ToolResult)
	result chan transport.ToolResult // buffered 1: the first answer wins
	cancel context.CancelFunc        // set when the job starts running
}

// offer records res as the job's answer unless it already has one.
func (j *job) offer(res transport.ToolResult) {
	select {
	case j.result <- res:
	default:
	}
}

// MaxQueued bounds the calls waiting behind the running one. A backend
// adapter sends one call at a time per chat (docs/protocol/push-transport.md), so a
// backend that keeps to the protocol never queues more than a few; one
// that floods the client with calls has the ones past the bound dropped,
// with a log line ("tool_call_dropped", reason "queue_full") and no
// answer: its own wait answers them, as for a call the client cannot read.
const MaxQueued = 32

// Runner runs the tool calls of one chat one at a time, in arrival order.
type Runner struct {
	tools map[string]*tool
	clk   clock.Clock
	log   *slog.Logger

	ctx    context.Context // ends on Close
	cancel context.CancelFunc
	wake   chan struct{} // buffered 1: the queue grew
	done   chan struct{} // closed when the loop has returned

	mu      sync.Mutex
	queue   []*job
	running *job
	syncRun map[*job]struct{} // calls inside Run
	stopped []string          // recently stopped turn ids, oldest first
	closed  bool
}

// NewRunner returns a runner for the declared tools. Schemas that do not
// compile are an error naming the tool. clk nil is the wall clock; log nil
// discards. The runner's goroutine runs until Close.
func NewRunner(tools []transport.Tool, clk clock.Clock, log *slog.Logger) (*Runner, error) {
	if clk == nil {
		clk = clock.Real{}
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	m := make(map[string]*tool, len(tools))
	for _, t := range tools {
		if t.Name == "" {
			return nil, errors.New("toolcall: tool without a name")
		}
		if _, dup := m[t.Name]; dup {
			return nil, fmt.Errorf("toolcall: tool %s declared twice", t.Name)
		}
		s, err := Compile(t.Parameters)
		if err != nil {
			return nil, fmt.Errorf("toolcall: tool %s: %w", t.Name, err)
		}
		m[t.Name] = &tool{Tool: t, schema: s}
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &Runner{
		tools:   m,
		clk:     clk,
		log:     log,
		ctx:     ctx,
		cancel:  cancel,
		wake:    make(chan struct{}, 1),
		done:    make(chan struct{}),
		syncRun: make(map[*job]struct{}),
	}
	go r.loop()
	return r, nil
}

// Declared reports whether name is a declared tool.
func (r *Runner) Declared(name string) bool {
	_, ok := r.tools[name]
	return ok
}

// precheck returns the at-once answer of a call, or "" when it may run.
// r.mu must be held.
func (r *Runner) precheck(call transport.ToolCall) string {
	t, ok := r.tools[call.Name]
	if !ok || t.Handler == nil {
		return ErrUnknownTool
	}
	if r.isStopped(call.TurnID) {
		return ErrTurnStopped
	}
	return t.schema.Check(call.Arguments)
}

func (r *Runner) isStopped(turnID string) bool {
	for _, id := range r.stopped {
		if id == turnID {
			return true
		}
	}
	return false
}

// Submit takes one call. Unknown tools and invalid arguments are answered at
// once through reply (even while another call runs). A call whose id repeats
// one queued or running is dropped with a log line ("tool_call_duplicate",
// id, turn_id) and never answered; Submit then returns false, as it does
// for a call past MaxQueued waiting calls. Otherwise the
// call is queued; when it starts running its tool's Wait starts, and reply
// gets the handler's result, or "error: no result within <n> s" when the
// wait passes first. reply is called from the runner's goroutine (or, for
// at-once answers, from the caller's), exactly once per accepted call.
//
// A call naming a turn CancelTurn stopped is answered ErrTurnStopped at
// once. After Close, Submit answers nothing and returns false.
func (r *Runner) Submit(call transport.ToolCall, reply func(transport.ToolResult)) bool {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return false
	}
	// The duplicate check comes first: answering a repeated id, even with
	// an error, would resolve the original call's waiter on the backend.
	if r.holds(call.ID) {
		r.mu.Unlock()
		r.log.Warn("tool_call_duplicate", "id", call.ID, "turn_id", call.TurnID, "name", call.Name)
		return false
	}
	if msg := r.precheck(call); msg != "" {
		r.mu.Unlock()
		reply(transport.ToolResult{Text: msg})
		return true
	}
	if len(r.queue) >= MaxQueued {
		r.mu.Unlock()
		r.log.Warn("tool_call_dropped", "id", call.ID, "turn_id", call.TurnID, "name", call.Name, "reason", "queue_full")
		return false
	}
	r.queue = append(r.queue, &job{call: call, reply: reply, result: make(chan transport.ToolResult, 1)})
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
	return true
}

// holds reports whether a call with id is queued or running. r.mu must be held.
func (r *Runner) holds(id string) bool {
	if r.running != nil && r.running.call.ID == id {
		return true
	}
	for _, j := range r.queue {
		if j.call.ID == id {
			return true
		}
	}
	return false
}

// loop runs queued calls one at a time until Close.
func (r *Runner) loop() {
	defer close(r.done)
	for {
		r.mu.Lock()
		var j *job
		if len(r.queue) > 0 {
			j = r.queue[0]
			r.queue = r.queue[1:]
			r.running = j
		}
		r.mu.Unlock()
		if j == nil {
			select {
			case <-r.wake:
				continue
			case <-r.ctx.Done():
				return
			}
		}
		res, ok := r.runJob(j)
		r.mu.Lock()
		r.running = nil
		r.mu.Unlock()
		if !ok {
			return
		}
		j.reply(res)
	}
}

// runJob runs one call with its wait. ok is false when the runner closed first.
func (r *Runner) runJob(j *job) (res transport.ToolResult, ok bool) {
	t := r.tools[j.call.Name]
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel()
	r.mu.Lock()
	j.cancel = cancel
	r.mu.Unlock()
	wait := t.Wait
	if wait <= 0 {
		wait = DefaultWait
	}
	timer := r.clk.AfterFunc(wait, func() { j.offer(transport.ToolResult{Text: NoResultWithin(wait)}) })
	defer timer.Stop()
	go func() { j.offer(callHandler(ctx, t.Handler, j.call)) }()
	select {
	case res = <-j.result:
		return res, true
	case <-r.ctx.Done():
		return res, false
	}
}

// callHandler runs h, turning a panic into an error result so that one
// broken tool cannot take the chat's runner down.
func callHandler(ctx context.Context, h transport.ToolHandler, call transport.ToolCall) (res transport.ToolResult) {
	defer func() {
		if p := recover(); p != nil {
			res = transport.ToolResult{Text: fmt.Sprintf("error: tool failed: %v", p)}
		}
	}()
	return h(ctx, call)
}

// CancelTurn answers every queued call of the turn ErrTurnStopped at once and
// cancels the running one's context (its reply is then ErrTurnStopped).
// Later calls naming the turn are answered ErrTurnStopped at once; the
// runner remembers the last 64 stopped turns.
func (r *Runner) CancelTurn(turnID string) {
	var stoppedJobs []*job
	r.mu.Lock()
	if !r.isStopped(turnID) {
		r.stopped = append(r.stopped, turnID)
		if len(r.stopped) > stoppedKept {
			r.stopped = r.stopped[len(r.stopped)-stoppedKept:]
		}
	}
	kept := r.queue[:0]
	for _, j := range r.queue {
		if j.call.TurnID == turnID {
			stoppedJobs = append(stoppedJobs, j)
		} else {
			kept = append(kept, j)
		}
	}
	clear(r.queue[len(kept):])
	r.queue = kept
	var cancels []context.CancelFunc
	stop := func(j *job) {
		if j != nil && j.call.TurnID == turnID {
			j.offer(transport.ToolResult{Text: ErrTurnStopped})
			if j.cancel != nil {
				cancels = append(cancels, j.cancel)
			}
		}
	}
	stop(r.running)
	for j := range r.syncRun {
		stop(j)
	}
	r.mu.Unlock()
	for _, c := range cancels {
		c()
	}
	for _, j := range stoppedJobs {
		j.reply(transport.ToolResult{Text: ErrTurnStopped})
	}
}

// Run validates and runs a single call synchronously with the tool's wait:
// what the request transports use inside their tool loop. It returns the
// same result strings as Submit. ctx ending before the result (the request
// was aborted) or CancelTurn naming the call's turn answers ErrTurnStopped.
func (r *Runner) Run(ctx context.Context, call transport.ToolCall) transport.ToolResult {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return transport.ToolResult{Text: ErrTurnStopped}
	}
	if msg := r.precheck(call); msg != "" {
		r.mu.Unlock()
		return transport.ToolResult{Text: msg}
	}
	t := r.tools[call.Name]
	hctx, cancel := context.WithCancel(ctx)
	defer cancel()
	j := &job{call: call, result: make(chan transport.ToolResult, 1), cancel: cancel}
	r.syncRun[j] = struct{}{}
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.syncRun, j)
		r.mu.Unlock()
	}()
	wait := t.Wait
	if wait <= 0 {
		wait = DefaultWait
	}
	timer := r.clk.AfterFunc(wait, func() { j.offer(transport.ToolResult{Text: NoResultWithin(wait)}) })
	defer timer.Stop()
	go func() { j.offer(callHandler(hctx, t.Handler, call)) }()
	select {
	case res := <-j.result:
		return res
	case <-ctx.Done():
		return transport.ToolResult{Text: ErrTurnStopped}
	case <-r.ctx.Done():
		return transport.ToolResult{Text: ErrTurnStopped}
	}
}

// Close stops the runner goroutine; queued calls are dropped unanswered.
// The running call's context is cancelled and it is not answered either.
// Close does not wait for handlers, which must return once their context
// ends. Close is idempotent.
func (r *Runner) Close() {
	r.mu.Lock()
	r.closed = true
	r.queue = nil
	r.mu.Unlock()
	r.cancel()
	<-r.done
}
