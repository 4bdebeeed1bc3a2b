package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"yui/transport/clock"
	"yui/transport/toolcall"
)

// State is a server's state as the Tools tab shows it.
type State string

const (
	StateStarting State = "starting"
	StateRunning  State = "running"
	StateFailed   State = "failed"
	StateStopped  State = "stopped"
)

// Restart backoff after a crash or a failed start (docs/product.md §12):
// 1 s doubling to 30 s; the attempt after the 30 s wait failing too makes
// the server failed, until the user restarts it.
const (
	firstBackoff = time.Second
	maxBackoff   = 30 * time.Second
	// stableRun is how long a server must have run for its next crash to
	// start the backoff again from 1 s.
	stableRun = 30 * time.Second
)

// ToolInfo is one tool a server lists.
type ToolInfo struct {
	Name        string // the server's own name for it
	Description string
	Schema      json.RawMessage // its input schema
}

// Status is a server's state now.
type Status struct {
	Name  string
	State State
	Tools []ToolInfo
	// Err is the last failure: the start error or the crash, with the
	// server's last stderr line when it wrote one.
	Err string
}

// server is one configured server and the goroutine that keeps it running.
type server struct {
	cfg ServerConfig
	env *env

	ctx     context.Context // ends on stop
	cancel  context.CancelFunc
	restart chan struct{} // buffered 1: the user asked for a restart
	relist  chan struct{} // buffered 1: the server's tool list changed
	done    chan struct{} // closed when run returned
	stderr  *stderrLog

	mu   sync.Mutex
	st   Status
	sess *mcp.ClientSession
}

func newServer(cfg ServerConfig, e *env) *server {
	ctx, cancel := context.WithCancel(context.Background())
	s := &server{cfg: cfg, env: e, ctx: ctx, cancel: cancel,
		restart: make(chan struct{}, 1), relist: make(chan struct{}, 1), done: make(chan struct{}),
		st: Status{Name: cfg.Name, State: StateStarting}}
	s.stderr = newStderrLog(e.log, cfg.Name)
	go s.run()
	return s
}

// status returns a copy of the state.
func (s *server) status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.st
	st.Tools = append([]ToolInfo(nil), s.st.Tools...)
	return st
}

// session is the running session, or nil.
func (s *server) session() *mcp.ClientSession {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sess
}

// set changes the state, logs mcp_server and tells the manager.
func (s *server) set(state State, tools []ToolInfo, err string, sess *mcp.ClientSession) {
	s.mu.Lock()
	s.st.State, s.st.Tools, s.sess = state, tools, sess
	if err != "" || state == StateRunning {
		s.st.Err = err
	}
	s.mu.Unlock()
	attrs := []any{"name", s.cfg.Name, "state", string(state), "tools", len(tools)}
	if err != "" {
		attrs = append(attrs, "err", err)
	}
	s.env.log.Info("mcp_server", attrs...)
	s.env.changed(s.cfg.Name)
}

// stop ends the server and waits for its goroutine (and process).
func (s *server) stop() {
	s.cancel()
	<-s.done
}

// kick asks for a restart: at once, backoff and failure forgotten.
func (s *server) kick() {
	select {
	case s.restart <- struct{}{}:
	default:
	}
}

// run keeps the server running until stop.
func (s *server) run() {
	defer close(s.done)
	backoff := firstBackoff
	for {
		started := s.env.clk.Now()
		err := s.runOnce()
		if s.ctx.Err() != nil {
			s.set(StateStopped, nil, "", nil)
			return
		}
		if errors.Is(err, errRestart) {
			backoff = firstBackoff
			continue
		}
		if s.env.clk.Now().Sub(started) >= stableRun {
			backoff = firstBackoff
		}
		msg := s.failure(err)
		var perm *permanentError
		if backoff > maxBackoff || errors.As(err, &perm) {
			s.set(StateFailed, nil, msg, nil)
			if !s.waitKick(0) {
				s.set(StateStopped, nil, "", nil)
				return
			}
			backoff = firstBackoff
			continue
		}
		s.set(StateStarting, nil, msg, nil)
		if !s.waitKick(backoff) {
			s.set(StateStopped, nil, "", nil)
			return
		}
		backoff = nextBackoff(backoff)
	}
}

// nextBackoff doubles d up to maxBackoff; past maxBackoff it returns more
// than maxBackoff, which makes the next failure final.
func nextBackoff(d time.Duration) time.Duration {
	if d >= maxBackoff {
		return maxBackoff + 1
	}
	return min(2*d, maxBackoff)
}

// failure is the reason shown for err: the server's last stderr line
// when it wrote one.
func (s *server) failure(err error) string {
	msg := "stopped"
	if err != nil {
		msg = err.Error()
	}
	if line := s.stderr.last(); line != "" {
		msg += ": " + line
	}
	return msg
}

// waitKick waits d (0: until a restart), a restart or stop; it reports
// false on stop.
func (s *server) waitKick(d time.Duration) bool {
	var tick chan struct{}
	if d > 0 {
		tick = make(chan struct{})
		t := s.env.clk.AfterFunc(d, func() { close(tick) })
		defer t.Stop()
	}
	select {
	case <-s.ctx.Done():
		return false
	case <-s.restart:
		return true
	case <-tick:
		return true
	}
}

var errRestart = errors.New("restart requested")

// runOnce connects, lists the tools and serves until the session ends, a
// restart, or stop. It returns why it ended.
func (s *server) runOnce() error {
	sess, end, err := s.connect()
	if err != nil {
		return err
	}
	defer func() {
		sess.Close()
		if end != nil {
			end()
		}
		s.mu.Lock()
		s.sess = nil
		s.mu.Unlock()
	}()
	tools, err := s.list(sess)
	if err != nil {
		return err
	}
	s.set(StateRunning, tools, "", sess)
	closed := make(chan error, 1)
	go func() { closed <- sess.Wait() }()
	for {
		select {
		case <-s.ctx.Done():
			return nil
		case <-s.restart:
			return errRestart
		case err := <-closed:
			if err == nil {
				err = errors.New("the server closed the connection")
			}
			return fmt.Errorf("server exited: %w", err)
		case <-s.relist:
			tools, err := s.list(sess)
			if err != nil {
				return err
			}
			s.set(StateRunning, tools, "", sess)
		}
	}
}

// connect starts a connection within the server's timeout.
func (s *server) connect() (*mcp.ClientSession, func(), error) {
	t, end, err := s.env.dial(s.cfg, s.stderr)
	if err != nil {
		return nil, nil, err
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "yui", Version: "1"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{},
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case s.relist <- struct{}{}:
			default:
			}
		},
	})
	ctx, cancel := s.timeout(s.ctx)
	defer cancel()
	sess, err := client.Connect(ctx, t, nil)
	if err != nil {
		if end != nil {
			end()
		}
		if context.Cause(ctx) == errTimedOut {
			return nil, nil, fmt.Errorf("no answer within %s", s.cfg.wait())
		}
		return nil, nil, fmt.Errorf("start: %w", err)
	}
	return sess, end, nil
}

// list reads every page of the server's tools.
func (s *server) list(sess *mcp.ClientSession) ([]ToolInfo, error) {
	ctx, cancel := s.timeout(s.ctx)
	defer cancel()
	var out []ToolInfo
	for t, err := range sess.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("tools/list: %w", err)
		}
		raw, err := json.Marshal(t.InputSchema)
		if err != nil || string(raw) == "null" {
			raw = json.RawMessage(`{"type":"object"}`)
		}
		out = append(out, ToolInfo{Name: t.Name, Description: t.Description, Schema: raw})
	}
	return out, nil
}

var errTimedOut = errors.New("timed out")

// timeout is parent bounded by the server's timeout on the manager's clock.
func (s *server) timeout(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	t := s.env.clk.AfterFunc(s.cfg.wait(), func() { cancel(errTimedOut) })
	return ctx, func() { t.Stop(); cancel(context.Canceled) }
}

// call runs one tools/call. The context's end sends the protocol's
// cancellation notice (the SDK does). It returns the answer text of
// docs/protocol/client-tools.md for a server not running or too slow.
func (s *server) call(ctx context.Context, tool string, args json.RawMessage) (*mcp.CallToolResult, string) {
	sess := s.session()
	if sess == nil {
		return nil, NotRunning(s.cfg.Name)
	}
	cctx, cancel := s.timeout(ctx)
	defer cancel()
	res, err := sess.CallTool(cctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	switch {
	case context.Cause(cctx) == errTimedOut:
		return nil, NoReply(s.cfg.Name, s.cfg.wait())
	case ctx.Err() != nil:
		return nil, toolcall.ErrTurnStopped
	case errors.Is(err, mcp.ErrConnectionClosed):
		return nil, NotRunning(s.cfg.Name)
	case err != nil:
		return nil, "error: " + err.Error()
	case res == nil:
		return nil, "error: the tool server sent no result"
	}
	return res, ""
}

// env is what every server of a manager shares.
type env struct {
	clk     clock.Clock
	log     *slog.Logger
	dial    Dialer
	changed func(name string)
}
