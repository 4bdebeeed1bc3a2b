package toolset

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"yui/transport"
	"yui/transport/clock/clocktest"
	"yui/transport/toolcall"
)

func okHandler(ctx context.Context, call transport.ToolCall) transport.ToolResult {
	return transport.ToolResult{Text: "ok: " + call.Name}
}

// handlerFunc adapts a function to a Handler, as net/http's HandlerFunc does.
type handlerFunc transport.ToolHandler

func (f handlerFunc) Handle(ctx context.Context, call transport.ToolCall) transport.ToolResult {
	return f(ctx, call)
}

func allHandlers() Handlers {
	return Handlers{Relation: okHandler, Address: okHandler, Body: handlerFunc(okHandler), Look: handlerFunc(okHandler), Browser: handlerFunc(okHandler),
		Memory: MemoryHandlers{Remember: okHandler, Forget: okHandler}}
}

func names(ts []transport.Tool) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return out
}

func TestDeclaredSets(t *testing.T) {
	cases := []struct {
		o    Options
		want []string
	}{
		{Options{}, []string{"rate_relation", "address_character"}},
		{Options{Main: true}, []string{"rate_relation", "address_character", "body_action", "look"}},
		{Options{Main: true, BrowserOn: true}, []string{"rate_relation", "address_character", "body_action", "look"}},
		{Options{BrowserFound: true}, []string{"rate_relation", "address_character"}},
		{Options{BrowserOn: true, BrowserFound: true}, []string{"rate_relation", "address_character", "browser"}},
		{Options{Main: true, BrowserOn: true, BrowserFound: true}, []string{"rate_relation", "address_character", "body_action", "look", "browser"}},
		// remember and forget over the request transports only.
		{Options{Memory: true}, []string{"rate_relation", "address_character", "remember", "forget"}},
		{Options{Main: true, Memory: true}, []string{"rate_relation", "address_character", "body_action", "look", "remember", "forget"}},
	}
	for _, c := range cases {
		s, err := New(allHandlers(), c.o)
		if err != nil {
			t.Fatal(err)
		}
		if got := names(s.Tools()); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%+v: %v, want %v", c.o, got, c.want)
		}
		s.Close()
	}
}

func TestDeclarations(t *testing.T) {
	s, err := New(allHandlers(), Options{Main: true, BrowserOn: true, BrowserFound: true, Others: []string{"Kai"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	waits := map[string]time.Duration{"rate_relation": 2 * time.Second, "address_character": 2 * time.Second,
		"body_action": 15 * time.Second, "look": 2 * time.Second, "browser": 32 * time.Second}
	descs := map[string]string{
		"rate_relation":     "Record how this exchange changed your relationship with the user",
		"address_character": "Say something to another character on this desktop",
		"body_action":       "Move the character on the desktop",
		"look":              "Read body state, perch targets, or a display screenshot; screen requests require user permission",
		"browser":           "Open a web page in a private headless browser and read it or take a screenshot",
	}
	required := map[string][]any{"rate_relation": {"delta"}, "address_character": {"character", "text"},
		"body_action": {"action"}, "look": {"at"}, "browser": {"action", "url"}}
	for _, tl := range s.Tools() {
		if tl.Wait != waits[tl.Name] {
			t.Errorf("%s wait %v", tl.Name, tl.Wait)
		}
		if !strings.HasPrefix(tl.Description, descs[tl.Name]) {
			t.Errorf("%s description %q", tl.Name, tl.Description)
		}
		if _, err := toolcall.Compile(tl.Parameters); err != nil {
			t.Errorf("%s schema: %v", tl.Name, err)
		}
		var sch struct {
			Type     string         `json:"type"`
			Required []any          `json:"required"`
			Extra    *bool          `json:"additionalProperties"`
			Props    map[string]any `json:"properties"`
		}
		if err := json.Unmarshal(tl.Parameters, &sch); err != nil {
			t.Fatalf("%s: %v", tl.Name, err)
		}
		if sch.Type != "object" || !reflect.DeepEqual(sch.Required, required[tl.Name]) || sch.Extra == nil || *sch.Extra {
			t.Errorf("%s schema %s", tl.Name, tl.Parameters)
		}
	}
	if d := s.Tools()[1].Description; !strings.Contains(d, "Kai") {
		t.Errorf("address_character description %q does not list the others", d)
	}
}

func TestMissingHandler(t *testing.T) {
	h := allHandlers()
	h.Look = nil
	if s, err := New(h, Options{Main: true}); err == nil || s != nil {
		t.Fatal("look without a handler was declared")
	}
	if _, err := New(h, Options{}); err != nil {
		t.Fatalf("a pet that is not main needs no look handler: %v", err)
	}
}

// blocking returns a handler that holds until its context ends, and
// channels telling when it started and returned.
func blocking() (transport.ToolHandler, chan struct{}, chan struct{}) {
	started, returned := make(chan struct{}, 8), make(chan struct{}, 8)
	return func(ctx context.Context, call transport.ToolCall) transport.ToolResult {
		started <- struct{}{}
		<-ctx.Done()
		returned <- struct{}{}
		return transport.ToolResult{Text: "late"}
	}, started, returned
}

func TestCloseWaitsForHandlersAfterRunnerClose(t *testing.T) {
	h, started, returned := blocking()
	hs := allHandlers()
	hs.Body = handlerFunc(h)
	s, err := New(hs, Options{Main: true})
	if err != nil {
		t.Fatal(err)
	}
	r, err := toolcall.NewRunner(s.Tools(), clocktest.NewFake(time.Unix(0, 0)), nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Submit(transport.ToolCall{ID: "c1", TurnID: "t", Name: "body_action", Arguments: json.RawMessage(`{"action":"hide"}`)},
		func(transport.ToolResult) {})
	<-started
	// The runner's Close does not wait for handlers; the Set's does.
	r.Close()
	s.Close()
	if n := s.Running(); n != 0 {
		t.Fatalf("%d handlers still running after Close", n)
	}
	select {
	case <-returned:
	default:
		t.Fatal("Close returned before the handler did")
	}
	// After Close nothing runs.
	res := s.Tools()[2].Handler(context.Background(), transport.ToolCall{Name: "body_action"})
	if res.Text != "error: turn stopped" || len(started) != 0 {
		t.Fatalf("after Close: %q", res.Text)
	}
}

func TestCloseCancelsDirectCalls(t *testing.T) {
	h, started, _ := blocking()
	hs := allHandlers()
	hs.Look = handlerFunc(h)
	s, _ := New(hs, Options{Main: true})
	look := s.Tools()[3]
	done := make(chan transport.ToolResult, 3)
	for range 3 {
		go func() { done <- look.Handler(context.Background(), transport.ToolCall{Name: "look"}) }()
	}
	for range 3 {
		<-started
	}
	if n := s.Running(); n != 3 {
		t.Fatalf("running %d, want 3", n)
	}
	s.Close()
	if n := s.Running(); n != 0 {
		t.Fatalf("running %d after Close", n)
	}
	for range 3 {
		if r := <-done; r.Text != "late" {
			t.Fatalf("result %q", r.Text)
		}
	}
}

func TestRunnerValidatesDeclaredSchemas(t *testing.T) {
	s, _ := New(allHandlers(), Options{Main: true})
	defer s.Close()
	r, err := toolcall.NewRunner(s.Tools(), clocktest.NewFake(time.Unix(0, 0)), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for args, want := range map[string]string{
		`{"name":"look","args":{"at":"screen","monitor":"x"}}`:     "error: invalid field monitor",
		`{"name":"look","args":{}}`:                                "error: missing field at",
		`{"name":"body_action","args":{"action":"fly"}}`:           "error: invalid field action",
		`{"name":"body_action","args":{"action":"walk_to","x":1}}`: "ok: body_action",
		`{"name":"browser","args":{"action":"read","url":"x"}}`:    "error: unknown tool",
	} {
		var c struct {
			Name string
			Args json.RawMessage
		}
		json.Unmarshal([]byte(args), &c)
		got := r.Run(context.Background(), transport.ToolCall{ID: "c", TurnID: "t", Name: c.Name, Arguments: c.Args})
		if got.Text != want {
			t.Errorf("%s: %q, want %q", args, got.Text, want)
		}
	}
}
