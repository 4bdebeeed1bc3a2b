package request

import (
	"context"
	"net/http"
	"time"

	"yui/transport"
)

// The probe runs again on the reconnect schedule while the server cannot
// be reached, or, a server Options.Server knows, lists no chat model: a
// server started after Yui, or a model pulled after it, makes the preset
// ready with nobody pressing anything. The offline state carries when the
// next probe goes, for the pill's countdown.

// The probe schedule: push's reconnect schedule (docs/protocol/push-transport.md), 1 s
// doubling up to 30 s.
const (
	reprobeFirst = 1 * time.Second
	reprobeCap   = 30 * time.Second
)

// startProbeLocked starts probeLoop. e.mu is held.
func (e *Engine) startProbeLocked() {
	e.probe.running = true
	e.wg.Add(1)
	go func() { defer e.wg.Done(); e.probeLoop() }()
}

// reprobeLocked is Reconnect with a probe: connecting, and the probe runs
// now (a running loop wakes, else one starts). e.mu is held.
func (e *Engine) reprobeLocked() {
	e.setStateLocked(transport.StateEvent{State: transport.StateConnecting})
	if !e.probe.running {
		e.startProbeLocked()
		return
	}
	select {
	case e.probe.now <- struct{}{}:
	default:
	}
}

// probeLoop probes until the server answered with something usable, a
// turn made the state something else than connecting or offline, or the
// engine closes.
func (e *Engine) probeLoop() {
	delay := reprobeFirst
	for {
		next, again := e.probeOnce()
		if e.ctx.Err() != nil {
			return
		}
		if again {
			next.RetryIn = delay
			next.RetryAt = e.clk.Now().Add(delay)
		}
		e.mu.Lock()
		st := e.state.State
		if e.closed || (st != transport.StateConnecting && st != transport.StateOffline) {
			e.probe.running = false // under the lock: a Reconnect now starts a new loop
			e.mu.Unlock()
			return // a turn got an answer first
		}
		e.setStateLocked(next)
		if !again {
			e.probe.running = false
		}
		if next.State == transport.StateReady {
			m := e.opts.Model
			if m == "" {
				m = e.model
			}
			e.log.Info("probe_ready", "model", m, "server", e.probe.server.Name)
		}
		e.mu.Unlock()
		if !again || !e.sleep(delay) {
			return
		}
		delay = min(delay*2, reprobeCap)
	}
}

// sleep waits d on the engine's clock, or until Reconnect asks for a
// probe now; false when the engine closed.
func (e *Engine) sleep(d time.Duration) bool {
	done := make(chan struct{})
	t := e.clk.AfterFunc(d, func() { close(done) })
	select {
	case <-done:
		return true
	case <-e.probe.now:
		t.Stop()
		return true
	case <-e.ctx.Done():
		t.Stop()
		return false
	}
}

// probeOnce asks for the model list once: any HTTP answer means the server
// is there (401 and 403: with a key it refuses), no answer means offline.
// With no model set, the first chat model listed is the one the turns
// use. again says the probe should run again.
func (e *Engine) probeOnce() (next transport.StateEvent, again bool) {
	ctx, cancel := context.WithTimeout(e.ctx, probeTimeout)
	defer cancel()
	status, first, err := e.listModels(ctx)
	switch {
	case err != nil:
		if e.ctx.Err() != nil {
			return next, false
		}
		err = &connError{err}
		e.log.Warn("probe_failed", "err", e.redact(err.Error()))
		return transport.StateEvent{State: transport.StateOffline, Err: err}, true
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		next = transport.StateEvent{State: transport.StateKeyRejected}
		if info := e.serverInfo(ctx); info.KeyHint != "" {
			next.Err = &transport.KeyNeededError{Info: info}
		}
		return next, false
	}
	info := e.serverInfo(ctx)
	if status/100 == 2 && e.opts.Model == "" && first == "" && info.NoModelHint != "" {
		e.log.Warn("model_missing", "server", info.Name, "hint", info.NoModelHint)
		return transport.StateEvent{State: transport.StateOffline, Err: &transport.NoModelError{Info: info}}, true
	}
	e.pickModel(first)
	return transport.StateEvent{State: transport.StateReady}, false
}

// serverInfo asks Options.Server once, after the server first answered.
func (e *Engine) serverInfo(ctx context.Context) transport.ServerInfo {
	if e.opts.Server == nil {
		return transport.ServerInfo{}
	}
	e.mu.Lock()
	info, asked := e.probe.server, e.probe.asked
	e.mu.Unlock()
	if asked {
		return info
	}
	info = e.opts.Server(ctx)
	e.mu.Lock()
	e.probe.server, e.probe.asked = info, true
	e.mu.Unlock()
	return info
}
