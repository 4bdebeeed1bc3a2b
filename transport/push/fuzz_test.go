package push

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"yui/transport"
	"yui/transport/clock"
	"yui/transport/clock/clocktest"
)

// offlineClient returns a client with a socketless ready connection:
// frames are dispatched directly and replies pile up in the write queue.
func offlineClient(tb testing.TB, clk clock.Clock, log *slog.Logger) (*Client, *conn) {
	tb.Helper()
	c, err := New(transport.Options{
		ChatBaseURL: "http://127.0.0.1:1",
		Clock:       clk,
		Logger:      log,
		Tools: []transport.Tool{testTool("browser", 32*time.Second, func(context.Context, transport.ToolCall) transport.ToolResult {
			return transport.ToolResult{Text: "ok"}
		})},
	})
	if err != nil {
		tb.Fatal(err)
	}
	cn := newConn(nil)
	c.mu.Lock()
	cn.ready = true
	cn.gotReady = true
	c.cn = cn
	c.mu.Unlock()
	go func() {
		for range c.Events() {
		}
	}()
	return c, cn
}

// FuzzDecodeFrame feeds arbitrary bytes through the read path: garbage,
// truncated JSON, wrong types and oversize frames are logged and dropped,
// never a panic or a hang.
func FuzzDecodeFrame(f *testing.F) {
	seeds := []string{
		`{"type":"ready","chat_id":"c","max_turn_bytes":5000}`,
		`{"type":"render","turn_id":"1","source":"s","segments":[{"cues":[{"emotion_id":"happy"}],"speech":"hi"}],"reasoning":"r"}`,
		`{"type":"speech","turn_id":"1","segments":[{"speech":"one"}]}`,
		`{"type":"turn_end","turn_id":"1","usage":{"input_tokens":1,"output_tokens":2,"total_tokens":3}}`,
		`{"type":"turn_end","turn_id":"1","usage":{"input_tokens":"1"}}`,
		`{"type":"error","turn_id":"1","message":"m"}`,
		`{"type":"tool_status","turn_id":"1","state":"running","tool_id":"browser"}`,
		`{"type":"tool_call","id":"c","turn_id":"1","name":"browser","arguments":{"action":"read"}}`,
		`{"type":"tool_call","id":5,"turn_id":"1","name":"browser","arguments":{}}`,
		`{"type":"reasoning","turn_id":"1","delta":"d"}`,
		`{"type":"delegations","items":[{"id":"d","title":"t","started_at":1,"state":"done","ended_at":2,"status":"ok"}]}`,
		`{"type":"render","turn_id":"1","segments":[`,
		`{"type":5}`, `[]`, `null`, `"x"`, ``, "\xff\xfe", `{"type":"render","turn_id":{"a":1},"segments":[]}`,
		`{"type":"unknown"}`,
		"O" + `{"type":"render"}`, // "O" prefix: inflated past the size limit below
		`{"TYPE":"render","type":"speech"}`, `{"a":[{"b":"}"}],"type":"error"}`, `{"typ\u0065":"x"}`, `{"type":"a\"b"}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	clk := clocktest.NewFake(t0)
	c, cn := offlineClient(f, clk, slog.New(slog.DiscardHandler))
	f.Cleanup(func() { c.Close() })
	var buf bytes.Buffer
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 0 && data[0] == 'O' {
			data = bytes.Repeat(data, TextFrameLimit/len(data)+1)
		}
		// The fast type scan agrees with encoding/json whenever it answers.
		if typ, ok := frameType(data); ok {
			var env envelope
			if json.Unmarshal(data, &env) == nil && env.Type != typ {
				t.Errorf("frameType(%q) = %q, encoding/json reads %q", data, typ, env.Type)
			}
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			if err := c.readMessage(cn, websocket.TextMessage, bytes.NewReader(data), &buf); err != nil {
				t.Errorf("read error from a memory reader: %v", err)
			}
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("hang")
		}
		cn.takeQueued()
	})
}

func TestOfflineDispatchOversize(t *testing.T) {
	logs := newLogSink()
	c, cn := offlineClient(t, clocktest.NewFake(t0), slogOf(logs))
	defer c.Close()
	var buf bytes.Buffer
	data := []byte(`{"type":"speech","turn_id":"1","segments":[{"speech":"` + strings.Repeat("z", TextFrameLimit) + `"}]}`)
	if err := c.readMessage(cn, websocket.TextMessage, bytes.NewReader(data), &buf); err != nil {
		t.Fatal(err)
	}
	logs.waitFor(t, "frame_oversize", "direction", "in", "type", "speech", "bytes", len(data))
	// A failing reader is the socket failing.
	if err := c.readMessage(cn, websocket.TextMessage, errReader{}, &buf); err == nil {
		t.Fatal("no error")
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, context.Canceled }

func TestPeekType(t *testing.T) {
	for in, want := range map[string]string{
		`{"type":"render",`:      "render",
		`{ "type" : "tool_call"`: "tool_call",
		`{"type":5}`:             "",
		`{"type":"Render"}`:      "",
		`{"type"`:                "",
		`{"type":"unterminated`:  "",
		`{"turn_id":"1"}`:        "",
		`{"type" "render"}`:      "",
		`{"type":"` + strings.Repeat("a", 40) + `"}`: "",
	} {
		if got := peekType([]byte(in)); got != want {
			t.Errorf("peekType(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNoGoroutineLeak(t *testing.T) {
	before := runtime.NumGoroutine()
	for range 3 {
		h := newHarness(t, setup{opts: func(o *transport.Options) {
			o.Tools = []transport.Tool{testTool("look", 2*time.Second, okHandler)}
		}})
		h.sendTurn("x")
		h.send(call("c-1", "b-1", "look", map[string]any{"action": "read"}))
		h.toolResult()
		h.c.Close()
		h.srv.Close()
	}
	deadline := time.Now().Add(wait)
	for runtime.NumGoroutine() > before+2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond) // goroutines wind down in real time
	}
	if n := runtime.NumGoroutine(); n > before+2 {
		buf := make([]byte, 1<<16)
		t.Fatalf("%d goroutines, started with %d\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
}

var benchFrame = []byte(`{"type":"render","turn_id":"1789365854947","source":"hermes","segments":[{"cues":[{"emotion_id":"happy"}],"speech":"All green."},{"cues":[{"emotion_id":"curious","emotion_text":"👂"}],"speech":"Want the slow ones listed?"}]}`)

// BenchmarkRenderDecodeDispatch measures one typical render frame from
// bytes to the RenderEvent on the queue, for a running client turn.
func BenchmarkRenderDecodeDispatch(b *testing.B) {
	c, cn := offlineClient(b, clock.Real{}, slog.New(slog.DiscardHandler))
	defer c.Close()
	c.mu.Lock()
	c.book.idBase, c.book.idNext = 1789365854947, 1789365854948
	tr := &turn{id: "1789365854947", own: true, sent: true, running: true}
	c.holdLocked(tr)
	c.mu.Unlock()
	var buf bytes.Buffer
	r := bytes.NewReader(benchFrame)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r.Reset(benchFrame)
		c.readMessage(cn, websocket.TextMessage, r, &buf)
	}
}

// BenchmarkTurnFrame200KiBImage measures encoding a turn frame carrying a
// 200 KiB image for a backend that accepts it whole.
func BenchmarkTurnFrame200KiBImage(b *testing.B) {
	c, _ := offlineClient(b, clocktest.NewFake(t0), slog.New(slog.DiscardHandler))
	defer c.Close()
	img := bytes.Repeat([]byte{0x5a, 0x13, 0xe7, 0x01}, 200<<10/4)
	turn := transport.Turn{
		Trigger: transport.TriggerUserMessage, Text: "What is on my screen?",
		Screenshot: &transport.Screenshot{Image: transport.Image{MIME: "image/jpeg", Data: img},
			Display: 1, Displays: 2, Width: 2560, Height: 1440, ActiveWindow: "main.go - Visual Studio Code"},
		Character: transport.CharacterState{Name: "Yui", Emotion: "happy", Place: `sitting on "Notes"`},
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(img)))
	for b.Loop() {
		frame, err := c.turnFrame("1789365854947", turn, t0, 1<<20)
		if err != nil || len(frame) < len(img) {
			b.Fatal(err)
		}
	}
	frame, _ := c.turnFrame("1789365854947", turn, t0, 1<<20)
	if !json.Valid(frame) {
		b.Fatal("invalid frame")
	}
}
