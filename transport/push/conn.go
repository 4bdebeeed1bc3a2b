package push

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"yui/transport"
	"yui/transport/clock"
)

// conn is one socket. Its ready flag and maxTurnBytes are guarded by the
// Client's mutex; its write queue by its own.
type conn struct {
	ws *websocket.Conn // nil in tests that dispatch frames without a socket

	// Guarded by Client.mu.
	ready        bool
	gotReady     bool // ready arrived at some point: the backoff resets
	maxTurnBytes int  // 0: ready stated none
	closed       bool
	helloTimer   clock.Timer
	helloVocab   transport.Vocabulary // what the hello told the backend

	lr io.LimitedReader // reused by the read loop, the only reader

	wmu     sync.Mutex
	queue   [][]byte
	wake    chan struct{}
	done    chan struct{}
	stopped bool
}

func newConn(ws *websocket.Conn) *conn {
	return &conn{ws: ws, wake: make(chan struct{}, 1), done: make(chan struct{})}
}

// enqueue hands b to the writer; false when the queue is full or the
// writer has stopped.
func (cn *conn) enqueue(b []byte) bool {
	cn.wmu.Lock()
	if cn.stopped || len(cn.queue) >= maxQueuedOut {
		cn.wmu.Unlock()
		return false
	}
	cn.queue = append(cn.queue, b)
	cn.wmu.Unlock()
	select {
	case cn.wake <- struct{}{}:
	default:
	}
	return true
}

// write sends queued frames in order until stop. A write error closes the
// socket, which ends the read loop and with it the connection.
func (cn *conn) write() {
	for {
		select {
		case <-cn.wake:
		case <-cn.done:
			return
		}
		for {
			cn.wmu.Lock()
			if len(cn.queue) == 0 || cn.stopped {
				cn.wmu.Unlock()
				break
			}
			b := cn.queue[0]
			cn.queue[0] = nil
			cn.queue = cn.queue[1:]
			cn.wmu.Unlock()
			cn.ws.SetWriteDeadline(time.Now().Add(writeWait))
			if err := cn.ws.WriteMessage(websocket.TextMessage, b); err != nil {
				cn.ws.Close()
				return
			}
		}
	}
}

func (cn *conn) stopWriter() {
	cn.wmu.Lock()
	if !cn.stopped {
		cn.stopped = true
		cn.queue = nil
		close(cn.done)
	}
	cn.wmu.Unlock()
}

// supervise connects, reads until the socket closes, and schedules the
// next attempt, until Close.
func (c *Client) supervise() {
	defer c.wg.Done()
	delay := ReconnectFirst
	for {
		code, readied, ok := c.attempt()
		if !ok {
			return
		}
		if readied {
			delay = ReconnectFirst
		}
		select {
		case <-c.kick: // Reconnect: dial again now
			delay = ReconnectFirst
			continue
		default:
		}
		if code == CloseKeyRejected {
			c.mu.Lock()
			c.setStateLocked(transport.StateEvent{State: transport.StateKeyRejected, CloseCode: code})
			c.mu.Unlock()
			select {
			case <-c.kick:
				delay = ReconnectFirst
				continue
			case <-c.ctx.Done():
				return
			}
		}
		d := delay
		delay = min(delay*2, ReconnectCap)
		fire := make(chan struct{})
		c.mu.Lock()
		c.setStateLocked(transport.StateEvent{State: transport.StateReconnecting, RetryIn: d, RetryAt: c.clk.Now().Add(d), CloseCode: code})
		c.log.Info("ws_reconnect", "delay", d.String(), "delay_ms", d.Milliseconds())
		t := c.clk.AfterFunc(d, func() { close(fire) })
		c.mu.Unlock()
		select {
		case <-fire:
		case <-c.kick:
			t.Stop()
			delay = ReconnectFirst
		case <-c.ctx.Done():
			t.Stop()
			return
		}
	}
}

// attempt runs one connection from dial to close. It reports the close
// code, whether ready arrived, and false when the client is closing.
func (c *Client) attempt() (code int, readied, ok bool) {
	actx, cancel := context.WithCancel(c.ctx)
	defer cancel()
	if !c.beginAttempt(cancel) {
		return 0, false, false
	}
	ws, code, ok := c.open(actx)
	if ws == nil {
		return code, false, ok
	}

	cn := newConn(ws)
	var wwg sync.WaitGroup
	wwg.Add(1)
	go func() {
		defer wwg.Done()
		cn.write()
	}()

	c.mu.Lock()
	c.cn = cn
	c.helloLocked(cn, ws)
	c.mu.Unlock()

	code = c.readUntilClosed(actx, ws, cn)
	readied = c.endAttempt(cn)
	cn.stopWriter()
	wwg.Wait()
	ws.Close()
	c.log.Info("ws_close", "code", code)
	return code, readied, c.ctx.Err() == nil
}

// beginAttempt makes cancel the way Reconnect ends this attempt and says
// the client is connecting; false when the client is closed.
func (c *Client) beginAttempt(cancel context.CancelFunc) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return false
	}
	c.attemptCancel = cancel
	c.setStateLocked(transport.StateEvent{State: transport.StateConnecting})
	return true
}

// open dials the backend. Without a socket it reports the close code to
// back off by, and false when the client is closing.
func (c *Client) open(actx context.Context) (ws *websocket.Conn, code int, ok bool) {
	ws, resp, err := c.dial(actx)
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	if err != nil {
		if c.ctx.Err() != nil {
			return nil, 0, false
		}
		attrs := []any{"err", err.Error()}
		if resp != nil {
			attrs = append(attrs, "status", resp.StatusCode)
		}
		c.log.Warn("ws_dial_failed", attrs...)
		return nil, dialFailedCode, true
	}
	c.log.Info("ws_open")
	return ws, 0, true
}

// helloLocked queues the hello frame on cn and gives the backend
// HelloWait to answer ready before the socket is closed. c.mu is held.
func (c *Client) helloLocked(cn *conn, ws *websocket.Conn) {
	cn.helloVocab = c.vocab
	hello, err := marshal(helloFrame{
		Type: "hello", Key: c.opts.Key, ChatID: c.opts.ChatID, Accepts: []string{"error"},
		Vocabulary: vocabJSON(c.vocab), Tools: c.tools,
	})
	switch {
	case err != nil:
		c.log.Error("push.encode", "type", "hello", "err", err.Error())
	case len(hello) > TextFrameLimit:
		c.logOversize("out", "hello", int64(len(hello)))
	default:
		c.queueLocked(cn, "hello", hello)
	}
	cn.helloTimer = c.clk.AfterFunc(HelloWait, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if cn.ready || cn.closed {
			return
		}
		// Marked closed under the lock, so a ready the read loop is
		// decoding right now cannot make this socket ready after all.
		cn.closed = true
		c.log.Warn("ws_ready_timeout", "wait", HelloWait.String())
		ws.Close()
	})
}

// readUntilClosed reads the socket until it closes and returns the close
// code. Reconnect and Close end the socket with a normal close frame.
func (c *Client) readUntilClosed(actx context.Context, ws *websocket.Conn, cn *conn) int {
	closing := make(chan struct{})
	stop := context.AfterFunc(actx, func() {
		defer close(closing)
		ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
		ws.Close()
	})
	code := c.readLoop(cn)
	if !stop() {
		// This side closed the socket: wait for the close frame to go out
		// so no goroutine outlives Close. Unless the backend's close frame
		// was read first, report the close sent rather than the read error
		// it caused.
		<-closing
		if code == websocket.CloseAbnormalClosure {
			code = websocket.CloseNormalClosure
		}
	}
	return code
}

// endAttempt marks cn closed and leaves it, reporting whether ready
// arrived on it.
func (c *Client) endAttempt(cn *conn) (readied bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cn.closed = true
	cn.helloTimer.Stop()
	readied = cn.gotReady
	c.leaveReadyLocked(cn)
	if c.cn == cn {
		c.cn = nil
	}
	c.attemptCancel = nil
	return readied
}

// dial opens the socket. gorilla/websocket honours ctx while it connects
// but not while it waits for the upgrade response, where only its
// handshake timeout applies; so the raw connection is closed when ctx
// ends, and Reconnect and Close never wait out a stalled handshake.
func (c *Client) dial(ctx context.Context) (*websocket.Conn, *http.Response, error) {
	var (
		mu        sync.Mutex
		raw       net.Conn
		abandoned bool
	)
	d := c.dialer
	d.NetDialContext = func(dctx context.Context, network, addr string) (net.Conn, error) {
		nc, err := (&net.Dialer{}).DialContext(dctx, network, addr)
		if err != nil {
			return nil, err
		}
		mu.Lock()
		defer mu.Unlock()
		if abandoned {
			nc.Close()
			return nil, ctx.Err()
		}
		raw = nc
		return nc, nil
	}
	watched := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(watched)
		mu.Lock()
		defer mu.Unlock()
		abandoned = true
		if raw != nil {
			raw.Close()
		}
	})
	ws, resp, err := d.DialContext(ctx, c.url, nil)
	if !stop() {
		<-watched
	}
	return ws, resp, err
}

// readLoop reads messages until the socket fails and returns the close code.
func (c *Client) readLoop(cn *conn) int {
	var buf bytes.Buffer
	for {
		mt, r, err := cn.ws.NextReader()
		if err != nil {
			return closeCode(err)
		}
		if err := c.readMessage(cn, mt, r, &buf); err != nil {
			return closeCode(err)
		}
		if buf.Cap() > 4*TextFrameLimit {
			buf = bytes.Buffer{}
		}
	}
}

// readMessage reads one message through a limit and dispatches it. An
// oversize message is counted and dropped unread, and the socket stays
// open: SetReadLimit would close it. Only an error reading the socket is
// returned.
func (c *Client) readMessage(cn *conn, mt int, r io.Reader, buf *bytes.Buffer) error {
	buf.Reset()
	cn.lr = io.LimitedReader{R: r, N: TextFrameLimit + 1}
	n, err := buf.ReadFrom(&cn.lr)
	cn.lr.R = nil
	if err != nil {
		return err
	}
	if n > TextFrameLimit {
		rest, err := io.Copy(io.Discard, r)
		c.logOversize("in", peekType(buf.Bytes()), n+rest)
		return err
	}
	if mt != websocket.TextMessage {
		c.malformed("", "binary message")
		return nil
	}
	c.handleFrame(cn, buf.Bytes())
	return nil
}

func closeCode(err error) int {
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		return ce.Code
	}
	return websocket.CloseAbnormalClosure
}

// peekType finds the type of a frame from its first bytes, for the log
// line of a frame too large to decode. It returns "" when it cannot tell.
func peekType(b []byte) string {
	const key = `"type"`
	i := bytes.Index(b, []byte(key))
	if i < 0 {
		return ""
	}
	b = bytes.TrimLeft(b[i+len(key):], " \t\r\n")
	if len(b) == 0 || b[0] != ':' {
		return ""
	}
	b = bytes.TrimLeft(b[1:], " \t\r\n")
	if len(b) == 0 || b[0] != '"' {
		return ""
	}
	b = b[1:]
	j := bytes.IndexByte(b, '"')
	if j < 0 || j > 32 {
		return ""
	}
	for _, ch := range b[:j] {
		if (ch < 'a' || ch > 'z') && ch != '_' {
			return ""
		}
	}
	return string(b[:j])
}
