// Package browser is the browser client tool (client-tools.md): it opens a
// web page in a private headless Chromium-family browser, through
// github.com/chromedp/chromedp, with a fresh profile per call, and answers
// the page's title and visible text, or its title and a screenshot.
package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"yui/transport"
	"yui/transport/clientctx"
	"yui/transport/toolcall"
)

// Tool constants of client-tools.md; the wait is push-transport.md's browser wait.
const (
	Name        = "browser"
	Description = "Open a web page in a private headless browser and read it or take a screenshot"
	Wait        = 32 * time.Second
	Parameters  = `{ "type": "object",
    "properties": { "action": { "type": "string", "enum": ["read", "screenshot"] },
                    "url": { "type": "string" } },
    "required": ["action", "url"], "additionalProperties": false }`
)

// maxText bounds a read's answer: a text-only tool_result frame is at most
// 256 KiB, and escaping and the frame's other fields need room.
const maxText = 192 << 10

// candidates are the Chromium-family browsers Find looks for, in order.
var candidates = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable",
	"microsoft-edge", "microsoft-edge-stable", "brave-browser", "chrome", "msedge"}

// Find returns the path of a Chromium-family browser on this machine.
func Find() (string, bool) {
	for _, name := range candidates {
		if p, err := exec.LookPath(name); err == nil {
			return p, true
		}
	}
	return "", false
}

// Status states the tool shows for its own runs (push-transport.md: the
// client shows the browser's running and terminal state itself).
const (
	Running = "running"
	Done    = "done"
	Failed  = "failed"
)

// Options are what the tool needs.
type Options struct {
	// ExecPath is the browser to run (Find).
	ExecPath string
	// Status, when set, is told when a call starts and ends (Running,
	// then Done or Failed), with the call's turn id.
	Status func(turnID, state string)
	Log    *slog.Logger // nil discards
}

// Browser answers browser calls.
type Browser struct{ o Options }

// New returns the browser tool over o.
func New(o Options) *Browser {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return &Browser{o: o}
}

// Handle is the browser tool handler.
func (b *Browser) Handle(ctx context.Context, call transport.ToolCall) transport.ToolResult {
	action, u, msg := parseArgs(call.Arguments)
	if msg != "" {
		return transport.ToolResult{Text: msg}
	}
	b.status(call.TurnID, Running)
	res, err := b.run(ctx, action, u)
	switch {
	case ctx.Err() != nil:
		b.status(call.TurnID, Failed)
		return transport.ToolResult{Text: toolcall.ErrTurnStopped}
	case err != nil:
		b.status(call.TurnID, Failed)
		b.o.Log.Warn("browser: page failed", "url", u, "err", err.Error())
		return transport.ToolResult{Text: "error: the page could not be opened: " + clientctx.Cut(err.Error(), 200)}
	}
	b.status(call.TurnID, Done)
	return res
}

func (b *Browser) status(turnID, state string) {
	if b.o.Status != nil {
		b.o.Status(turnID, state)
	}
}

// parseArgs reads action and url; only http and https URLs.
func parseArgs(raw json.RawMessage) (action, u, msg string) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return "", "", toolcall.InvalidField("arguments")
	}
	for k := range fields {
		if k != "action" && k != "url" {
			return "", "", toolcall.InvalidField(k)
		}
	}
	for _, f := range []struct {
		name string
		dst  *string
	}{{"action", &action}, {"url", &u}} {
		v, ok := fields[f.name]
		if !ok {
			return "", "", toolcall.MissingField(f.name)
		}
		if json.Unmarshal(v, f.dst) != nil {
			return "", "", toolcall.InvalidField(f.name)
		}
	}
	if action != "read" && action != "screenshot" {
		return "", "", toolcall.InvalidField("action")
	}
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return "", "", toolcall.InvalidField("url")
	}
	return action, u, ""
}

// run opens u in a fresh headless browser (its own temporary profile,
// removed when it ends) and does action.
func (b *Browser) run(ctx context.Context, action, u string) (transport.ToolResult, error) {
	if b.o.ExecPath == "" {
		return transport.ToolResult{}, errors.New("no browser found")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(b.o.ExecPath),
		chromedp.WindowSize(1280, 800),
	)
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox) // Chromium refuses to start as root otherwise
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	bctx, cancel := chromedp.NewContext(actx)
	defer cancel()

	if err := chromedp.Do(bctx, chromedp.Navigate(u)); err != nil {
		return transport.ToolResult{}, err
	}
	title, err := chromedp.Run(bctx, chromedp.Title())
	if err != nil {
		return transport.ToolResult{}, err
	}
	var text string
	var shot []byte
	if action == "read" {
		text, err = chromedp.Run(bctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ""`))
	} else {
		shot, err = chromedp.Run(bctx, chromedp.CaptureScreenshot())
	}
	if err != nil {
		return transport.ToolResult{}, err
	}
	if action == "screenshot" {
		return transport.ToolResult{Text: fmt.Sprintf("title: %s", title), Images: []transport.Image{{MIME: "image/png", Data: shot}}}, nil
	}
	return transport.ToolResult{Text: fitText("title: "+title+"\n\n"+strings.TrimSpace(text), maxText)}, nil
}

// fitText cuts s so that it takes at most max bytes as a JSON string.
func fitText(s string, max int) string {
	n := len([]rune(s))
	for {
		b, _ := json.Marshal(s)
		if len(b) <= max || n == 0 {
			return s
		}
		n = n * max / len(b) * 9 / 10
		s = clientctx.Cut(s, n)
	}
}
