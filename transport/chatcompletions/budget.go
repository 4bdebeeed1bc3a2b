package chatcompletions

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"yui/transport/request"
)

// MaxTurns bounds the transcript the client holds: older turns are
// dropped, as they would be from any request long before.
const MaxTurns = 1000

// turnRec is one turn of the transcript: its user message, the rounds of
// tool calls and results it made, and the reply. A turn is kept or dropped
// whole, so a tool call never goes without its result.
type turnRec struct {
	Msgs []message `json:"messages"`
	// est is the estimated tokens of Msgs in a request.
	est int
}

func newTurn(msgs []message) turnRec {
	t := turnRec{Msgs: msgs}
	for _, m := range msgs {
		t.est += estimateMsg(m)
	}
	return t
}

// estimate is request.Estimate, the one estimate of the engine.
func estimate(b []byte) int { return request.Estimate(b) }

// estimateMsg is a message's share of a request's estimate: its JSON and
// the comma after it.
func estimateMsg(m message) int { return estimate(mustJSON(m)) + 1 }

// fit is how many of the newest turns of base fit in budget beside fixed
// estimated tokens (the card, tools and the current turn, which always
// go).
func fit(base []turnRec, fixed int, budget request.Budget) int {
	used := fixed
	n := 0
	for i := len(base) - 1; i >= 0; i-- {
		if !budget.Fits(used + base[i].est) {
			break
		}
		used += base[i].est
		n++
	}
	return n
}

// keepNewest keeps the newest max turns.
func keepNewest(turns []turnRec, max int) []turnRec {
	if len(turns) <= max {
		return turns
	}
	// Copy so the dropped turns' memory goes.
	return append([]turnRec(nil), turns[len(turns)-max:]...)
}

// imageNotes is the text that stands in for images a newer turn no longer
// carries: what each was, when known.
func imageNotes(notes []string, n int) string {
	lines := make([]string, n)
	for i := range lines {
		what := "an image"
		if i < len(notes) && notes[i] != "" {
			what = notes[i]
		}
		lines[i] = "[image no longer shown: " + what + "]"
	}
	return strings.Join(lines, "\n")
}

// snapshot encodes the newest turns within request.MaxConversationBytes; nil
// for an empty transcript.
func snapshot(turns []turnRec) []byte {
	if len(turns) == 0 {
		return nil
	}
	enc := make([][]byte, 0, len(turns))
	size := 2
	for i := len(turns) - 1; i >= 0; i-- {
		b := mustJSON(turns[i])
		if size+len(b)+1 > request.MaxConversationBytes {
			break
		}
		size += len(b) + 1
		enc = append(enc, b)
	}
	var sb strings.Builder
	sb.Grow(size)
	sb.WriteByte('[')
	for i := len(enc) - 1; i >= 0; i-- {
		sb.Write(enc[i])
		if i > 0 {
			sb.WriteByte(',')
		}
	}
	sb.WriteByte(']')
	return []byte(sb.String())
}

// restore reads a snapshot. A transcript that breaks the rules servers
// check (a turn not opening with a user message, a tool result with no
// call before it, a role of another kind) is refused whole.
func restore(state []byte) ([]turnRec, error) {
	var turns []turnRec
	if err := json.Unmarshal(state, &turns); err != nil {
		return nil, fmt.Errorf("chat_completions memory: %w", err)
	}
	for i := range turns {
		if err := checkTurn(turns[i].Msgs); err != nil {
			return nil, fmt.Errorf("chat_completions memory: turn %d: %w", i, err)
		}
		turns[i] = newTurn(turns[i].Msgs)
	}
	return keepNewest(turns, MaxTurns), nil
}

func checkTurn(msgs []message) error {
	if len(msgs) == 0 || msgs[0].Role != "user" {
		return errors.New("does not open with a user message")
	}
	calls := map[string]bool{}
	for _, m := range msgs {
		switch m.Role {
		case "user":
		case "assistant":
			for _, c := range m.ToolCalls {
				calls[c.ID] = true
			}
		case "tool":
			if !calls[m.ToolCallID] {
				return fmt.Errorf("tool result %q without its call", m.ToolCallID)
			}
		default:
			return fmt.Errorf("role %q", m.Role)
		}
		if len(m.Content) > 0 && !json.Valid(m.Content) {
			return errors.New("content is not JSON")
		}
	}
	return nil
}
