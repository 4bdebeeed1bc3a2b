// Package remind is the remind and cancel_reminder client tools of the
// request transports (docs/protocol/client-tools.md): the model sets a
// reminder, and at its time the preset gets a turn with trigger
// `reminder "<text>"` (pet/life runs it). The reminders are kept by the
// app, per preset, with the learned state (pet/settings/reminders.go).
package remind

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"yui/transport"
	"yui/transport/clock"
	"yui/transport/toolcall"
)

// Tool constants of docs/protocol/client-tools.md; the wait is its 2 s.
const (
	RemindName        = "remind"
	RemindDescription = "Set a reminder: at its time you get a turn with trigger reminder and its text"
	CancelName        = "cancel_reminder"
	CancelDescription = "Cancel a reminder by its id"
	Wait              = 2 * time.Second
)

// Limits of remind's arguments.
const (
	MaxText      = 200
	MaxInMinutes = 10080
	MaxAhead     = 7 * 24 * time.Hour
)

// Results of the tools' own errors.
const (
	errNoSuchReminder = "error: no such reminder"
	errNotSaved       = "error: the reminder could not be saved"
)

// RemindParameters and CancelParameters are the tools' JSON schemas,
// exactly as docs/protocol/client-tools.md gives them.
const (
	RemindParameters = `{ "type": "object",
    "properties": { "text": { "type": "string", "description": "1-200 characters: what to remind the user of" },
                    "in_minutes": { "type": "integer", "description": "1-10080" },
                    "at": { "type": "string", "description": "local time HH:MM (the next one to come) or RFC 3339" } },
    "required": ["text"], "additionalProperties": false }`
	CancelParameters = `{ "type": "object", "properties": { "id": { "type": "integer" } },
    "required": ["id"], "additionalProperties": false }`
)

// Book keeps a preset's reminders. The app implements it over the
// settings store.
type Book interface {
	// Add keeps a reminder and returns its id.
	Add(text string, at time.Time) (int, error)
	// Cancel drops reminder id; false when there is none.
	Cancel(id int) (bool, error)
}

// Tools are the two tools over one book.
type Tools struct {
	book  Book
	clock clock.Clock
	loc   *time.Location
}

// New returns the tools over b; clk nil is the wall clock, loc nil time.Local.
func New(b Book, clk clock.Clock, loc *time.Location) *Tools {
	if clk == nil {
		clk = clock.Real{}
	}
	if loc == nil {
		loc = time.Local
	}
	return &Tools{book: b, clock: clk, loc: loc}
}

// Remind is the remind tool handler.
func (t *Tools) Remind(_ context.Context, call transport.ToolCall) transport.ToolResult {
	return transport.ToolResult{Text: t.remind(call.Arguments)}
}

// Cancel is the cancel_reminder tool handler.
func (t *Tools) Cancel(_ context.Context, call transport.ToolCall) transport.ToolResult {
	return transport.ToolResult{Text: t.cancel(call.Arguments)}
}

func (t *Tools) remind(raw json.RawMessage) string {
	var a struct {
		Text      *string `json:"text"`
		InMinutes *int64  `json:"in_minutes"`
		At        *string `json:"at"`
	}
	if msg := decodeStrict(raw, &a, "text", "in_minutes", "at"); msg != "" {
		return msg
	}
	if a.Text == nil {
		return toolcall.MissingField("text")
	}
	text := strings.TrimSpace(*a.Text)
	if n := utf8.RuneCountInString(text); n < 1 || n > MaxText || strings.ContainsAny(text, "\x00") {
		return toolcall.InvalidField("text")
	}
	now := t.clock.Now().In(t.loc)
	var at time.Time
	switch {
	case a.InMinutes == nil && a.At == nil:
		return toolcall.MissingField("in_minutes")
	case a.InMinutes != nil && a.At != nil:
		return toolcall.InvalidField("at")
	case a.InMinutes != nil:
		if *a.InMinutes < 1 || *a.InMinutes > MaxInMinutes {
			return toolcall.InvalidField("in_minutes")
		}
		at = now.Add(time.Duration(*a.InMinutes) * time.Minute)
	default:
		var ok bool
		if at, ok = parseAt(*a.At, now); !ok {
			return toolcall.InvalidField("at")
		}
	}
	id, err := t.book.Add(text, at)
	if err != nil {
		return errNotSaved
	}
	return fmt.Sprintf("ok: reminder #%d at %s", id, at.In(t.loc).Format(time.RFC3339))
}

// parseAt reads "HH:MM" (the next one to come) or RFC 3339; a time that
// is past or more than MaxAhead ahead is refused.
func parseAt(s string, now time.Time) (time.Time, bool) {
	var at time.Time
	if hm, err := time.ParseInLocation("15:04", s, now.Location()); err == nil && len(s) == 5 {
		at = time.Date(now.Year(), now.Month(), now.Day(), hm.Hour(), hm.Minute(), 0, 0, now.Location())
		if !at.After(now) {
			at = at.AddDate(0, 0, 1)
		}
	} else if t, err := time.Parse(time.RFC3339, s); err == nil {
		at = t
	} else {
		return time.Time{}, false
	}
	if !at.After(now) || at.Sub(now) > MaxAhead {
		return time.Time{}, false
	}
	return at, true
}

func (t *Tools) cancel(raw json.RawMessage) string {
	var a struct {
		ID *int64 `json:"id"`
	}
	if msg := decodeStrict(raw, &a, "id"); msg != "" {
		return msg
	}
	if a.ID == nil {
		return toolcall.MissingField("id")
	}
	ok, err := t.book.Cancel(int(*a.ID))
	switch {
	case err != nil:
		return errNotSaved
	case !ok:
		return errNoSuchReminder
	}
	return fmt.Sprintf("ok: cancelled #%d", *a.ID)
}

// decodeStrict reads the arguments object into v with only the fields
// allowed; the runner checked the schema already, this keeps the handler
// safe on its own. It returns the error result, or "".
func decodeStrict(raw json.RawMessage, v any, allowed ...string) string {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return toolcall.InvalidField("arguments")
	}
	for k, val := range m {
		known := false
		for _, a := range allowed {
			known = known || k == a
		}
		if !known {
			return toolcall.InvalidField(k)
		}
		one, _ := json.Marshal(map[string]json.RawMessage{k: val})
		if json.Unmarshal(one, v) != nil {
			return toolcall.InvalidField(k)
		}
	}
	return ""
}
