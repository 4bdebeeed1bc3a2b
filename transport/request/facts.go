package request

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"yui/transport"
	"yui/transport/textcut"
)

// Long-term memory (docs/protocol/client-tools.md "remember and forget"): the app's
// Options.Facts gives the text that follows the card in every request,
// within FactsRoom; and when the context budget leaves old turns out of
// the requests, one short request aside asks the model to keep what
// mattered in them through remember.

const (
	// RememberTool is the remember tool's name (docs/protocol/client-tools.md), the one
	// tool a summary request declares.
	RememberTool = "remember"
	// SummaryEvery is how many dropped turns one summary covers at most
	// once: a summary runs when this many more turns left the requests.
	SummaryEvery = 20
	// SummaryFacts bounds the facts one summary keeps.
	SummaryFacts = 3
	// SummaryWait bounds a whole summary request: it is short, and runs
	// beside the user's turns.
	SummaryWait = 60 * time.Second
	// summaryRunes bounds the dropped conversation a summary request carries.
	summaryRunes = 8000
)

// SummaryInstructions is the system prompt of a summary request.
const SummaryInstructions = `You keep the long-term memory of a desktop companion. The conversation below has just left the companion's context. Call the remember tool for at most 3 lasting facts from it that the companion should recall in later conversations: what the user shared about themselves (name, people and pets in their life, likes and dislikes, work or studies, plans and dates that matter) or about your relationship. One short fact per call, in your own words. Do not keep small talk, passing moods or what was on the screen. When nothing lasting was said, call nothing. Reply with no text.`

// FactsRoom is the room in tokens for the remembered facts of a
// request's system prompt: a tenth of the context window, 1,000 when it
// is not known.
func FactsRoom(window int) int {
	if window <= 0 {
		return 1000
	}
	return window / 10
}

// DroppedTexter is a Trimmer that can tell what the turns its last
// request left out said.
type DroppedTexter interface {
	Trimmer
	// DroppedText is the newest n of the turns the last request left out,
	// as "User: …" and "You: …" lines, cut to its newest maxRunes code points.
	DroppedText(n, maxRunes int) string
}

// Asider is a Dialect that can run an exchange outside its conversation:
// it starts from no earlier turn and its Commit keeps nothing.
type Asider interface {
	Aside(in Input) Exchange
}

// summariser counts the turns the requests dropped, for the summaries.
type summariser struct {
	mu      sync.Mutex
	seen    bool // the first turn sets the baseline: a restored long conversation is not new drops
	high    int  // the most turns a request of this conversation left out
	pending int  // dropped turns no summary covered yet
	busy    atomic.Bool
}

// observe records that a request left dropped turns out, and returns how
// many newly dropped turns a summary should cover now (0 for none).
func (rc *summariser) observe(dropped int) int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	switch {
	case !rc.seen:
		rc.seen, rc.high = true, dropped
		return 0
	case dropped == 0:
		rc.high = 0 // a new conversation, or all of it fits again
		return 0
	case dropped > rc.high:
		rc.pending += dropped - rc.high
		rc.high = dropped
	}
	if rc.pending < SummaryEvery {
		return 0
	}
	n := rc.pending
	rc.pending = 0
	return n
}

// instructions is the system prompt of a request: the card, the
// remembered facts within their room, the cue paragraph.
func (e *Engine) instructions(b Budget) string {
	card := e.opts.Card
	if e.opts.Facts == nil {
		return Instructions(card)
	}
	room := FactsRoom(e.budget.effectiveWindow())
	block := e.opts.Facts.Prompt(room, func(s string) int {
		j, err := MarshalBody(s)
		if err != nil {
			return len(s)
		}
		return b.Tokens(Estimate(j))
	})
	if block != "" {
		card = strings.TrimSpace(card + "\n\n" + block)
	}
	return Instructions(card)
}

// effectiveWindow is the context window the budget uses: the preset's,
// or the smaller one a server stated.
func (b *budgeter) effectiveWindow() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.learned > 0 && (b.window == 0 || b.learned < b.window) {
		return b.learned
	}
	return b.window
}

// afterTurn starts a summary of the dropped turns when enough more left
// the requests. It never holds up or fails the turn.
func (e *Engine) afterTurn(ex Exchange) {
	if e.opts.Facts == nil || !e.runner.Declared(RememberTool) {
		return
	}
	dt, ok := ex.(DroppedTexter)
	if !ok {
		return
	}
	if _, ok := e.d.(Asider); !ok {
		return
	}
	n := e.summaries.observe(dt.Dropped())
	if n == 0 {
		return
	}
	// The summary request fits the window too: about three code points a
	// token, less the instructions and the remember tool.
	runes := summaryRunes
	if room := e.budget.budget().Room; room > 0 {
		runes = min(runes, max(room-400, 100)*3)
	}
	text := dt.DroppedText(n, runes)
	if strings.TrimSpace(text) == "" || !e.summaries.busy.CompareAndSwap(false, true) {
		return
	}
	e.wg.Add(1) // the work goroutine holds the group: Close waits for this
	go func() {
		defer e.wg.Done()
		defer e.summaries.busy.Store(false)
		e.summarise(n, text)
	}()
}

// summarise runs one summary request of the n dropped turns in text and
// runs at most SummaryFacts of its remember calls.
func (e *Engine) summarise(n int, text string) {
	ctx, cancel := context.WithCancelCause(e.ctx)
	defer cancel(nil)
	timer := e.clk.AfterFunc(SummaryWait, func() { cancel(errStall) })
	defer timer.Stop()
	t := &turn{id: "summary-" + e.clk.Now().UTC().Format("20060102T150405.000"), ctx: ctx, cancel: cancel}
	var spec ToolSpec
	for _, tl := range e.opts.Tools {
		if tl.Name == RememberTool {
			spec = ToolSpec{Name: tl.Name, Description: tl.Description, Parameters: tl.Parameters}
		}
	}
	ex := e.d.(Asider).Aside(Input{Text: "The conversation that left the context (" + strconv.Itoa(n) + " turns, oldest first):\n\n" + text})
	body, err := ex.Body(Params{Model: e.Model(), Instructions: SummaryInstructions, Tools: []ToolSpec{spec}})
	if err == nil {
		e.log.Info("memory_summary_start", "turn_id", t.id, "dropped_turns", n)
		err = e.post(t, ex, discard{}, body)
	}
	if err != nil {
		if c := context.Cause(ctx); c != nil && !errors.Is(err, c) {
			err = c
		}
		e.log.Warn("memory_summary_failed", "turn_id", t.id, "err", e.redact(err.Error()))
		return
	}
	kept, calls := 0, 0
	for _, c := range ex.Calls() {
		if c.Name != RememberTool {
			continue
		}
		calls++
		if calls > SummaryFacts {
			break
		}
		res := e.runner.Run(ctx, transport.ToolCall{ID: c.ID, TurnID: t.id, Name: c.Name, Arguments: json.RawMessage(c.Arguments)})
		if strings.HasPrefix(res.Text, "ok: ") {
			kept++
		} else {
			e.log.Warn("memory_summary_call", "turn_id", t.id, "result", textcut.Cut(res.Text, 200))
		}
	}
	e.log.Info("memory_summary", "turn_id", t.id, "dropped_turns", n, "remember_calls", calls, "kept", kept)
}

// discard is the Sink of a summary request: its text is nobody's reply.
type discard struct{}

func (discard) Text(string)               {}
func (discard) Refusal(string)            {}
func (discard) Reasoning(string)          {}
func (discard) Usage(transport.Usage)     {}
func (discard) ToolStatus(string, string) {}
