package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/gorilla/websocket"

	"yui/pet/settings"
	"yui/transport"
	"yui/transport/clock"
	"yui/transport/dial"
	"yui/transport/push"
	"yui/transport/request"
	"yui/transport/textcut"
	"yui/windows"
)

// probeWait bounds the test-connection button.
const probeWait = 10 * time.Second

// prober is the settings window's connection test
// (settingswindow.Connection).
type prober struct{ log *slog.Logger }

// Probe tests p's backend as edited: for push a WebSocket handshake and
// hello until ready or a close, for the request transports GET /models.
func (pr prober) Probe(ctx context.Context, p settings.Preset) windows.Probe {
	ctx, cancel := context.WithTimeout(ctx, probeWait)
	defer cancel()
	var res windows.Probe
	if p.ChatAPI == settings.ChatAPIPush {
		res = pr.probePush(ctx, p)
	} else {
		res = probeModels(ctx, p)
	}
	pr.log.Info("probe", "preset", p.ID, "chat_api", p.ChatAPI, "ok", res.OK, "result", res.Text)
	return res
}

// probePush first checks that a WebSocket answers at the URL (so a web
// server that is not a push backend says so), then runs a real push
// client with p's settings until it is ready or refused.
func (pr prober) probePush(ctx context.Context, p settings.Preset) windows.Probe {
	u, err := push.WebSocketURL(p.ChatBaseURL)
	if err != nil {
		return probeResult(windows.ProbeInvalid, "invalid: "+err.Error(), "Detail", err.Error())
	}
	d := websocket.Dialer{HandshakeTimeout: probeWait}
	ws, resp, err := d.DialContext(ctx, u, nil)
	if err != nil {
		if errors.Is(err, websocket.ErrBadHandshake) && resp != nil {
			return probeResult(windows.ProbeNotPushHTTP, fmt.Sprintf("not a push backend: the server answered HTTP %d", resp.StatusCode), "Status", resp.StatusCode)
		}
		detail := textcut.OneLine(err.Error(), 120)
		return probeResult(windows.ProbeUnreachable, "unreachable: "+detail, "Detail", detail)
	}
	ws.Close()

	opts := transport.Options{ChatBaseURL: p.ChatBaseURL, Key: p.Key, ChatID: p.ChatID, Clock: clock.Real{}, Logger: pr.log.With("component", "probe")}
	t, err := dial.New(dial.Push, opts)
	if err != nil {
		return probeResult(windows.ProbeInvalid, "invalid: "+err.Error(), "Detail", err.Error())
	}
	defer t.Close()
	t.Start()
	for {
		select {
		case <-ctx.Done():
			return probeResult(windows.ProbeNoReady, "no ready: the backend accepted the socket but did not answer hello")
		case ev, ok := <-t.Events():
			if !ok {
				return probeResult(windows.ProbeClosed, "closed")
			}
			st, isState := ev.(*transport.StateEvent)
			if !isState {
				continue
			}
			switch st.State {
			case transport.StateReady:
				return windows.Probe{OK: true, Code: windows.ProbeReady, Text: "connected: ready"}
			case transport.StateKeyRejected:
				return probeResult(windows.ProbeKeyRejected, "key rejected")
			case transport.StateReconnecting:
				return probeResult(windows.ProbeNotPushClosed, fmt.Sprintf("not a push backend: the socket closed (code %d) before ready", st.CloseCode), "Code", st.CloseCode)
			case transport.StateInvalid:
				return probeResult(windows.ProbeInvalid, "invalid: "+errText(st.Err), "Detail", errText(st.Err))
			}
		}
	}
}

// probeModels asks a request server for its models.
func probeModels(ctx context.Context, p settings.Preset) windows.Probe {
	models, status, err := listModels(ctx, p.ChatBaseURL, p.Key)
	switch {
	case err != nil && status == 0:
		detail := textcut.OneLine(err.Error(), 120)
		return probeResult(windows.ProbeUnreachable, "unreachable: "+detail, "Detail", detail)
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return probeResult(windows.ProbeKeyRejected, "key rejected")
	case err != nil:
		detail := textcut.OneLine(err.Error(), 120)
		return probeResult(windows.ProbeHTTP, fmt.Sprintf("the server answered HTTP %d: %s", status, detail), "Status", status, "Detail", detail)
	}
	return windows.Probe{OK: true, Code: windows.ProbeModels, Text: fmt.Sprintf("connected: %d models", len(models)), Models: models}
}

// listModels is GET {base}/models: the model ids, the HTTP status (0 when
// no answer came) and an error.
func listModels(ctx context.Context, base, key string) ([]string, int, error) {
	var ids []string
	var perr error
	status, err := request.GetModels(ctx, http.DefaultClient, base, key, func(body io.Reader) {
		ids, perr = request.ModelIDs(body)
	})
	switch {
	case err != nil:
		return nil, 0, err
	case status/100 != 2:
		return nil, status, fmt.Errorf("HTTP %d", status)
	}
	return ids, status, perr
}

// probeResult is a failed probe: its code, its English text for the log
// and its code's arguments as name, value pairs.
func probeResult(code windows.ProbeCode, text string, kv ...any) windows.Probe {
	args := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		args[kv[i].(string)] = kv[i+1]
	}
	return windows.Probe{Code: code, Args: args, Text: text}
}

func errText(err error) string {
	if err == nil {
		return "unknown"
	}
	return err.Error()
}
