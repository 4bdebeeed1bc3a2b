package look

import (
	"context"
	"errors"
	"fmt"
	"image"
	"log/slog"
	"sync"

	"yui/tools/desktop"
)

// Way names how screen looks are taken in this session.
type Way string

// The ways.
const (
	// WayDisplay: the display server's own pixels (X11, Windows), through
	// Screen.
	WayDisplay Way = "display"
	// WayPortal: the XDG desktop portal's Screenshot (Wayland).
	WayPortal Way = "portal"
)

// ErrBlack is a capture that came back all black on Wayland: a picture of
// nothing (an XWayland capture, a compositor that hides its windows) is
// never sent to a model.
var ErrBlack = errors.New("the capture is all black")

// ErrNoWay is a screen look where no way works: look at screen answers
// ErrCannotCapture.
var ErrNoWay = errors.New("the screen cannot be captured on this desktop")

// ErrCannotCapture is look at screen's answer where no way of capturing
// works (a Wayland session without a screenshot portal).
const ErrCannotCapture = "error: the screen cannot be captured on this desktop"

// ScreenStatus is what the App tab says about screen looks.
type ScreenStatus struct {
	Way Way
	// Problem is the last capture's failure, "" after a capture that
	// worked or before the first.
	Problem string
	// PrivateRule is false while the active window cannot be known (a
	// Wayland session whose desktop layer reads XWayland alone): the
	// private-window rule cannot be applied there.
	PrivateRule bool
}

// contextCapturer is a Capturer that waits no longer than ctx (the
// portal, which waits for the desktop's answer).
type contextCapturer interface {
	CaptureContext(ctx context.Context, r image.Rectangle) (*image.RGBA, error)
}

// SessionScreen is the Capturer the session calls for: Screen on X11 and
// Windows, the portal on Wayland, where an all-black picture is refused.
// It keeps the last failure for the App tab. Safe for concurrent use.
type SessionScreen struct {
	way     Way
	capture Capturer
	private func() bool // the private-window rule can be applied now
	log     *slog.Logger

	mu      sync.Mutex
	problem string
}

// SessionOptions are what OpenSessionScreen needs.
type SessionOptions struct {
	Session desktop.Session
	// Desktop is the desktop layer (nil: none); on Wayland it gives the
	// portal's picture its desktop coordinates and says whether the
	// private-window rule can be applied.
	Desktop desktop.Desktop
	// Bus is the session bus's address for the portal; "" is the
	// environment's.
	Bus string
	Log *slog.Logger // nil discards
}

// OpenSessionScreen chooses the way of screen looks from the session.
func OpenSessionScreen(o SessionOptions) *SessionScreen {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	s := &SessionScreen{way: WayDisplay, capture: Screen{}, private: func() bool { return true }, log: o.Log}
	if o.Session.Wayland {
		s.way = WayPortal
		s.capture = newPortal(o.Bus, o.Desktop)
		s.private = func() bool { return o.Desktop != nil && desktop.KnowsActive(o.Desktop, o.Session) }
	}
	// The rule's state at start; on GNOME it comes once Yui's extension
	// runs, and each screenshot taken without it is logged (look.go).
	o.Log.Info("screen_look_way", "session", o.Session.String(), "way", string(s.way), "private_rule", s.private())
	return s
}

// Capture implements Capturer.
func (s *SessionScreen) Capture(r image.Rectangle) (*image.RGBA, error) {
	return s.CaptureContext(context.Background(), r)
}

// CaptureContext is Capture bounded by ctx where the way waits.
func (s *SessionScreen) CaptureContext(ctx context.Context, r image.Rectangle) (*image.RGBA, error) {
	var img *image.RGBA
	var err error
	if c, ok := s.capture.(contextCapturer); ok {
		img, err = c.CaptureContext(ctx, r)
	} else {
		img, err = s.capture.Capture(r)
	}
	if err == nil && s.way == WayPortal && allBlack(img) {
		err = fmt.Errorf("capture %v: %w", r, ErrBlack)
	}
	if errors.Is(err, ErrNoPortal) {
		err = fmt.Errorf("%w: %w", ErrNoWay, err)
	}
	s.mu.Lock()
	if err != nil {
		s.problem = err.Error()
	} else {
		s.problem = ""
	}
	s.mu.Unlock()
	return img, err
}

// Status is what the App tab shows. Any goroutine.
func (s *SessionScreen) Status() ScreenStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	return ScreenStatus{Way: s.way, Problem: s.problem, PrivateRule: s.private()}
}

// PrivateRule reports whether the private-window rule can be applied
// now. Any goroutine.
func (s *SessionScreen) PrivateRule() bool { return s.private() }

// allBlack reports a picture whose every pixel is black (nil too).
func allBlack(img *image.RGBA) bool {
	if img == nil {
		return true
	}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := img.Pix[img.PixOffset(b.Min.X, y):img.PixOffset(b.Max.X, y)]
		for i := 0; i+3 < len(row); i += 4 {
			if row[i]|row[i+1]|row[i+2] != 0 {
				return false
			}
		}
	}
	return true
}

// desktopBounds is the monitors' union of d, the rectangle the portal's
// picture covers.
func desktopBounds(d desktop.Desktop) func() (image.Rectangle, error) {
	if d == nil {
		return nil
	}
	return func() (image.Rectangle, error) {
		ms, err := d.Monitors()
		if err != nil {
			return image.Rectangle{}, err
		}
		var u image.Rectangle
		for _, m := range ms {
			u = u.Union(m.Bounds)
		}
		return u, nil
	}
}
