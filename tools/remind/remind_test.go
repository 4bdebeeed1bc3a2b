package remind

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"yui/transport"
	"yui/transport/clock/clocktest"
)

type book struct {
	next  int
	added map[int]time.Time
	fail  bool
}

func (b *book) Add(text string, at time.Time) (int, error) {
	if b.fail {
		return 0, errors.New("disk full")
	}
	b.next++
	b.added[b.next] = at
	return b.next, nil
}

func (b *book) Cancel(id int) (bool, error) {
	if _, ok := b.added[id]; !ok {
		return false, nil
	}
	delete(b.added, id)
	return true, nil
}

var seoul = time.FixedZone("KST", 9*3600)

func TestRemind(t *testing.T) {
	now := time.Date(2026, 9, 14, 15, 4, 14, 0, seoul)
	for _, c := range []struct {
		args, want string
	}{
		{`{"text":"tea","in_minutes":1}`, "ok: reminder #1 at 2026-09-14T15:05:14+09:00"},
		{`{"text":"tea","at":"16:30"}`, "ok: reminder #1 at 2026-09-14T16:30:00+09:00"},
		{`{"text":"tea","at":"09:00"}`, "ok: reminder #1 at 2026-09-15T09:00:00+09:00"},
		{`{"text":"tea","at":"2026-09-14T08:00:00Z"}`, "ok: reminder #1 at 2026-09-14T17:00:00+09:00"},
		{`{"text":"tea"}`, "error: missing field in_minutes"},
		{`{"in_minutes":5}`, "error: missing field text"},
		{`{"text":"tea","in_minutes":5,"at":"16:30"}`, "error: invalid field at"},
		{`{"text":"tea","at":"25:00"}`, "error: invalid field at"},
		{`{"text":"tea","at":"soon"}`, "error: invalid field at"},
		{`{"text":"tea","at":"2026-09-14T05:00:00Z"}`, "error: invalid field at"},
		{`{"text":"tea","at":"2026-09-22T15:00:00+09:00"}`, "error: invalid field at"},
		{`{"text":"tea","in_minutes":0}`, "error: invalid field in_minutes"},
		{`{"text":"tea","in_minutes":10081}`, "error: invalid field in_minutes"},
		{`{"text":"tea","in_minutes":10080}`, "ok: reminder #1 at 2026-09-21T15:04:14+09:00"},
		{`{"text":"  ","in_minutes":5}`, "error: invalid field text"},
		{`{"text":"tea","in_minutes":"5"}`, "error: invalid field in_minutes"},
		{`{"text":"tea","in_minutes":5,"why":1}`, "error: invalid field why"},
		{`[]`, "error: invalid field arguments"},
	} {
		tl := New(&book{added: map[int]time.Time{}}, clocktest.NewFake(now), seoul)
		got := tl.Remind(context.Background(), transport.ToolCall{Name: RemindName, Arguments: json.RawMessage(c.args)}).Text
		if got != c.want {
			t.Errorf("remind %s = %q, want %q", c.args, got, c.want)
		}
	}
	tl := New(&book{added: map[int]time.Time{}, fail: true}, clocktest.NewFake(now), seoul)
	if got := tl.Remind(context.Background(), transport.ToolCall{Arguments: json.RawMessage(`{"text":"x","in_minutes":3}`)}).Text; got != "error: the reminder could not be saved" {
		t.Errorf("failed save = %q", got)
	}
}

func TestCancel(t *testing.T) {
	b := &book{added: map[int]time.Time{}}
	tl := New(b, clocktest.NewFake(time.Date(2026, 9, 14, 15, 0, 0, 0, seoul)), seoul)
	tl.Remind(context.Background(), transport.ToolCall{Arguments: json.RawMessage(`{"text":"x","in_minutes":3}`)})
	for _, c := range []struct{ args, want string }{
		{`{"id":1}`, "ok: cancelled #1"},
		{`{"id":1}`, "error: no such reminder"},
		{`{}`, "error: missing field id"},
		{`{"id":"1"}`, "error: invalid field id"},
	} {
		if got := tl.Cancel(context.Background(), transport.ToolCall{Arguments: json.RawMessage(c.args)}).Text; got != c.want {
			t.Errorf("cancel %s = %q, want %q", c.args, got, c.want)
		}
	}
}

func TestSchemasParse(t *testing.T) {
	for _, p := range []string{RemindParameters, CancelParameters} {
		var v map[string]any
		if err := json.Unmarshal([]byte(p), &v); err != nil {
			t.Fatal(err)
		}
	}
}
