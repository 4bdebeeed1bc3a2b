package app

import (
	"context"
	"errors"
	"image"
	"log/slog"
	"time"

	"yui/pet/settings"
	"yui/tools/body"
	"yui/tools/browser"
	"yui/tools/desktop"
	"yui/tools/look"
	"yui/tools/relation"
	"yui/tools/toolset"
	"yui/transport"
	"yui/windows/petwindow"
)

// The client tools (docs/protocol/client-tools.md): the process opens the desktop layer
// once; each pet window gets a body Actor over its window and a look tool
// (main declares them), and each connection a toolset, closed after its
// transport. Close order: transport, toolset, actor, desktop.

// openDesktop opens the desktop layer, or returns nil (logged once): main
// then declares neither look nor body_action.
func openDesktop(log *slog.Logger) desktop.Desktop {
	d, err := desktop.Open(log.With("component", "desktop"))
	if err != nil {
		log.Warn("desktop_unavailable", "err", err.Error(), "msg", "look and body_action are not declared")
		return nil
	}
	return d
}

// findBrowser looks for a Chromium-family browser once per process, for
// the browser tool.
func findBrowser(log *slog.Logger) string {
	p, ok := browser.Find()
	if !ok {
		log.Info("browser_not_found", "msg", "the browser tool is not declared")
		return ""
	}
	log.Info("browser_found", "path", p)
	return p
}

// petBody is the pet window as the body tool's Body.
type petBody struct{ win *petwindow.PetWindow }

func (b petBody) State() body.State {
	st := b.win.BodyState()
	return body.State{Rect: st.Rect, Visible: st.Visible, Emotion: st.Emotion, Motion: st.Motion}
}

func (b petBody) MoveTo(to image.Point, d time.Duration, m body.Motion) {
	b.win.MoveBody(to, d, string(m))
}

func (b petBody) Play(m body.Motion) { b.win.PlayBody(string(m)) }

func (b petBody) SetVisible(v bool) { b.win.SetBodyVisible(v) }

// startBody gives the session its Actor and look tool when the desktop
// layer is there.
func (s *session) startBody() {
	d := s.y.desk
	if d == nil {
		return
	}
	s.actor = body.New(body.Options{Desktop: d, Body: petBody{s.win}, PID: s.y.pid, Log: s.log.With("tool", body.Name), WalkSpeed: s.win.WalkSpeed})
	// The session's way of screen looks (desktop_session.go): the portal
	// on Wayland, where the active window may be unknown.
	var capture look.Capturer = look.Screen{}
	var unknown func() bool
	if sc := s.y.screen; sc != nil {
		capture, unknown = sc, func() bool { return !sc.PrivateRule() }
	}
	s.look = look.New(look.Options{Actor: s.actor, Desktop: d, Capture: capture, Permission: screenPermission{s}, Log: s.log.With("tool", look.Name), Private: s.private, PID: s.y.pid,
		ActiveUnknown: unknown})
}

// isMain reports whether the session is main: the active preset's.
func (s *session) isMain() bool { return s.cfg().ID == s.y.activeID() }

// newToolset is the declared tools of a new connection.
func (s *session) newToolset() *toolset.Set {
	p := s.cfg()
	addr := s.y.addressTool(p)
	h := toolset.Handlers{
		Relation: relation.New(s.scores, func(c relation.Change) {
			s.log.Info("relation_change", "score", c.Score, "delta", c.Delta)
		}).Handler,
		Address: addr.Handler,
	}
	main := s.isMain() && s.actor != nil
	if main {
		h.Body, h.Look = s.actor, s.look
	}
	if s.y.browserPath != "" {
		h.Browser = browser.New(browser.Options{
			ExecPath: s.y.browserPath,
			// Read at each call: the switch needs no reconnect.
			AllowLocal: func() bool { return s.y.store.Get().BrowserLocal },
			Status: func(turnID, state string) {
				if c := s.ctl(); c != nil {
					c.ToolStatus(turnID, browser.Name, state)
				}
			},
			Log: s.log.With("tool", browser.Name),
		})
	}
	if s.remembers() { // facts.go
		h.Memory.Remember, h.Memory.Forget = s.factTools()
		h.Memory.Remind, h.Memory.Cancel = s.reminderTools() // life.go
	}
	set, err := toolset.New(h, toolset.Options{Main: main, Others: s.y.otherNames(p), Memory: s.remembers(), Reminders: s.remembers(),
		BrowserOn: s.y.store.Get().BrowserTool, BrowserFound: s.y.browserPath != ""})
	if err != nil { // every declared tool has its handler: not reached
		s.log.Error("toolset", "err", err.Error())
		set, _ = toolset.New(h, toolset.Options{Others: s.y.otherNames(p)})
	}
	return set
}

// screenPermission is the screen-look permission: the global setting,
// asked by the pet's prompt, whose answer is saved (kept for the run under
// --demo, which saves nothing).
type screenPermission struct{ s *session }

func (p screenPermission) ScreenLook() look.Answer {
	switch p.s.y.screenLook() {
	case settings.ScreenLookAllowed:
		return look.Allowed
	case settings.ScreenLookRefused:
		return look.Refused
	}
	return look.Unanswered
}

func (p screenPermission) AskScreenLook() {
	p.s.win.AskScreenLook(func(allowed bool) {
		v := settings.ScreenLookRefused
		if allowed {
			v = settings.ScreenLookAllowed
		}
		p.s.y.setScreenLook(v)
	})
}

// screenLook is the screen-look permission now.
func (y *yui) screenLook() string {
	return y.source().screenLook()
}

// setScreenLook saves the user's answer.
func (y *yui) setScreenLook(v string) {
	y.log.Info("screen_look", "value", v)
	if err := y.source().setScreenLook(v); err != nil {
		y.log.Warn("settings_save", "err", err.Error())
	}
	// A saved answer also comes back through apply; one kept for the run
	// (the demo's) does not.
	y.updateWatching()
}

// updateWatching shows each pet's watching sign while it can see the
// screen: look at the screen allowed, which screenshots with turns need
// too. Any goroutine.
func (y *yui) updateWatching() {
	allowed := y.screenLook() == settings.ScreenLookAllowed
	for _, s := range y.roster.all() {
		s.win.SetWatching(allowed && s.look != nil)
	}
}

// screenshot is the screenshot a user turn carries (screen_on_turn):
// always, or with the composer's toggle on for a typed turn; only while
// screen look is allowed, and only on a pet with a look tool.
func (s *session) screenshot(trigger transport.Trigger) *transport.Screenshot {
	if s.look == nil || s.y.screenLook() != settings.ScreenLookAllowed {
		return nil
	}
	switch s.cfg().ScreenOnTurn {
	case "always":
	case "toggle":
		if trigger != transport.TriggerUserMessage || !s.win.IncludeScreen() {
			return nil
		}
	default:
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	shot, err := s.look.Screenshot(ctx, -1)
	if errors.Is(err, look.ErrPrivate) {
		// No screenshot, so no "screenshot source:" line either.
		s.log.Info("screenshot_skipped", "reason", "private")
		return nil
	}
	if err != nil {
		s.log.Warn("screenshot_failed", "err", err.Error())
		return nil
	}
	return &shot
}
