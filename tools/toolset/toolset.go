// Package toolset declares a pet window's client tools (docs/protocol/client-tools.md):
// which tools each pet declares, each one's schema, description and client
// wait, and the handlers behind them. A Set owns the handlers it runs:
// Close cancels the ones still running and waits for them, so no tool
// call outlives the session that made it.
package toolset

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"

	"yui/tools/address"
	"yui/tools/body"
	"yui/tools/browser"
	"yui/tools/facts"
	"yui/tools/look"
	"yui/tools/relation"
	"yui/tools/remind"
	"yui/transport"
	"yui/transport/toolcall"
)

// BrowserName is the browser tool's name (tools/browser has its
// declaration and handler).
const BrowserName = browser.Name

// Handlers are the tool handlers of one pet window. Each must return once
// its context ends.
type Handlers struct {
	Relation transport.ToolHandler // rate_relation: relation.New(...).Handler
	Address  transport.ToolHandler // address_character: address.New(...).Handler
	Body     Handler               // body_action, main only: *body.Actor
	Look     Handler               // look, main only: *look.Look
	Browser  Handler               // browser, while switched on and a browser is found: *browser.Browser
	// Memory answers the tools of what the pet keeps herself over the
	// request transports: facts and reminders.
	Memory MemoryHandlers
}

// Handler answers the calls of one tool that is an object of its own, as
// net/http's Handler answers requests: the tools that hold state across
// calls (the body's actor, the look tool, the browser) are Handlers
// themselves, so the app hands them over as they are.
type Handler interface {
	Handle(ctx context.Context, call transport.ToolCall) transport.ToolResult
}

// MemoryHandlers are the tools the request transports declare (Options'
// Memory and Reminders): a push backend keeps its own memory and
// schedule, so these go together or not at all.
type MemoryHandlers struct {
	Remember transport.ToolHandler // remember: facts.RememberTool(store).Handler
	Forget   transport.ToolHandler // forget: facts.ForgetTool(store).Handler
	Remind   transport.ToolHandler // remind: (*remind.Tools).Remind
	Cancel   transport.ToolHandler // cancel_reminder: (*remind.Tools).Cancel
}

// Options say which tools a pet window declares.
type Options struct {
	// Main is true for the active preset's pet window.
	Main bool
	// BrowserOn is the settings' browser switch; BrowserFound that a
	// Chromium-family browser was found on this machine.
	BrowserOn, BrowserFound bool
	// Memory is true for the request transports, which declare remember
	// and forget; a push backend keeps its own memory.
	Memory bool
	// Reminders is true for the request transports, which declare remind
	// and cancel_reminder; a push backend keeps its own schedule.
	Reminders bool
	// Others are the names of the other running characters, listed in
	// address_character's description.
	Others []string
}

// Set is a pet window's declared tools. Tools are fixed for a connection:
// when the active preset or the browser switch changes, the app builds a
// new Set for a new transport and closes the old one after it.
type Set struct {
	tools []transport.Tool

	ctx     context.Context // ends on Close
	cancel  context.CancelFunc
	mu      sync.Mutex // guards closed against wg.Add racing Wait
	closed  bool
	wg      sync.WaitGroup
	running atomic.Int32
}

// Declared returns the names a pet window declares, in declaration order:
// rate_relation and address_character always; body_action and look on
// main; browser while switched on and found; remember and forget over
// the request transports.
func Declared(o Options) []string {
	names := []string{relation.Name, address.Name}
	if o.Main {
		names = append(names, body.Name, look.Name)
	}
	if o.BrowserOn && o.BrowserFound {
		names = append(names, BrowserName)
	}
	if o.Memory {
		names = append(names, facts.RememberName, facts.ForgetName)
	}
	if o.Reminders {
		names = append(names, remind.RemindName, remind.CancelName)
	}
	return names
}

// New returns the Set for o. A declared tool without a handler is an error.
func New(h Handlers, o Options) (*Set, error) {
	ctx, cancel := context.WithCancel(context.Background())
	s := &Set{ctx: ctx, cancel: cancel}
	for _, name := range Declared(o) {
		t, handler := spec(name, o), handlerOf(h, name)
		if handler == nil {
			cancel()
			return nil, errors.New("toolset: no handler for " + name)
		}
		t.Handler = s.wrap(handler)
		s.tools = append(s.tools, t)
	}
	return s, nil
}

// spec returns a tool's declaration without its handler.
func spec(name string, o Options) transport.Tool {
	switch name {
	case relation.Name:
		return transport.Tool{Name: name, Description: relation.Description, Parameters: json.RawMessage(relation.Parameters), Wait: relation.Wait}
	case address.Name:
		// address builds its own description, which lists the others.
		t := address.New("", o.Others, nil)
		t.Handler = nil
		return t
	case body.Name:
		return transport.Tool{Name: name, Description: body.Description, Parameters: json.RawMessage(body.Parameters), Wait: body.Wait}
	case look.Name:
		return transport.Tool{Name: name, Description: look.Description, Parameters: json.RawMessage(look.Parameters), Wait: look.Wait}
	case facts.RememberName:
		return transport.Tool{Name: name, Description: facts.RememberDescription, Parameters: json.RawMessage(facts.RememberParameters), Wait: facts.Wait}
	case facts.ForgetName:
		return transport.Tool{Name: name, Description: facts.ForgetDescription, Parameters: json.RawMessage(facts.ForgetParameters), Wait: facts.Wait}
	case remind.RemindName:
		return transport.Tool{Name: name, Description: remind.RemindDescription, Parameters: json.RawMessage(remind.RemindParameters), Wait: remind.Wait}
	case remind.CancelName:
		return transport.Tool{Name: name, Description: remind.CancelDescription, Parameters: json.RawMessage(remind.CancelParameters), Wait: remind.Wait}
	default:
		return transport.Tool{Name: browser.Name, Description: browser.Description, Parameters: json.RawMessage(browser.Parameters), Wait: browser.Wait}
	}
}

// handlerOf is h's handler of the tool name; nil when h has none.
func handlerOf(h Handlers, name string) transport.ToolHandler {
	switch name {
	case relation.Name:
		return h.Relation
	case address.Name:
		return h.Address
	case body.Name:
		return handle(h.Body)
	case look.Name:
		return handle(h.Look)
	case BrowserName:
		return handle(h.Browser)
	case facts.RememberName:
		return h.Memory.Remember
	case facts.ForgetName:
		return h.Memory.Forget
	case remind.RemindName:
		return h.Memory.Remind
	case remind.CancelName:
		return h.Memory.Cancel
	}
	return nil
}

// handle is h's Handle method as a transport.ToolHandler; nil for no h.
func handle(h Handler) transport.ToolHandler {
	if h == nil {
		return nil
	}
	return h.Handle
}

// Tools returns the declared tools for transport.Options.Tools. Their
// handlers run under the Set: their context also ends on Close.
func (s *Set) Tools() []transport.Tool { return append([]transport.Tool(nil), s.tools...) }

// Running returns how many handler calls are running now.
func (s *Set) Running() int { return int(s.running.Load()) }

// wrap runs h under the Set: counted, and cancelled by Close.
func (s *Set) wrap(h transport.ToolHandler) transport.ToolHandler {
	return func(ctx context.Context, call transport.ToolCall) transport.ToolResult {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return transport.ToolResult{Text: toolcall.ErrTurnStopped}
		}
		s.wg.Add(1)
		s.mu.Unlock()
		s.running.Add(1)
		defer func() {
			s.running.Add(-1)
			s.wg.Done()
		}()
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		defer context.AfterFunc(s.ctx, cancel)()
		return h(ctx, call)
	}
}

// Close cancels the context of every running handler and returns once
// they all have returned; later calls answer "error: turn stopped"
// without running. Call it after closing the transport that calls the
// handlers. Idempotent.
func (s *Set) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.cancel()
	s.wg.Wait()
}
