// Package push is the push chat transport (docs/protocol/push-transport.md): one WebSocket
// per pet window to the backend, carrying turns out and finished replies in.
//
// A Client owns three kinds of goroutine, all stopped by Close: the
// connection supervisor (dial, read loop, reconnect backoff), one writer per
// live socket, and the event pump that feeds Events. Frame waits, the hello
// wait and the reconnect delay run on the injected clock, so tests drive
// them with clocktest.Fake instead of sleeping.
package push

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"yui/transport"
	"yui/transport/clock"
	"yui/transport/delegation"
	"yui/transport/redact"
	"yui/transport/toolcall"
)

// Limits of docs/protocol/push-transport.md.
const (
	// TextFrameLimit caps every frame in either direction but turn frames
	// and tool_result frames with images.
	TextFrameLimit = 256 << 10
	// HelloWait is how long a hello waits for ready before the socket closes.
	HelloWait = 10 * time.Second
	// FrameWait is the per-turn wait, restarted by every frame of the turn.
	FrameWait = 240 * time.Second
	// ReconnectFirst is the first reconnect delay; it doubles per failed
	// attempt up to ReconnectCap and resets after a ready.
	ReconnectFirst = 1 * time.Second
	ReconnectCap   = 30 * time.Second
	// CloseKeyRejected is the close code of a wrong key: no retry.
	CloseKeyRejected = 4401
	// ErrorTextMax is how many characters of an error frame's message a
	// failed turn shows.
	ErrorTextMax = 200
)

// Bounds that keep a misbehaving backend from growing client memory.
const (
	maxHeldTurns   = 256 // turns held while waiting for their turn_end
	maxForgotten   = 128 // closed turns remembered for First on late renders
	maxQueuedOut   = 512 // frames queued on one socket's writer
	writeWait      = 10 * time.Second
	handshakeWait  = 10 * time.Second
	dialFailedCode = websocket.CloseAbnormalClosure
)

// Client is the push transport of one pet window. It implements
// transport.Transport.
type Client struct {
	opts      transport.Options
	clk       clock.Clock
	log       *slog.Logger
	loc       *time.Location
	url       string
	urlErr    error
	tools     json.RawMessage // hello.tools; nil when none are declared
	runner    *toolcall.Runner
	hasBrowse bool // browser is declared: its tool_status leaves the pill alone
	dialer    websocket.Dialer
	hist      *delegation.History
	events    *transport.EventQueue

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	kick   chan struct{} // Reconnect: connect now

	mu            sync.Mutex
	started       bool
	closed        bool
	state         transport.StateEvent
	cn            *conn              // the live socket, nil between attempts
	attemptCancel context.CancelFunc // ends the current dial or socket
	vocab         transport.Vocabulary
	book          turnBook
	reasoningTurn string // the turn whose reasoning frames are streaming
	deleg         delegChip
}

// turnBook is the client's record of the turns of this run (under mu).
type turnBook struct {
	idBase    int64 // first turn id of this run
	idNext    int64 // next turn id
	turns     map[string]*turn
	order     []*turn // held turns, oldest first
	stoppedN  int     // stopped turns still waiting for their turn_end
	forgotten forgottenRing
}

// delegChip is the last delegations frame's items and the timer of the
// next done item's expiry (under mu).
type delegChip struct {
	items []transport.Delegation
	timer clock.Timer
}

var _ transport.Transport = (*Client)(nil)

// New returns a push transport for opts. It does not connect until Start.
// A chat_base_url that cannot work is not an error here: Start reports it as
// StateInvalid, like every other connection state. New fails only when a
// declared tool's schema does not compile.
func New(opts transport.Options) (*Client, error) {
	c := &Client{
		opts:   opts,
		clk:    opts.Clock,
		log:    opts.Logger,
		loc:    opts.Location,
		book:   turnBook{turns: make(map[string]*turn)},
		kick:   make(chan struct{}, 1),
		vocab:  cloneVocabulary(opts.Vocabulary),
		events: transport.NewEventQueue(),
	}
	if c.clk == nil {
		c.clk = clock.Real{}
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	if c.loc == nil {
		c.loc = time.Local
	}
	c.url, c.urlErr = WebSocketURL(opts.ChatBaseURL)

	tools, err := helloTools(opts.Tools)
	if err != nil {
		return nil, err
	}
	c.tools = tools
	for _, t := range opts.Tools {
		if t.Name == "browser" {
			c.hasBrowse = true
		}
	}
	c.runner, err = toolcall.NewRunner(opts.Tools, c.clk, c.log)
	if err != nil {
		return nil, fmt.Errorf("push: %w", err)
	}
	c.hist = delegation.NewHistory(opts.Delegations)
	c.dialer = websocket.Dialer{
		Proxy:            http.ProxyFromEnvironment,
		HandshakeTimeout: handshakeWait,
	}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	c.book.idBase = c.clk.Now().UnixMilli()
	c.book.idNext = c.book.idBase
	c.state = transport.StateEvent{State: transport.StateIdle}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		c.events.Run()
	}()
	return c, nil
}

// WebSocketURL maps a chat_base_url to the socket address: http becomes ws,
// https becomes wss, ws and wss stay, and /ws is appended to any base path.
func WebSocketURL(base string) (string, error) {
	if strings.TrimSpace(base) == "" {
		return "", errors.New("push: chat_base_url is empty")
	}
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil {
		return "", fmt.Errorf("push: chat_base_url does not parse: %w", err)
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "ws":
		u.Scheme = "ws"
	case "https", "wss":
		u.Scheme = "wss"
	default:
		return "", fmt.Errorf("push: chat_base_url %q: scheme must be http, https, ws or wss", redact.URL(u))
	}
	if u.Host == "" {
		return "", fmt.Errorf("push: chat_base_url %q has no host", redact.URL(u))
	}
	u.Path = strings.TrimRight(u.Path, "/") + "/ws"
	if u.RawPath != "" {
		// Keep a base path's own escaping (%2F stays %2F).
		u.RawPath = strings.TrimRight(u.RawPath, "/") + "/ws"
	}
	u.RawQuery = ""
	u.Fragment = ""
	return u.String(), nil
}

// Start begins connecting. Calling it again does nothing.
func (c *Client) Start() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.startLocked()
}

func (c *Client) startLocked() {
	if c.started || c.closed {
		return
	}
	c.started = true
	if c.urlErr != nil {
		c.setStateLocked(transport.StateEvent{State: transport.StateInvalid, Err: c.urlErr})
		c.log.Warn("push.invalid_settings", "err", c.urlErr.Error())
		return
	}
	c.wg.Add(1)
	go c.supervise()
}

// Reconnect drops the socket or the failed state and connects again now.
func (c *Client) Reconnect() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	if !c.started {
		c.startLocked()
		return
	}
	if c.urlErr != nil {
		return
	}
	select {
	case c.kick <- struct{}{}:
	default:
	}
	if c.attemptCancel != nil {
		c.attemptCancel()
	}
}

// Events is the ordered stream of everything the transport reports. The
// transport never blocks on it: events the app has not read yet queue up,
// in order, without limit, until Close.
func (c *Client) Events() <-chan transport.Event { return c.events.C() }

// State is the current connection state.
func (c *Client) State() transport.StateEvent {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state
}

// Close stops every goroutine and closes Events. It is safe to call twice.
func (c *Client) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	c.state = transport.StateEvent{State: transport.StateClosed}
	for _, tr := range c.book.order {
		if tr.timer != nil {
			tr.timer.Stop()
		}
	}
	if c.deleg.timer != nil {
		c.deleg.timer.Stop()
	}
	c.mu.Unlock()

	c.cancel() // ends the dial, the socket (closed with 1000) and the backoff wait
	c.runner.Close()
	c.events.Close()
	c.wg.Wait()
	return nil
}

// setStateLocked records and reports a connection state.
func (c *Client) setStateLocked(st transport.StateEvent) {
	if c.closed {
		return
	}
	c.state = st
	ev := st
	c.emit(&ev)
}

func (c *Client) emit(ev transport.Event) {
	if c.closed {
		return
	}
	c.events.Push(ev)
}

// Reset asks the backend for a new conversation under the same chat_id.
// It is sent only while ready; otherwise it is logged and dropped.
func (c *Client) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cn := c.cn; cn != nil && cn.ready {
		c.sendLocked(cn, "reset", typeOnly{Type: "reset"})
		return
	}
	c.log.Info("push.reset", "dropped", "not_ready")
}

// ReportPlaybackFailed sends a playback frame for turnID while connected;
// a report made while disconnected is dropped, never replayed.
func (c *Client) ReportPlaybackFailed(turnID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if turnID == "" {
		return
	}
	if cn := c.cn; cn != nil && cn.ready {
		c.sendLocked(cn, "playback", playbackFrame{Type: "playback", TurnID: turnID, Ended: "failed"})
		return
	}
	c.log.Info("push.playback", "turn_id", turnID, "dropped", "not_ready")
}

// isOwnID reports whether id is one this run issued.
func (c *Client) isOwnID(id string) bool {
	n, err := strconv.ParseInt(id, 10, 64)
	return err == nil && n >= c.book.idBase && n < c.book.idNext && strconv.FormatInt(n, 10) == id
}
