// Package look is the look client tool (docs/protocol/client-tools.md): the pet's body
// state, the places it can perch, and, with the user's permission, a
// screenshot of a display.
package look

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"log/slog"
	"time"

	"yui/tools/body"
	"yui/tools/desktop"
	"yui/transport"
	"yui/transport/clientctx"
	"yui/transport/toolcall"
)

// Tool constants of docs/protocol/client-tools.md; the wait is docs/protocol/push-transport.md's query wait.
const (
	Name        = "look"
	Description = "Read body state, perch targets, or a display screenshot; screen requests require user permission"
	Wait        = 2 * time.Second
)

// Parameters is the tool's JSON schema, exactly as docs/protocol/client-tools.md gives it.
const Parameters = `{ "type": "object",
    "properties": { "at": { "type": "string", "enum": ["body", "perch_targets", "screen"] },
                    "monitor": { "type": "integer", "description": "For screen: the display number used by body_action.monitor; omit for the character's display" } },
    "required": ["at"], "additionalProperties": false }`

// Results of the screen permission flow.
const (
	ErrWaitingPermission = "error: waiting for the user's permission; ask again after they answer"
	ErrNotAllowed        = "error: the user has not allowed screen access"
)

// Answer is the user's answer to the screen-look permission.
type Answer int

const (
	// Unanswered: never granted nor refused yet.
	Unanswered Answer = iota
	// Allowed: the user allowed screen access.
	Allowed
	// Refused: the user refused, or switched screen access off in settings.
	Refused
)

// Permission is the screen-look permission, a global setting (docs/product.md
// §2) the app implements with its settings store and prompt.
type Permission interface {
	// ScreenLook returns the user's current answer.
	ScreenLook() Answer
	// AskScreenLook shows the pet's non-blocking Allow / Not now prompt
	// and returns at once. The look tool calls it for each screen call
	// while the answer is Unanswered; a prompt already showing stays as it
	// is. The answer is stored by the app: Allow gives Allowed, Not now
	// Refused.
	AskScreenLook()
}

// Capturer takes screenshots.
type Capturer interface {
	// Capture returns the pixels of r, in desktop coordinates. It may take
	// a good part of a second on a large display and is never called under
	// a lock.
	Capture(r image.Rectangle) (*image.RGBA, error)
}

// Options are what the look tool needs; all are required.
type Options struct {
	Actor      *body.Actor
	Desktop    desktop.Desktop
	Capture    Capturer
	Permission Permission
	Log        *slog.Logger // nil discards
	// Private reports whether a window title holds a word of the
	// preset's private_titles (docs/product.md §11): while the active
	// window's does, no screenshot is taken. Nil is never.
	Private func(title string) bool
	// PID is this process's: while one of its own windows is active (the
	// pet's composer has the focus), the private check reads the window
	// the user was in, the topmost of another process. 0 skips that.
	PID int
	// ActiveUnknown reports whether the active window cannot be known now
	// (a Wayland compositor that tells Yui nothing,
	// tools/desktop/xdg_session.go): the private-window rule cannot be
	// applied, so every screenshot, a turn's too, needs the user's
	// screen-look permission, and each is logged. Nil is never.
	ActiveUnknown func() bool
}

// ErrPrivate is the error of a screenshot refused while a private
// window is active; look at screen answers ErrPrivateWindow.
var ErrPrivate = errors.New("look: a private window is on the screen")

// ErrUnknownActive is a turn's screenshot refused where the active window
// cannot be known and the user has not allowed screen looks.
var ErrUnknownActive = errors.New("look: the active window cannot be known and screen looks are not allowed")

// ErrPrivateWindow is look at screen's answer while a private window is
// active (docs/protocol/client-tools.md).
const ErrPrivateWindow = "error: a private window is on the screen"

// Look answers look calls.
type Look struct {
	o Options
}

// New returns the look tool over o.
func New(o Options) *Look {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return &Look{o: o}
}

// Tool returns the look tool.
func (l *Look) Tool() transport.Tool {
	return transport.Tool{Name: Name, Description: Description, Parameters: json.RawMessage(Parameters), Wait: Wait, Handler: l.Handle}
}

// Handle is the look tool handler.
func (l *Look) Handle(ctx context.Context, call transport.ToolCall) transport.ToolResult {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(call.Arguments, &fields); err != nil || fields == nil {
		return text(toolcall.InvalidField("arguments"))
	}
	for k := range fields {
		if k != "at" && k != "monitor" {
			return text(toolcall.InvalidField(k))
		}
	}
	raw, ok := fields["at"]
	if !ok {
		return text(toolcall.MissingField("at"))
	}
	var at string
	if json.Unmarshal(raw, &at) != nil {
		return text(toolcall.InvalidField("at"))
	}
	monitor := -1
	if raw, ok := fields["monitor"]; ok {
		var m int32
		if json.Unmarshal(raw, &m) != nil || m < 0 {
			return text(toolcall.InvalidField("monitor"))
		}
		monitor = int(m)
	}
	switch at {
	case "body":
		return text(l.body())
	case "perch_targets":
		return text(l.targets())
	case "screen":
		return l.screen(ctx, monitor)
	}
	return text(toolcall.InvalidField("at"))
}

func text(s string) transport.ToolResult { return transport.ToolResult{Text: s} }

// compact returns v as compact JSON with <, > and & left as they are.
func compact(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "error: " + err.Error()
	}
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

// bodyJSON is look body's answer, fields in docs/protocol/client-tools.md's order.
type bodyJSON struct {
	Monitor int             `json:"monitor"`
	X       int             `json:"x"`
	Y       int             `json:"y"`
	Width   int             `json:"width"`
	Height  int             `json:"height"`
	Perch   *body.PerchInfo `json:"perch"`
	Emotion string          `json:"emotion_id"`
	Motion  string          `json:"motion_id"`
	Visible bool            `json:"visible"`
}

const errDesktop = "error: the desktop cannot be read"

func (l *Look) body() string {
	ms, err := l.o.Actor.Monitors()
	if err != nil || len(ms) == 0 {
		return errDesktop
	}
	st := l.o.Actor.State()
	r := st.Rect
	i := desktop.MonitorAt(ms, image.Pt((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2))
	o := ms[i].Bounds.Min
	b := bodyJSON{Monitor: i, X: r.Min.X - o.X, Y: r.Min.Y - o.Y, Width: r.Dx(), Height: r.Dy(),
		Emotion: st.Emotion, Motion: st.Motion, Visible: st.Visible}
	if p, ok := l.o.Actor.Perch(); ok {
		b.Perch = &p
	}
	return compact(b)
}

func (l *Look) targets() string {
	ts, err := l.o.Actor.Targets()
	if err != nil {
		l.o.Log.Warn("look: perch targets", "err", err.Error())
		return errDesktop
	}
	return compact(struct {
		Targets []body.Target `json:"targets"`
	}{ts})
}

// JPEGQuality is the quality a capture is first encoded at; the transport's
// JPEG fitter then fits it to the frame budget.
const JPEGQuality = 90

func (l *Look) screen(ctx context.Context, monitor int) transport.ToolResult {
	ms, err := l.o.Desktop.Monitors()
	if err != nil || len(ms) == 0 {
		return text(errDesktop)
	}
	if monitor >= len(ms) {
		return text(toolcall.InvalidField("monitor"))
	}
	if monitor < 0 {
		r := l.o.Actor.State().Rect
		monitor = max(desktop.MonitorAt(ms, image.Pt((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2)), 0)
	}
	switch l.o.Permission.ScreenLook() {
	case Allowed:
	case Unanswered:
		l.o.Permission.AskScreenLook()
		return text(ErrWaitingPermission)
	default:
		return text(ErrNotAllowed)
	}
	shot, err := l.shoot(ctx, ms, monitor)
	if err != nil {
		if errors.Is(err, ErrPrivate) {
			l.o.Log.Info("look: screen refused", "reason", "private")
			return text(ErrPrivateWindow)
		}
		if ctx.Err() != nil {
			return text(toolcall.ErrTurnStopped)
		}
		l.o.Log.Warn("look: screen capture", "monitor", monitor, "err", err.Error())
		if errors.Is(err, ErrNoWay) {
			return text(ErrCannotCapture)
		}
		return text("error: the screen could not be captured")
	}
	s := fmt.Sprintf("screenshot of display %d (%dx%d)", monitor, shot.Width, shot.Height)
	if shot.ActiveWindow != "" {
		s += ", active window " + clientctx.Quote(shot.ActiveWindow, clientctx.MaxQuoted)
	}
	return transport.ToolResult{Text: s, Images: []transport.Image{shot.Image}}
}

// shoot captures monitor i as a JPEG, with the active window's title.
func (l *Look) shoot(ctx context.Context, ms []desktop.Monitor, i int) (transport.Screenshot, error) {
	// The active window is read before the capture: a private one stops it.
	title := ""
	w, ok, err := l.o.Desktop.Active()
	if err == nil && ok {
		title = w.Title
	}
	if l.o.Private != nil && (l.o.Private(title) || l.o.Private(l.beneath(w, ok && err == nil))) {
		return transport.Screenshot{}, ErrPrivate
	}
	if l.o.ActiveUnknown != nil && l.o.ActiveUnknown() {
		if l.o.Permission.ScreenLook() != Allowed {
			return transport.Screenshot{}, ErrUnknownActive
		}
		l.o.Log.Warn("private_rule_not_applied", "reason", "the active window cannot be known on this desktop")
	}
	var img *image.RGBA
	if c, ok := l.o.Capture.(contextCapturer); ok {
		img, err = c.CaptureContext(ctx, ms[i].Bounds)
	} else {
		img, err = l.o.Capture.Capture(ms[i].Bounds)
	}
	if err != nil {
		return transport.Screenshot{}, err
	}
	if err := ctx.Err(); err != nil {
		return transport.Screenshot{}, err
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: JPEGQuality}); err != nil {
		return transport.Screenshot{}, fmt.Errorf("encode: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return transport.Screenshot{}, err
	}
	shot := transport.Screenshot{
		Image:        transport.Image{MIME: "image/jpeg", Data: b.Bytes()},
		Display:      i + 1,
		Displays:     len(ms),
		Width:        img.Bounds().Dx(),
		Height:       img.Bounds().Dy(),
		ActiveWindow: title,
	}
	return shot, nil
}

// beneath is the title of the window the user was in while one of this
// process's own windows is active: the topmost visible normal window of
// another process; "" otherwise.
func (l *Look) beneath(active desktop.Window, ok bool) string {
	if l.o.PID == 0 || !ok || active.PID != l.o.PID {
		return ""
	}
	ws, err := l.o.Desktop.Windows()
	if err != nil {
		return ""
	}
	for _, w := range ws {
		if w.PID != l.o.PID && w.Normal && w.Visible() {
			return w.Title
		}
	}
	return ""
}

// Screenshot captures the character's display (monitor < 0) or monitor
// for a turn's screenshot (screen_on_turn), with the 1-based display
// number of the client_context `screenshot source:` line. It does not ask
// for the screen-look permission: the user's include-screen choice is the
// permission for a turn.
func (l *Look) Screenshot(ctx context.Context, monitor int) (transport.Screenshot, error) {
	ms, err := l.o.Desktop.Monitors()
	if err != nil {
		return transport.Screenshot{}, fmt.Errorf("screenshot: %w", err)
	}
	if len(ms) == 0 || monitor >= len(ms) {
		return transport.Screenshot{}, fmt.Errorf("screenshot: no display %d", monitor)
	}
	if monitor < 0 {
		r := l.o.Actor.State().Rect
		monitor = max(desktop.MonitorAt(ms, image.Pt((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2)), 0)
	}
	shot, err := l.shoot(ctx, ms, monitor)
	if err != nil {
		return transport.Screenshot{}, fmt.Errorf("screenshot of display %d: %w", monitor, err)
	}
	return shot, nil
}
