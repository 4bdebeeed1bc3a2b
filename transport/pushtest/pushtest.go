// Package pushtest is a programmable fake push backend on loopback: tests
// script it frame by frame and read what the client sent. cmd/yui-sim and
// `yui --demo` run scripted scenarios on it.
package pushtest

import (
	"context"
	"encoding/json"
	"time"
)

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
}

// Server is a running fake backend.
type Server struct {
	// URL is "http://127.0.0.1:<port>", usable as chat_base_url.
	URL string
}

// Start listens and serves /ws.
func Start(opts Options) (*Server, error) { panic("TODO") }

// Conns delivers each accepted connection (after hello), in order.
func (s *Server) Conns() <-chan *Conn { panic("TODO") }

// Close closes every connection and the listener.
func (s *Server) Close() error { panic("TODO") }

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
}

// Send marshals frame as JSON and writes it as one text message.
func (c *Conn) Send(frame any) error { panic("TODO") }

// SendRaw writes data as one text message, unchecked (for malformed and
// oversize frames).
func (c *Conn) SendRaw(data []byte) error { panic("TODO") }

// Next returns the next frame the client sent after hello, waiting until ctx ends.
func (c *Conn) Next(ctx context.Context) (Frame, error) { panic("TODO") }

// NextOfType skips frames until one of type typ arrives.
func (c *Conn) NextOfType(ctx context.Context, typ string) (Frame, error) { panic("TODO") }

// Received returns every frame received so far, hello excluded.
func (c *Conn) Received() []Frame { panic("TODO") }

// CloseWith sends a close frame with code and reason and closes the socket.
func (c *Conn) CloseWith(code int, reason string) { panic("TODO") }

// Done is closed when the connection has closed.
func (c *Conn) Done() <-chan struct{} { panic("TODO") }
