// Package toolcall validates client-declared tool calls against their JSON
// schemas and runs them one at a time per chat, with each tool's client
// wait (push-transport.md "tool_call and tool_result", client-tools.md).
// Push and the request transports share it, so the result strings match.
package toolcall

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"yui/transport"
	"yui/transport/clock"
)

// Generic error results of push-transport.md.
const (
	ErrUnknownTool    = "error: unknown tool"
	ErrTurnStopped    = "error: turn stopped"
	ErrResultTooLarge = "error: result too large"
)

// DefaultWait is the client wait of a tool whose Wait is not positive.
// A tool without a wait would hold the chat's queue forever.
const DefaultWait = 2 * time.Second

// stoppedKept bounds how many stopped turn ids a Runner remembers to answer
// their late calls ErrTurnStopped.
const stoppedKept = 64

// MissingField returns "error: missing field <name>".
func MissingField(name string) string { return "error: missing field " + name }

// InvalidField returns "error: invalid field <name>".
func InvalidField(name string) string { return "error: invalid field " + name }

// NoResultWithin returns "error: no result within <n> s", the answer of a
// call whose client wait passed.
func NoResultWithin(wait time.Duration) string {
	return "error: no result within " + strconv.FormatFloat(wait.Seconds(), 'f', -1, 64) + " s"
}

// Schema is a compiled tool parameter schema: the subset of JSON Schema the
// declared tools use (object, properties, required, additionalProperties,
// type string/integer/number/boolean/object/array, enum, minimum, maximum,
// maxLength counted in code points).
type Schema struct {
	root *node
}

// node is one compiled (sub)schema. Keywords outside the subset
// (description, title, default, ...) are ignored.
type node struct {
	types      []string // empty: any type
	enum       []any    // decoded values; nil: no enum
	minimum    *float64
	maximum    *float64
	maxLength  int // -1: none
	properties map[string]*node
	required   []string
	noExtra    bool // additionalProperties: false
	items      *node
}

type rawSchema struct {
	Type                 json.RawMessage            `json:"type"`
	Enum                 []json.RawMessage          `json:"enum"`
	Minimum              *float64                   `json:"minimum"`
	Maximum              *float64                   `json:"maximum"`
	MaxLength            *int                       `json:"maxLength"`
	Properties           map[string]json.RawMessage `json:"properties"`
	Required             []string                   `json:"required"`
	AdditionalProperties json.RawMessage            `json:"additionalProperties"`
	Items                json.RawMessage            `json:"items"`
}

var knownTypes = map[string]bool{
	"string": true, "integer": true, "number": true, "boolean": true,
	"object": true, "array": true, "null": true,
}

// Compile parses a tool's parameters schema. The root must describe an
// object (type "object" or no type). An empty raw schema accepts any object.
func Compile(raw json.RawMessage) (*Schema, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return &Schema{root: &node{types: []string{"object"}, maxLength: -1}}, nil
	}
	n, err := compileNode(raw, "parameters")
	if err != nil {
		return nil, err
	}
	if len(n.types) == 0 {
		n.types = []string{"object"}
	}
	if len(n.types) != 1 || n.types[0] != "object" {
		return nil, errors.New("toolcall: parameters: root schema must be of type object")
	}
	return &Schema{root: n}, nil
}

func compileNode(raw json.RawMessage, path string) (*node, error) {
	var rs rawSchema
	if err := json.Unmarshal(raw, &rs); err != nil {
		return nil, fmt.Errorf("toolcall: %s: %w", path, err)
	}
	n := &node{maxLength: -1, minimum: rs.Minimum, maximum: rs.Maximum, required: rs.Required}
	if len(rs.Type) > 0 {
		var one string
		if err := json.Unmarshal(rs.Type, &one); err == nil {
			n.types = []string{one}
		} else if err := json.Unmarshal(rs.Type, &n.types); err != nil {
			return nil, fmt.Errorf("toolcall: %s: type must be a string or a list of strings", path)
		}
		for _, t := range n.types {
			if !knownTypes[t] {
				return nil, fmt.Errorf("toolcall: %s: unsupported type %q", path, t)
			}
		}
	}
	if rs.Enum != nil {
		n.enum = make([]any, 0, len(rs.Enum))
		for _, e := range rs.Enum {
			var v any
			if err := json.Unmarshal(e, &v); err != nil {
				return nil, fmt.Errorf("toolcall: %s: enum: %w", path, err)
			}
			n.enum = append(n.enum, v)
		}
	}
	if rs.MaxLength != nil {
		if *rs.MaxLength < 0 {
			return nil, fmt.Errorf("toolcall: %s: negative maxLength", path)
		}
		n.maxLength = *rs.MaxLength
	}
	if len(rs.Properties) > 0 {
		n.properties = make(map[string]*node, len(rs.Properties))
		for name, p := range rs.Properties {
			c, err := compileNode(p, path+"."+name)
			if err != nil {
				return nil, err
			}
			n.properties[name] = c
		}
	}
	if ap := bytes.TrimSpace(rs.AdditionalProperties); len(ap) > 0 {
		// Only the boolean form is in the subset; a schema-valued
		// additionalProperties is read as "allowed".
		n.noExtra = string(ap) == "false"
	}
	if len(rs.Items) > 0 {
		c, err := compileNode(rs.Items, path+"[]")
		if err != nil {
			return nil, err
		}
		n.items = c
	}
	return n, nil
}

// Check validates call arguments. It returns "" when they are acceptable,
// else the result text to answer at once: MissingField, InvalidField (a
// wrong type, a value outside enum/range/length, an undeclared field when
// additionalProperties is false). args must be a JSON object; anything else
// is InvalidField("arguments"). Empty args read as {}, since a backend may
// leave the arguments of a call without parameters out.
//
// Missing required fields are reported before invalid ones; nested fields
// are named by their dotted path. An integer is a JSON number written
// without fraction or exponent that fits in 64 bits, so that handlers can
// decode it into an int.
func (s *Schema) Check(args json.RawMessage) string {
	args = bytes.TrimSpace(args)
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	if args[0] != '{' || !json.Valid(args) {
		return InvalidField("arguments")
	}
	return s.root.check(args, "")
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

var intLiteral = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

// check validates a value known to be valid JSON; path names it in errors.
func (n *node) check(v json.RawMessage, path string) string {
	name := path
	if name == "" {
		name = "arguments"
	}
	bad := InvalidField(name)
	kind := jsonKind(v)
	if len(n.types) > 0 {
		ok := false
		for _, t := range n.types {
			if t == kind || (t == "number" && kind == "integer") {
				ok = true
				break
			}
		}
		if !ok {
			return bad
		}
	}
	if n.enum != nil {
		var dv any
		if json.Unmarshal(v, &dv) != nil {
			return bad
		}
		found := false
		for _, e := range n.enum {
			if reflect.DeepEqual(e, dv) {
				found = true
				break
			}
		}
		if !found {
			return bad
		}
	}
	switch kind {
	case "integer", "number":
		if kind == "integer" {
			if _, err := strconv.ParseInt(string(v), 10, 64); err != nil && containsType(n.types, "integer") {
				return bad
			}
		}
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil || math.IsInf(f, 0) {
			return bad
		}
		if n.minimum != nil && f < *n.minimum {
			return bad
		}
		if n.maximum != nil && f > *n.maximum {
			return bad
		}
	case "string":
		if n.maxLength >= 0 {
			var s string
			if json.Unmarshal(v, &s) != nil || utf8.RuneCountInString(s) > n.maxLength {
				return bad
			}
		}
	case "object":
		var fields map[string]json.RawMessage
		if json.Unmarshal(v, &fields) != nil {
			return bad
		}
		for _, r := range n.required {
			if _, ok := fields[r]; !ok {
				return MissingField(join(path, r))
			}
		}
		names := make([]string, 0, len(fields))
		for k := range fields {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			p, ok := n.properties[k]
			if !ok {
				if n.noExtra {
					return InvalidField(join(path, k))
				}
				continue
			}
			if msg := p.check(fields[k], join(path, k)); msg != "" {
				return msg
			}
		}
	case "array":
		if n.items == nil {
			break
		}
		var elems []json.RawMessage
		if json.Unmarshal(v, &elems) != nil {
			return bad
		}
		for _, e := range elems {
			if msg := n.items.check(e, name); msg != "" {
				return msg
			}
		}
	}
	return ""
}

func containsType(types []string, t string) bool {
	for _, x := range types {
		if x == t {
			return true
		}
	}
	return false
}

// jsonKind names the JSON Schema type of a valid JSON value; a number is
// "integer" when written as a plain integer literal.
func jsonKind(v json.RawMessage) string {
	switch v[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	if intLiteral.Match(v) {
		return "integer"
	}
	return "number"
}

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
// adapter sends one call at a time per chat (push-transport.md), so a
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
