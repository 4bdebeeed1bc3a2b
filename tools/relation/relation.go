// Package relation is the rate_relation client tool (docs/protocol/client-tools.md): the
// model records how an exchange changed its relationship with the user, as
// a score from 0 to 100 kept per preset.
package relation

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"

	"yui/transport"
)

// Tool constants of docs/protocol/client-tools.md.
const (
	Name        = "rate_relation"
	Description = "Record how this exchange changed your relationship with the user"
	Wait        = 2 * time.Second

	Min     = 0
	Max     = 100
	Start   = 50
	MaxStep = 3 // |delta| limit
	// MaxReason is the reason's limit in code points.
	MaxReason = 200
)

// Parameters is the tool's JSON schema, exactly as docs/protocol/client-tools.md gives it.
const Parameters = `{ "type": "object",
    "properties": { "delta": { "type": "integer", "minimum": -3, "maximum": 3 },
                    "reason": { "type": "string", "maxLength": 200 } },
    "required": ["delta"], "additionalProperties": false }`

// Scores reads and changes one preset's relation score. The settings
// store's RelationScore implements it.
type Scores interface {
	// Score returns the current score.
	Score() int
	// AddScore adds delta, clamps the result to 0–100, persists it and
	// returns it.
	AddScore(delta int) (int, error)
}

// Change is one recorded change, for the heart meter.
type Change struct {
	Score  int
	Delta  int
	Reason string
}

// Level names a score for display: 0–19 cold, 20–39 cool, 40–59 neutral,
// 60–79 warm, 80–100 close. Scores out of range are clamped first.
func Level(score int) string {
	switch score = min(max(score, Min), Max); {
	case score < 20:
		return "cold"
	case score < 40:
		return "cool"
	case score < 60:
		return "neutral"
	case score < 80:
		return "warm"
	default:
		return "close"
	}
}

// Result returns the tool's answer for a score: "ok: relation 57/100".
func Result(score int) string { return fmt.Sprintf("ok: relation %d/%d", score, Max) }

// New returns the rate_relation tool over scores. notify, when not nil, is
// called after each saved change (the message window's heart meter).
func New(scores Scores, notify func(Change)) transport.Tool {
	return transport.Tool{
		Name:        Name,
		Description: Description,
		Parameters:  json.RawMessage(Parameters),
		Wait:        Wait,
		Handler: func(ctx context.Context, call transport.ToolCall) transport.ToolResult {
			return transport.ToolResult{Text: run(ctx, scores, notify, call.Arguments)}
		},
	}
}

// run checks the arguments again (the runner validates them against the
// schema first; this keeps the handler safe on its own) and applies them.
func run(ctx context.Context, scores Scores, notify func(Change), raw json.RawMessage) string {
	var args map[string]json.RawMessage
	if err := json.Unmarshal(raw, &args); err != nil || args == nil {
		return "error: invalid field arguments"
	}
	for k := range args {
		if k != "delta" && k != "reason" {
			return "error: invalid field " + k
		}
	}
	d, ok := args["delta"]
	if !ok {
		return "error: missing field delta"
	}
	// An integer is a plain integer literal, as the tool call runner reads it.
	delta, err := strconv.Atoi(string(d))
	if err != nil || delta < -MaxStep || delta > MaxStep {
		return "error: invalid field delta"
	}
	var reason string
	if r, ok := args["reason"]; ok {
		if json.Unmarshal(r, &reason) != nil || utf8.RuneCountInString(reason) > MaxReason {
			return "error: invalid field reason"
		}
	}
	if ctx.Err() != nil {
		return "error: turn stopped"
	}
	score, err := scores.AddScore(delta)
	if err != nil {
		return "error: the relation score could not be saved"
	}
	if notify != nil {
		notify(Change{Score: score, Delta: delta, Reason: reason})
	}
	return Result(score)
}
