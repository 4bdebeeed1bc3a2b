// Package pushsim is the push backend simulator, a programmable push
// backend on loopback. It ships: `yui --demo` runs the demo scenario on it
// in-process and cmd/yui-sim runs any scenario on it alone. Tests script
// it frame by frame too and read what the client sent; it imports no
// testing package, so it adds nothing of the tests to a binary.
package pushsim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// CloseKeyRejected is the close code of a wrong key.
const CloseKeyRejected = 4401

// helloWait bounds how long a connection may take to send its hello.
const helloWait = 10 * time.Second

// Options configures a Server.
type Options struct {
	// Addr to listen on; "" means "127.0.0.1:0". Only loopback addresses.
	Addr string
	// Key the hello must carry; "" accepts any. A wrong key is closed with
	// 4401 and nothing is sent.
	Key string
	// MaxTurnBytes, when > 0, is stated in ready.
	MaxTurnBytes int
	// NoReady makes the server read hello but never answer ready.
	NoReady bool
	// OnConn runs in its own goroutine for each accepted connection, after
	// the hello was read (and ready sent unless NoReady). The connection
	// closes when OnConn returns (unless it already closed).
	// Nil keeps connections open, recording, until the server closes.
	OnConn func(c *Conn)
	// OnFrame, when set, sees every frame a client sends, hello included,
	// as it arrives (the simulator's --record uses it).
	OnFrame func(f Frame)
	// Break makes the server break one rule (the connection-level
	// breakages; the scripts read the others).
	Break Breakage
}

// Server is a running fake backend.
type Server struct {
	// URL is "http://127.0.0.1:<port>", usable as chat_base_url.
	URL string

	opts     Options
	ln       net.Listener
	srv      *http.Server
	conns    chan *Conn
	upgrader websocket.Upgrader
	wg       sync.WaitGroup
	done     chan struct{}

	mu       sync.Mutex
	live     map[*Conn]struct{}
	chats    map[string]*Conn // latest connection per chat_id (BreakReplaceCode)
	closed   bool
	rejected int
	hellos   int
}

// Start listens and serves /ws.
func Start(opts Options) (*Server, error) {
	addr := opts.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("pushsim: address %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("pushsim: address %q is not a loopback address", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("pushsim: listen: %w", err)
	}
	s := &Server{
		URL:   "http://" + ln.Addr().String(),
		opts:  opts,
		ln:    ln,
		conns: make(chan *Conn, 1024),
		live:  make(map[*Conn]struct{}),
		chats: make(map[string]*Conn),
		done:  make(chan struct{}),
		upgrader: websocket.Upgrader{
			CheckOrigin: func(*http.Request) bool { return true },
		},
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/ws", s.serveWS)
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.srv.Serve(ln)
	}()
	return s, nil
}

// Conns delivers each accepted connection (after hello), in order.
func (s *Server) Conns() <-chan *Conn { return s.conns }

// Fataler is the part of testing.TB that NextConn needs; taking it as an
// interface keeps package testing out of the binaries that ship this
// simulator (yui --demo, yui-sim).
type Fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// NextConn waits up to limit for the next accepted connection and fails
// t without one.
func (s *Server) NextConn(t Fataler, limit time.Duration) *Conn {
	t.Helper()
	select {
	case c := <-s.conns:
		return c
	case <-time.After(limit):
		t.Fatalf("no connection within %s", limit)
		return nil
	}
}

// Rejected reports how many connections were closed with 4401.
func (s *Server) Rejected() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rejected
}

// Hellos reports how many hello frames arrived, rejected ones included.
func (s *Server) Hellos() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hellos
}

// Close closes every connection and the listener.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.done)
	live := make([]*Conn, 0, len(s.live))
	for c := range s.live {
		live = append(live, c)
	}
	s.mu.Unlock()
	err := s.srv.Close() // closes the listener; hijacked sockets are ours
	for _, c := range live {
		c.ws.Close()
	}
	s.wg.Wait()
	return err
}

// serveWS serves one client from upgrade to close: its hello, ready, the
// script (through Conns and OnConn) and its read loop.
func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	ws, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	c := &Conn{ws: ws, done: make(chan struct{}), more: make(chan struct{}), server: s}
	if !s.track(c) {
		ws.Close()
		return
	}
	defer s.untrack(c)
	if !s.greet(c) {
		close(c.done)
		return
	}

	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		c.readLoop()
	}()
	select {
	case s.conns <- c:
	default: // nobody is reading Conns; the connection still records
	}
	if s.opts.OnConn != nil {
		s.opts.OnConn(c)
		c.CloseWith(websocket.CloseNormalClosure, "")
	}
	<-readDone
}

// track counts c among the live connections Close waits for; false once
// the server is closed.
func (s *Server) track(c *Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.live[c] = struct{}{}
	s.wg.Add(1)
	return true
}

// untrack lets Close stop waiting for c.
func (s *Server) untrack(c *Conn) {
	s.mu.Lock()
	delete(s.live, c)
	s.mu.Unlock()
	s.wg.Done()
}

// greet reads the client's hello, admits its key and answers ready (unless
// told not to). False when the connection ended on the way; it is closed.
func (s *Server) greet(c *Conn) bool {
	h, ok := s.readHello(c)
	if !ok || !s.admit(c, h) {
		return false
	}
	if s.opts.Break == BreakTurnReadLimit {
		c.ws.SetReadLimit(turnReadLimit)
	}
	if s.opts.NoReady {
		return true
	}
	ready := map[string]any{"type": "ready", "chat_id": h.ChatID}
	if s.opts.MaxTurnBytes > 0 {
		ready["max_turn_bytes"] = s.opts.MaxTurnBytes
	}
	if s.opts.Break == BreakReadyMaxTurnBytes {
		ready["max_turn_bytes"] = "1MB"
	}
	if err := c.Send(ready); err != nil {
		c.ws.Close()
		return false
	}
	return true
}

// readHello reads the first frame, which must be a hello within
// helloWait, and records it; otherwise it closes the connection.
func (s *Server) readHello(c *Conn) (Hello, bool) {
	ws := c.ws
	ws.SetReadDeadline(time.Now().Add(helloWait))
	_, data, err := ws.ReadMessage()
	if err != nil {
		ws.Close()
		return Hello{}, false
	}
	ws.SetReadDeadline(time.Time{})
	var h Hello
	var typ struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(data, &typ) != nil || typ.Type != "hello" || json.Unmarshal(data, &h) != nil {
		c.CloseWith(websocket.CloseProtocolError, "hello expected")
		return Hello{}, false
	}
	h.Raw = append(json.RawMessage(nil), data...)
	c.Hello = h
	if s.opts.OnFrame != nil {
		s.opts.OnFrame(Frame{Type: "hello", Raw: h.Raw, At: time.Now()})
	}
	return h, true
}

// admit counts the hello and checks its key, closing the connection as
// the backend does when the key is wrong; with BreakReplaceCode a second
// connection of the same chat replaces the first.
func (s *Server) admit(c *Conn, h Hello) bool {
	s.mu.Lock()
	s.hellos++
	if s.opts.Key != "" && h.Key != s.opts.Key {
		s.rejected++
		s.mu.Unlock()
		code := CloseKeyRejected
		if s.opts.Break == BreakWrongKeyCode {
			code = websocket.ClosePolicyViolation
		}
		c.CloseWith(code, "")
		return false
	}
	var replaced *Conn
	if s.opts.Break == BreakReplaceCode {
		replaced = s.chats[h.ChatID]
		s.chats[h.ChatID] = c
	}
	s.mu.Unlock()
	if replaced != nil {
		replaced.CloseWith(replaceCode, "replaced")
	}
	return true
}

// Hello is the client's hello frame as received.
type Hello struct {
	Key        string            `json:"key"`
	ChatID     string            `json:"chat_id"`
	Accepts    []string          `json:"accepts"`
	Vocabulary json.RawMessage   `json:"vocabulary"`
	Tools      []json.RawMessage `json:"tools"`
	Raw        json.RawMessage   `json:"-"`
}

// Frame is one frame the client sent.
type Frame struct {
	Type string
	Raw  json.RawMessage
	At   time.Time
}

// Decode unmarshals the frame into v.
func (f Frame) Decode(v any) error { return json.Unmarshal(f.Raw, v) }

// Conn is one client connection.
type Conn struct {
	Hello Hello

	ws     *websocket.Conn
	server *Server
	wmu    sync.Mutex
	done   chan struct{}

	mu        sync.Mutex
	frames    []Frame
	next      int           // cursor of Next
	more      chan struct{} // closed and replaced when a frame arrives
	closeCode int
	closeErr  error
}

// ErrClosed is returned by Next once the connection has closed and every
// received frame was read.
var ErrClosed = errors.New("pushsim: connection closed")

func (c *Conn) readLoop() {
	defer close(c.done)
	defer c.ws.Close()
	for {
		_, data, err := c.ws.ReadMessage()
		if err != nil {
			c.mu.Lock()
			c.closeErr = err
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				c.closeCode = ce.Code
			}
			close(c.more)
			c.more = make(chan struct{})
			c.mu.Unlock()
			return
		}
		var typ struct {
			Type string `json:"type"`
		}
		json.Unmarshal(data, &typ)
		c.mu.Lock()
		f := Frame{Type: typ.Type, Raw: data, At: time.Now()}
		c.frames = append(c.frames, f)
		close(c.more)
		c.more = make(chan struct{})
		c.mu.Unlock()
		if c.server.opts.OnFrame != nil {
			c.server.opts.OnFrame(f)
		}
	}
}

// Send marshals frame as JSON and writes it as one text message.
func (c *Conn) Send(frame any) error {
	b, err := json.Marshal(frame)
	if err != nil {
		return fmt.Errorf("pushsim: encoding frame: %w", err)
	}
	return c.SendRaw(b)
}

// SendRaw writes data as one text message, unchecked (for malformed and
// oversize frames).
func (c *Conn) SendRaw(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.ws.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if err := c.ws.WriteMessage(websocket.TextMessage, data); err != nil {
		return fmt.Errorf("pushsim: write: %w", err)
	}
	return nil
}

// SendBinary writes data as one binary message.
func (c *Conn) SendBinary(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.ws.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if err := c.ws.WriteMessage(websocket.BinaryMessage, data); err != nil {
		return fmt.Errorf("pushsim: write: %w", err)
	}
	return nil
}

// Next returns the next frame the client sent after hello, waiting until ctx ends.
func (c *Conn) Next(ctx context.Context) (Frame, error) {
	for {
		c.mu.Lock()
		if c.next < len(c.frames) {
			f := c.frames[c.next]
			c.next++
			c.mu.Unlock()
			return f, nil
		}
		more := c.more
		closed := c.closeErr != nil
		c.mu.Unlock()
		if closed {
			return Frame{}, ErrClosed
		}
		select {
		case <-more:
		case <-ctx.Done():
			return Frame{}, ctx.Err()
		}
	}
}

// NextOfType skips frames until one of type typ arrives.
func (c *Conn) NextOfType(ctx context.Context, typ string) (Frame, error) {
	for {
		f, err := c.Next(ctx)
		if err != nil {
			return Frame{}, err
		}
		if f.Type == typ {
			return f, nil
		}
	}
}

// Received returns every frame received so far, hello excluded.
func (c *Conn) Received() []Frame {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Frame(nil), c.frames...)
}

// CloseWith sends a close frame with code and reason and closes the socket.
func (c *Conn) CloseWith(code int, reason string) {
	c.wmu.Lock()
	c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(time.Second))
	c.wmu.Unlock()
	c.ws.Close()
}

// ClientCloseCode is the close code the client sent, 0 when it sent none
// or the connection is still open.
func (c *Conn) ClientCloseCode() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closeCode
}

// Done is closed when the connection has closed.
func (c *Conn) Done() <-chan struct{} { return c.done }
