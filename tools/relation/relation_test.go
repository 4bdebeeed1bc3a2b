package relation

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"yui/transport"
)

type memScores struct {
	mu    sync.Mutex
	score int
	err   error
}

func (m *memScores) Score() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.score
}

func (m *memScores) AddScore(d int) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err != nil {
		return 0, m.err
	}
	m.score = min(max(m.score+d, 0), 100)
	return m.score, nil
}

func call(t *testing.T, tool transport.Tool, args string) string {
	t.Helper()
	return tool.Handler(context.Background(), transport.ToolCall{ID: "c1", TurnID: "t1", Name: Name, Arguments: json.RawMessage(args)}).Text
}

func TestDeclaration(t *testing.T) {
	tool := New(&memScores{score: 50}, nil)
	if tool.Name != "rate_relation" || tool.Description != "Record how this exchange changed your relationship with the user" || tool.Wait.Seconds() != 2 {
		t.Errorf("tool = %+v", tool)
	}
	var got, want any
	if err := json.Unmarshal(tool.Parameters, &got); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal([]byte(`{ "type": "object",
    "properties": { "delta": { "type": "integer", "minimum": -3, "maximum": 3 },
                    "reason": { "type": "string", "maxLength": 200 } },
    "required": ["delta"], "additionalProperties": false }`), &want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parameters = %s", tool.Parameters)
	}
}

func TestRateRelation(t *testing.T) {
	s := &memScores{score: 50}
	var changes []Change
	tool := New(s, func(c Change) { changes = append(changes, c) })
	if got := call(t, tool, `{"delta":3,"reason":"kind words"}`); got != "ok: relation 53/100" {
		t.Errorf("got %q", got)
	}
	if got := call(t, tool, `{"delta":-1}`); got != "ok: relation 52/100" {
		t.Errorf("got %q", got)
	}
	if len(changes) != 2 || changes[0] != (Change{Score: 53, Delta: 3, Reason: "kind words"}) {
		t.Errorf("changes = %+v", changes)
	}
	s.score = 99
	if got := call(t, tool, `{"delta":3}`); got != "ok: relation 100/100" {
		t.Errorf("clamp: got %q", got)
	}
}

func TestRateRelationErrors(t *testing.T) {
	s := &memScores{score: 50}
	tool := New(s, nil)
	for args, want := range map[string]string{
		`{}`:                     "error: missing field delta",
		`{"delta":4}`:            "error: invalid field delta",
		`{"delta":-4}`:           "error: invalid field delta",
		`{"delta":1e0}`:          "error: invalid field delta",
		`{"delta":1.5}`:          "error: invalid field delta",
		`{"delta":"1"}`:          "error: invalid field delta",
		`{"delta":1,"mood":"x"}`: "error: invalid field mood",
		`{"delta":1,"reason":7}`: "error: invalid field reason",
		`[1]`:                    "error: invalid field arguments",
		`null`:                   "error: invalid field arguments",
		`{"delta":1,"reason":"` + strings.Repeat("é", 201) + `"}`: "error: invalid field reason",
	} {
		if got := call(t, tool, args); got != want {
			t.Errorf("%s: got %q, want %q", args, got, want)
		}
	}
	if s.score != 50 {
		t.Errorf("score changed to %d by invalid calls", s.score)
	}
	if got := call(t, tool, `{"delta":1,"reason":"`+strings.Repeat("é", 200)+`"}`); got != "ok: relation 51/100" {
		t.Errorf("200 code points refused: %q", got)
	}
	s.err = errors.New("disk full")
	if got := call(t, tool, `{"delta":1}`); !strings.HasPrefix(got, "error: ") {
		t.Errorf("save failure: %q", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s.err = nil
	if got := tool.Handler(ctx, transport.ToolCall{Arguments: json.RawMessage(`{"delta":1}`)}).Text; got != "error: turn stopped" {
		t.Errorf("cancelled: %q", got)
	}
}

func TestLevel(t *testing.T) {
	for score, want := range map[int]string{
		-5: "cold", 0: "cold", 19: "cold", 20: "cool", 39: "cool", 40: "neutral", 50: "neutral",
		59: "neutral", 60: "warm", 79: "warm", 80: "close", 100: "close", 120: "close",
	} {
		if got := Level(score); got != want {
			t.Errorf("Level(%d) = %q, want %q", score, got, want)
		}
	}
}
