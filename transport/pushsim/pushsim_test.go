package pushsim

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

const rawWait = 5 * time.Second

func rawDial(t *testing.T, s *Server) *websocket.Conn {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(s.URL, "http")+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	ws.SetReadDeadline(time.Now().Add(rawWait))
	return ws
}

func rawHello(t *testing.T, ws *websocket.Conn, key string) {
	t.Helper()
	err := ws.WriteJSON(map[string]any{"type": "hello", "key": key, "chat_id": "yui-1", "accepts": []string{"error"},
		"vocabulary": map[string]any{"emotion_ids": []string{}}, "tools": []any{map[string]any{"type": "function"}}})
	if err != nil {
		t.Fatal(err)
	}
}

func serverConn(t *testing.T, s *Server) *Conn {
	t.Helper()
	return s.NextConn(t, rawWait)
}

func TestLoopbackOnly(t *testing.T) {
	if _, err := Start(Options{Addr: "0.0.0.0:0"}); err == nil {
		t.Fatal("listened on a non-loopback address")
	}
	if _, err := Start(Options{Addr: "bogus"}); err == nil {
		t.Fatal("bad address accepted")
	}
}

func TestHelloReadyAndFrames(t *testing.T) {
	s, err := Start(Options{Key: "k", MaxTurnBytes: 5000})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !strings.HasPrefix(s.URL, "http://127.0.0.1:") {
		t.Fatal(s.URL)
	}
	ws := rawDial(t, s)
	rawHello(t, ws, "k")
	var ready map[string]any
	if err := ws.ReadJSON(&ready); err != nil {
		t.Fatal(err)
	}
	if ready["type"] != "ready" || ready["chat_id"] != "yui-1" || ready["max_turn_bytes"] != 5000.0 {
		t.Fatal(ready)
	}
	c := serverConn(t, s)
	if c.Hello.Key != "k" || c.Hello.ChatID != "yui-1" || len(c.Hello.Accepts) != 1 || len(c.Hello.Tools) != 1 || len(c.Hello.Raw) == 0 {
		t.Fatalf("%+v", c.Hello)
	}
	ws.WriteJSON(map[string]any{"type": "turn", "turn_id": "1"})
	ws.WriteJSON(map[string]any{"type": "stop", "turn_ids": []string{"1"}})
	ws.WriteJSON(map[string]any{"type": "reset"})
	ctx, cancel := context.WithTimeout(context.Background(), rawWait)
	defer cancel()
	f, err := c.Next(ctx)
	if err != nil || f.Type != "turn" || f.At.IsZero() {
		t.Fatal(f, err)
	}
	var turn struct {
		TurnID string `json:"turn_id"`
	}
	f.Decode(&turn)
	if turn.TurnID != "1" {
		t.Fatal(turn)
	}
	if f, err = c.NextOfType(ctx, "reset"); err != nil || f.Type != "reset" {
		t.Fatal(f, err)
	}
	if got := c.Received(); len(got) != 3 {
		t.Fatal(got)
	}

	// Backend frames reach the client.
	if err := c.Send(map[string]any{"type": "render", "turn_id": "1"}); err != nil {
		t.Fatal(err)
	}
	c.SendRaw([]byte("garbage"))
	c.SendBinary([]byte{1})
	var m map[string]any
	ws.ReadJSON(&m)
	if m["type"] != "render" {
		t.Fatal(m)
	}
	if _, raw, _ := ws.ReadMessage(); string(raw) != "garbage" {
		t.Fatal(string(raw))
	}
	if mt, _, _ := ws.ReadMessage(); mt != websocket.BinaryMessage {
		t.Fatal(mt)
	}
	if err := c.Send(make(chan int)); err == nil {
		t.Fatal("encoded a channel")
	}

	// The client closing: Done, Next drains then reports closed.
	ws.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(1000, ""))
	select {
	case <-c.Done():
	case <-time.After(rawWait):
		t.Fatal("not done")
	}
	if c.ClientCloseCode() != 1000 {
		t.Fatal(c.ClientCloseCode())
	}
	if _, err := c.Next(ctx); !errors.Is(err, ErrClosed) {
		t.Fatal(err)
	}
	if err := c.SendRaw([]byte("x")); err == nil {
		t.Fatal("sent on a closed conn")
	}
}

func TestWrongKey4401(t *testing.T) {
	s, _ := Start(Options{Key: "k"})
	defer s.Close()
	ws := rawDial(t, s)
	rawHello(t, ws, "wrong")
	_, _, err := ws.ReadMessage()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != CloseKeyRejected {
		t.Fatal(err)
	}
	if s.Rejected() != 1 || s.Hellos() != 1 {
		t.Fatal(s.Rejected(), s.Hellos())
	}
	select {
	case c := <-s.Conns():
		t.Fatal("rejected conn delivered", c)
	default:
	}
}

func TestNotHello(t *testing.T) {
	s, _ := Start(Options{})
	defer s.Close()
	ws := rawDial(t, s)
	ws.WriteJSON(map[string]any{"type": "turn"})
	_, _, err := ws.ReadMessage()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.CloseProtocolError {
		t.Fatal(err)
	}
}

func TestNoReadyAndOnConn(t *testing.T) {
	got := make(chan Hello, 1)
	s, _ := Start(Options{NoReady: true, OnConn: func(c *Conn) {
		got <- c.Hello
		c.Send(map[string]any{"type": "ready"})
	}})
	defer s.Close()
	ws := rawDial(t, s)
	rawHello(t, ws, "")
	var m map[string]any
	if err := ws.ReadJSON(&m); err != nil || m["type"] != "ready" {
		t.Fatal(m, err) // the first frame is OnConn's, not the server's
	}
	<-got
	// OnConn returned: the connection closes normally.
	_, _, err := ws.ReadMessage()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != 1000 {
		t.Fatal(err)
	}
}

func TestCloseClosesConns(t *testing.T) {
	s, _ := Start(Options{})
	ws := rawDial(t, s)
	rawHello(t, ws, "")
	c := serverConn(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	var m json.RawMessage
	ws.ReadJSON(&m) // ready
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.Done():
	case <-time.After(rawWait):
		t.Fatal("conn open after Close")
	}
	s.Close()
	if _, _, err := ws.ReadMessage(); err == nil {
		t.Fatal("client socket still open")
	}
}
