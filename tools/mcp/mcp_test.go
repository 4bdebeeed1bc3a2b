package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"yui/transport"
	"yui/transport/clock/clocktest"
	"yui/transport/toolcall"
)

// fakeServer is an in-process SDK server reached over the SDK's in-memory
// transport; each connection is a new server session.
type fakeServer struct {
	t             *testing.T
	srv           *mcp.Server
	mu            sync.Mutex
	conns         []mcp.Connection // the server side of each dial
	dials         int
	fail          error         // dial error while set
	inSlow        chan struct{} // a slow call reached the server
	slowCancelled chan struct{}
}

func newFakeServer(t *testing.T) *fakeServer {
	f := &fakeServer{t: t, inSlow: make(chan struct{}, 1), slowCancelled: make(chan struct{}, 1)}
	f.srv = mcp.NewServer(&mcp.Implementation{Name: "fake", Version: "1"}, nil)
	type echoIn struct {
		Text string `json:"text"`
	}
	mcp.AddTool(f.srv, &mcp.Tool{Name: "echo", Description: "Echo the text"}, func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}, &mcp.TextContent{Text: "second"}}}, nil, nil
	})
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	f.srv.AddTool(&mcp.Tool{Name: "picture", Description: "An image", InputSchema: raw(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "a dot"}, &mcp.ImageContent{MIMEType: "image/png", Data: []byte("\x89PNGfake")}}}, nil
	})
	f.srv.AddTool(&mcp.Tool{Name: "structured", InputSchema: raw(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{}, StructuredContent: map[string]any{"a": 1}}, nil
	})
	f.srv.AddTool(&mcp.Tool{Name: "broken", InputSchema: raw(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "disk full"}}}, nil
	})
	f.srv.AddTool(&mcp.Tool{Name: "slow", InputSchema: raw(`{"type":"object"}`)}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		f.inSlow <- struct{}{}
		<-ctx.Done() // the client's cancellation notice ends it
		f.slowCancelled <- struct{}{}
		return nil, ctx.Err()
	})
	f.srv.AddTool(&mcp.Tool{Name: "odd name!", InputSchema: raw(`{"type":"object","properties":{"n":{"type":"integer","maximum":3}},"required":["n"],"additionalProperties":false}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
	})
	return f
}

func (f *fakeServer) dial(ServerConfig, io.Writer) (mcp.Transport, func(), error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.dials++
	if f.fail != nil {
		return nil, nil, f.fail
	}
	ct, st := mcp.NewInMemoryTransports()
	cut := &cutTransport{Transport: st}
	if _, err := f.srv.Connect(context.Background(), cut, nil); err != nil {
		f.t.Fatal(err)
	}
	f.conns = append(f.conns, cut.conn)
	return ct, nil, nil
}

// crash cuts the latest server connection, as a server process dying
// would. Not ServerSession.Close: that waits for the session's in-flight
// requests, and the SDK's own subscriptions/listen handler, when it
// arrived as Close began, parks until a cancel Close had already sent
// (go-sdk v1.8.0, mcp/server.go): the test hung there for 10 minutes.
func (f *fakeServer) crash() {
	f.mu.Lock()
	c := f.conns[len(f.conns)-1]
	f.mu.Unlock()
	c.Close()
}

// cutTransport keeps the server side's connection, for crash to close.
type cutTransport struct {
	mcp.Transport
	conn mcp.Connection
}

func (c *cutTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := c.Transport.Connect(ctx)
	c.conn = conn
	return conn, err
}

// harness is a manager over a fake server, with a fake clock and a
// channel of state changes.
type harness struct {
	m   *Manager
	clk *clocktest.Fake
	f   *fakeServer
	ch  chan string
}

func newHarness(t *testing.T) *harness {
	h := &harness{clk: clocktest.NewFake(time.Unix(1000, 0)), f: newFakeServer(t), ch: make(chan string, 64)}
	// A change is a wake-up for waitState, never a message to keep: the
	// send must not block. A test that reads no change (the crash loop
	// makes one per attempt) would fill the buffer, and a blocked OnChange
	// holds the server goroutine, and with it Close, for ever.
	notify := func(n string) {
		select {
		case h.ch <- n:
		default: // the buffer is full, so waitState has a wake-up already
		}
	}
	h.m = NewManager(Options{Clock: h.clk, Dial: h.f.dial, OnChange: notify})
	t.Cleanup(h.m.Close)
	h.m.Configure([]ServerConfig{{Name: "files", Command: "x", Timeout: 10 * time.Second}})
	return h
}

// waitState waits for the server's state to be want.
func (h *harness) waitState(t *testing.T, want State) Status {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		if st, _ := h.m.Status("files"); st.State == want {
			return st
		}
		select {
		case <-h.ch:
		case <-deadline:
			st, _ := h.m.Status("files")
			t.Fatalf("state %s (%s), want %s", st.State, st.Err, want)
		}
	}
}

func (h *harness) tool(t *testing.T, name string, o ToolOptions) transport.Tool {
	t.Helper()
	for _, tl := range h.m.Tools([]string{"files"}, o) {
		if tl.Name == name {
			return tl
		}
	}
	t.Fatalf("tool %s not declared", name)
	return transport.Tool{}
}

var allowAll = ToolOptions{Permission: func(string) Permission { return Allow }}

func TestDeclaresToolsUnderServerNames(t *testing.T) {
	h := newHarness(t)
	if st, _ := h.m.Status("files"); st.State != StateStopped {
		t.Fatalf("a server no preset uses is %s", st.State)
	}
	h.m.Use("p1", []string{"files", "unknown"})
	st := h.waitState(t, StateRunning)
	if len(st.Tools) != 6 {
		t.Fatalf("%d tools", len(st.Tools))
	}
	tools := h.m.Tools([]string{"files"}, allowAll)
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name)
		if tl.Wait != 10*time.Second+AskWait+waitMargin {
			t.Errorf("%s wait %s", tl.Name, tl.Wait)
		}
	}
	for _, want := range []string{"files__echo", "files__picture", "files__odd_name_"} {
		if !strings.Contains(strings.Join(names, " "), want) {
			t.Errorf("declared %v, want %s", names, want)
		}
	}
	echo := h.tool(t, "files__echo", allowAll)
	if echo.Description != "Echo the text" || !strings.Contains(string(echo.Parameters), `"text"`) {
		t.Errorf("echo declared as %q %s", echo.Description, echo.Parameters)
	}
	if got := h.m.Tools([]string{"other"}, allowAll); len(got) != 0 {
		t.Errorf("a server not running declared %d tools", len(got))
	}
}

func TestResults(t *testing.T) {
	h := newHarness(t)
	h.m.Use("p1", []string{"files"})
	h.waitState(t, StateRunning)
	r, err := toolcall.NewRunner(h.m.Tools([]string{"files"}, allowAll), h.clk, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, c := range []struct{ name, args, want string }{
		{"files__echo", `{"text":"hello"}`, "hello\nsecond"},
		{"files__echo", `{"text":5}`, "error: invalid field text"},
		{"files__structured", `{}`, `{"a":1}`},
		{"files__broken", `{}`, "error: disk full"},
		{"files__odd_name_", `{}`, "error: missing field n"},
		{"files__odd_name_", `{"n":9}`, "error: invalid field n"},
		{"files__odd_name_", `{"n":1}`, "ok"},
		{"files__nope", `{}`, "error: unknown tool"},
	} {
		got := r.Run(context.Background(), transport.ToolCall{ID: "c", TurnID: "t", Name: c.name, Arguments: json.RawMessage(c.args)})
		if got.Text != c.want {
			t.Errorf("%s %s → %q, want %q", c.name, c.args, got.Text, c.want)
		}
	}
	pic := h.tool(t, "files__picture", allowAll).Handler(context.Background(), transport.ToolCall{Arguments: json.RawMessage(`{}`)})
	if pic.Text != "a dot" || len(pic.Images) != 1 || pic.Images[0].MIME != "image/png" || string(pic.Images[0].Data) != "\x89PNGfake" {
		t.Errorf("picture → %q %v", pic.Text, pic.Images)
	}
}

// fakeAsker answers the prompt with the answer the test sends.
type fakeAsker struct {
	asked   chan Question
	answers chan Answer
}

func (a *fakeAsker) Ask(ctx context.Context, q Question) Answer {
	a.asked <- q
	select {
	case v := <-a.answers:
		return v
	case <-ctx.Done():
		return Denied
	}
}

func TestPermissions(t *testing.T) {
	h := newHarness(t)
	h.m.Use("p1", []string{"files"})
	h.waitState(t, StateRunning)
	perms := map[string]Permission{"files__structured": Deny}
	var mu sync.Mutex
	a := &fakeAsker{asked: make(chan Question, 1), answers: make(chan Answer, 1)}
	o := ToolOptions{
		Permission: func(n string) Permission { mu.Lock(); defer mu.Unlock(); return perms[n] },
		Always:     func(n string) { mu.Lock(); defer mu.Unlock(); perms[n] = Allow },
		Ask:        a,
	}
	call := func(name, args string) string {
		return h.tool(t, name, o).Handler(context.Background(), transport.ToolCall{Arguments: json.RawMessage(args)}).Text
	}
	if got := call("files__structured", `{}`); got != "error: the user did not allow files__structured" {
		t.Errorf("deny → %q", got)
	}
	a.answers <- AllowedOnce
	if got := call("files__echo", `{"text":"hi"}`); got != "hi\nsecond" {
		t.Errorf("allow once → %q", got)
	}
	if q := <-a.asked; q.Tool != "files__echo" || q.Summary != "text=hi" {
		t.Errorf("asked %+v", q)
	}
	a.answers <- Denied
	if got := call("files__echo", `{"text":"hi"}`); got != "error: the user did not allow files__echo" {
		t.Errorf("denied → %q", got)
	}
	<-a.asked
	a.answers <- AllowedAlways
	call("files__echo", `{"text":"x"}`)
	<-a.asked
	if got := call("files__echo", `{"text":"again"}`); got != "again\nsecond" {
		t.Errorf("after always → %q", got)
	}
	select {
	case q := <-a.asked:
		t.Errorf("asked again after Always: %+v", q)
	default:
	}
	// No answer within 30 s denies.
	done := make(chan string, 1)
	go func() { done <- call("files__picture", `{}`) }()
	<-a.asked
	h.clk.Advance(AskWait)
	if got := <-done; got != "error: the user did not allow files__picture" {
		t.Errorf("no answer → %q", got)
	}
}

func TestTimeoutAndStop(t *testing.T) {
	h := newHarness(t)
	h.m.Use("p1", []string{"files"})
	h.waitState(t, StateRunning)
	slow := h.tool(t, "files__slow", allowAll)
	done := make(chan string, 1)
	go func() {
		done <- slow.Handler(context.Background(), transport.ToolCall{Arguments: json.RawMessage(`{}`)}).Text
	}()
	<-h.f.inSlow
	h.clk.Advance(10 * time.Second)
	if got := <-done; got != `error: no reply from tool server "files" within 10 s` {
		t.Errorf("time-out → %q", got)
	}
	<-h.f.slowCancelled // the cancellation notice reached the server
	ctx, cancel := context.WithCancel(context.Background())
	go func() { done <- slow.Handler(ctx, transport.ToolCall{Arguments: json.RawMessage(`{}`)}).Text }()
	<-h.f.inSlow
	cancel()
	if got := <-done; got != "error: turn stopped" {
		t.Errorf("stop → %q", got)
	}
	<-h.f.slowCancelled
}

func TestCrashRestartsWithBackoff(t *testing.T) {
	h := newHarness(t)
	h.m.Use("p1", []string{"files"})
	h.waitState(t, StateRunning)
	echo := h.tool(t, "files__echo", allowAll)
	h.f.mu.Lock()
	h.f.fail = errors.New("cannot start")
	h.f.mu.Unlock()
	h.f.crash()
	st := h.waitState(t, StateStarting)
	if got := echo.Handler(context.Background(), transport.ToolCall{Arguments: json.RawMessage(`{"text":"x"}`)}).Text; got != `error: tool server "files" is not running` {
		t.Errorf("while down → %q", got)
	}
	_ = st
	// 1, 2, 4, 8, 16, 30 s, and the attempt after the 30 s wait fails it.
	for _, d := range []time.Duration{1, 2, 4, 8, 16, 30} {
		h.clk.Advance(d * time.Second)
	}
	deadline := time.After(5 * time.Second)
	for {
		st, _ = h.m.Status("files")
		if st.State == StateFailed {
			break
		}
		// Each wait is armed by the server goroutine: advance again once it is.
		h.clk.WaitPending(1, 50*time.Millisecond)
		h.clk.Advance(30 * time.Second)
		select {
		case <-deadline:
			t.Fatalf("state %s, want failed", st.State)
		default:
		}
	}
	if !strings.Contains(st.Err, "cannot start") {
		t.Errorf("failed with %q", st.Err)
	}
	h.f.mu.Lock()
	dials := h.f.dials
	h.f.fail = nil
	h.f.mu.Unlock()
	if dials != 7 { // the first start, then one after each of the six waits
		t.Errorf("%d dials", dials)
	}
	h.m.Restart("files")
	h.waitState(t, StateRunning)
	got := h.tool(t, "files__echo", allowAll).Handler(context.Background(), transport.ToolCall{Arguments: json.RawMessage(`{"text":"back"}`)}).Text
	if got != "back\nsecond" {
		t.Errorf("after restart → %q", got)
	}
}

func TestListChangedAndRelease(t *testing.T) {
	h := newHarness(t)
	h.m.Use("p1", []string{"files"})
	h.m.Use("p2", []string{"files"})
	h.waitState(t, StateRunning)
	h.f.srv.AddTool(&mcp.Tool{Name: "fresh", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "new"}}}, nil
	})
	deadline := time.After(5 * time.Second)
	for len(h.m.Tools([]string{"files"}, allowAll)) != 7 {
		select {
		case <-h.ch:
		case <-deadline:
			t.Fatal("the new tool was not listed")
		}
	}
	h.m.Use("p1", nil)
	if st, _ := h.m.Status("files"); st.State != StateRunning {
		t.Fatalf("still used by p2, but %s", st.State)
	}
	h.m.Use("p2", nil)
	h.waitState(t, StateStopped)
}

func TestNames(t *testing.T) {
	for _, c := range []struct{ server, tool, want string }{
		{"files", "read_text_file", "files__read_text_file"},
		{"my server", "do.it/now", "my_server__do_it_now"},
		{"é", "x", "___x"},
		{strings.Repeat("s", 40), strings.Repeat("t", 40), strings.Repeat("s", 40) + "__" + strings.Repeat("t", 22)},
	} {
		if got := ToolName(c.server, c.tool); got != c.want {
			t.Errorf("ToolName(%q, %q) = %q, want %q", c.server, c.tool, got, c.want)
		}
	}
	if got := Summary(json.RawMessage(`{"path":"/tmp/a b.txt","content":"line1\nline2","n":3}`)); got != "path=/tmp/a b.txt, content=line1 line2, n=3" {
		t.Errorf("summary %q", got)
	}
	if got := Summary(json.RawMessage(`{"x":"` + strings.Repeat("a", 300) + `"}`)); len([]rune(got)) != summaryLen {
		t.Errorf("summary of %d runes", len([]rune(got)))
	}
}

func TestStderrKeepsLastLine(t *testing.T) {
	w := newStderrLog(discard(), "s")
	w.Write([]byte("first\nsecond part"))
	w.Write([]byte(" done\n\n"))
	if got := w.last(); got != "second part done" {
		t.Errorf("last %q", got)
	}
}
