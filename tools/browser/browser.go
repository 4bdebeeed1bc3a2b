// Package browser is the browser client tool (docs/protocol/client-tools.md): it opens a
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
	"net/netip"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"yui/transport"
	"yui/transport/textcut"
	"yui/transport/toolcall"
)

// Tool constants of docs/protocol/client-tools.md; the wait is docs/protocol/push-transport.md's browser wait.
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

// Status states the tool shows for its own runs (docs/protocol/push-transport.md: the
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
	// AllowLocal, when set and true at a call, lets the browser open pages
	// on this computer and the local network (the settings switch); by
	// default every such request is refused.
	AllowLocal func() bool
	// Resolve, when set, resolves host names in place of the system's
	// resolver (tests map a name to loopback with it).
	Resolve func(ctx context.Context, host string) ([]netip.Addr, error)
	Log     *slog.Logger // nil discards
}

// Browser answers browser calls.
type Browser struct {
	o Options
	// isLocal replaces the local-address rule in tests, which need a
	// "public" address on this machine (127.0.0.2) to redirect from.
	isLocal func(netip.Addr) bool
}

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
	case errors.Is(err, errPageLocal):
		b.status(call.TurnID, Failed)
		b.o.Log.Warn("browser: page refused", "url", u)
		return transport.ToolResult{Text: ErrLocalPage}
	case err != nil:
		b.status(call.TurnID, Failed)
		b.o.Log.Warn("browser: page failed", "url", u, "err", err.Error())
		return transport.ToolResult{Text: "error: the page could not be opened: " + textcut.Cut(err.Error(), 200)}
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
	if err != nil || !webScheme(p.Scheme) || p.Host == "" {
		return "", "", toolcall.InvalidField("url")
	}
	// The browser gets the URL as Go read it, so that it cannot see
	// another scheme in the text than the one checked here.
	return action, p.String(), ""
}

// webScheme reports whether scheme is http or https (url.Parse lowers it).
func webScheme(scheme string) bool { return scheme == "http" || scheme == "https" }

// checkPage refuses a page the browser ended on that is not http(s): the
// tool's answer only ever carries a web page. Chromium already refuses a
// redirect from the web to file:, data: and its own schemes
// (net::ERR_UNSAFE_REDIRECT) and a page's navigation to them; this is the
// client's own check, on the document the answer is read from.
func checkPage(loc string) error {
	p, err := url.Parse(loc)
	if err != nil || !webScheme(p.Scheme) {
		return fmt.Errorf("the page left http(s) for %q", textcut.Cut(loc, 80))
	}
	return nil
}

// pageJS reads the document's address, title and visible text in one
// evaluation, so that the text read is the text of the address checked.
const pageJS = `({url: document.location.href, title: document.title, text: document.body ? document.body.innerText : ""})`

type page struct {
	URL   string `json:"url"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

// run opens u in a fresh headless browser (its own temporary profile,
// removed when it ends) and does action.
func (b *Browser) run(ctx context.Context, action, u string) (transport.ToolResult, error) {
	if b.o.ExecPath == "" {
		return transport.ToolResult{}, errors.New("no browser found")
	}
	g, err := startGuard(b.o.AllowLocal != nil && b.o.AllowLocal(), b.isLocal, b.o.Resolve, b.o.Log)
	if err != nil {
		return transport.ToolResult{}, err
	}
	defer g.close()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(b.o.ExecPath),
		chromedp.WindowSize(1280, 800),
	)
	opts = append(opts, guardFlags(g.addr())...)
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox) // Chromium refuses to start as root otherwise
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	bctx, cancel := chromedp.NewContext(actx)
	defer cancel()

	// A page cannot save files: downloads are refused (headless Chromium
	// refuses them by default; this does not depend on it).
	if _, err := chromedp.CallBrowser(bctx, cdpbrowser.SetDownloadBehavior,
		cdpbrowser.SetDownloadBehaviorParams{Behavior: cdpbrowser.SetDownloadBehaviorBehaviorDeny}); err != nil {
		return transport.ToolResult{}, err
	}
	if err := chromedp.Do(bctx, chromedp.Navigate(u)); err != nil {
		if g.refusedAny() { // a failed navigation loads no page: the refusal was its own
			return transport.ToolResult{}, errPageLocal
		}
		return transport.ToolResult{}, err
	}
	pg, err := chromedp.Run(bctx, chromedp.Evaluate[page](pageJS))
	if err != nil {
		return transport.ToolResult{}, err
	}
	if err := g.checkPage(pg.URL); err != nil {
		return transport.ToolResult{}, err
	}
	if action == "read" {
		return transport.ToolResult{Text: fitText("title: "+pg.Title+"\n\n"+strings.TrimSpace(pg.Text), maxText)}, nil
	}
	shot, err := chromedp.Run(bctx, chromedp.CaptureScreenshot())
	if err != nil {
		return transport.ToolResult{}, err
	}
	// The page may have moved on while the screenshot was taken.
	loc, err := chromedp.Run(bctx, chromedp.Location())
	if err != nil {
		return transport.ToolResult{}, err
	}
	if err := g.checkPage(loc); err != nil {
		return transport.ToolResult{}, err
	}
	return transport.ToolResult{Text: fmt.Sprintf("title: %s", pg.Title), Images: []transport.Image{{MIME: "image/png", Data: shot}}}, nil
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
		s = textcut.Cut(s, n)
	}
}
