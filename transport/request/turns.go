package request

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"yui/transport"
	"yui/transport/apierror"
	"yui/transport/clientctx"
	"yui/transport/textcut"
)

// The turn loop: one turn at a time, its rounds of request and tool calls,
// and how a failure ends it.

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
	b := e.budget.budget()
	return Params{
		Model:           e.Model(),
		ReasoningEffort: e.opts.ReasoningEffort,
		Instructions:    e.instructions(b), // facts.go
		Tools:           tools,
		Budget:          b,
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
	t.more = e.turnTools()
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
	e.afterTurn(ex) // facts.go
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
	var se *apierror.StatusError
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
		e.log.Warn("request_error", "turn_id", t.id, "status", se.Status, "kind", se.Kind, "code", e.redact(se.Code), "err", textcut.Cut(se.Error(), 500))
		end.ErrorText = apierror.ErrorText(se)
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
	e.saveConversation(false)
}

// round sends one request and streams its reply into r. A server that
// says the request is over its context gets it once more, trimmed
// harder, when nothing of the round was streamed yet.
func (e *Engine) round(t *turn, ex Exchange, r *reply) error {
	p := e.params()
	p.Tools = append(p.Tools, t.more.specs()...)
	est, err := e.sendWaiting(t, ex, r, p)
	over, stated := Overflow(err)
	if !over || r.heard || context.Cause(t.ctx) != nil {
		return err
	}
	p.Budget = e.budget.tight(est, stated)
	e.log.Warn("context_overflow", "turn_id", t.id, "estimate", p.Budget.Tokens(est), "room", p.Budget.Room, "stated", stated)
	_, err = e.sendWaiting(t, ex, r, p)
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

// post sends body and streams the reply into s.
func (e *Engine) post(t *turn, ex Exchange, s Sink, body []byte) error {
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
		se := apierror.ServerError(b)
		se.Status, se.HTTP = resp.StatusCode, true
		return limited(resp, e.clk.Now(), se)
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "application/json" {
		// A server that answers a streamed request with one JSON body
		// either reports an error in it or does not stream at all.
		b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		if se := apierror.ServerError(b); se.Text != "" {
			return se
		}
		return errNotStream
	}
	// The response headers are no stream event: the wait armed at the
	// request keeps running until the first event.
	e.log.Debug("stream_open", "turn_id", t.id, "status", resp.StatusCode)

	dec := NewDecoder(resp)
	defer dec.Close()
	done := false
	for !done && dec.Next() {
		w.kick()
		ev := dec.Event()
		switch err := ex.Event(ev.Type, ev.Data, s); {
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
