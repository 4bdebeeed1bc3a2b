//go:build (linux || freebsd || openbsd || netbsd) && !android && !wayland && !wasm

package native

import (
	"fmt"
	"image"
	"log/slog"
	"sync"
	"time"

	"yui/tools/xconn"

	"fyne.io/fyne/v2/driver"
	"github.com/jezek/xgb"
	"github.com/jezek/xgb/randr"
	"github.com/jezek/xgb/shape"
	"github.com/jezek/xgb/xproto"
)

// x11Window shapes and moves a pet window through the process's pure-Go X
// connection (tools/xconn, shared with the desktop layer and the
// other pets), next to the one GLFW holds: window ids are global on an X
// server, so the SHAPE extension and ConfigureWindow requests work from
// any connection.
type x11Window struct {
	log   *slog.Logger
	xc    *xconn.Conn // the shared connection; nil until Attach when none was given
	own   bool        // Close closes xc (Attach opened it)
	conn  *xgb.Conn
	root  xproto.Window
	win   xproto.Window
	shape bool // SHAPE extension present

	unsubscribe func() // ends the event delivery from xc
	once        sync.Once

	// The shape is sent by its own goroutine (shapeLoop): each xgb
	// request hands off between xgb's goroutines, and the Fyne main
	// goroutine, locked to its thread, would park and wake its thread
	// for each one, several times per animation frame.
	shapeMu      sync.Mutex
	shapeBound   []xproto.Rectangle
	shapeInput   []xproto.Rectangle
	shapeHasIn   bool
	shapeWake    chan struct{}
	shapeStop    chan struct{}
	shapeStopped chan struct{}

	mu         sync.Mutex // guards hotkey, onHotkey and onHotkeyUp, read by drain
	hotkey     xproto.Keycode
	onHotkey   func()
	onHotkeyUp func()
	onScreen   func()
}

// New returns the X11 shim on the process's X connection xc; nil opens
// one of its own at Attach.
func New(log *slog.Logger, xc *xconn.Conn) Window { return &x11Window{log: log, xc: xc} }

func (x *x11Window) Attach(ctx any) error {
	xc, ok := ctx.(driver.X11WindowContext)
	if !ok || xc.WindowHandle == 0 {
		return fmt.Errorf("x11: no X11 window handle (context %T): %w", ctx, ErrUnsupported)
	}
	if x.conn == nil {
		if x.xc == nil { // no shared connection was given: one of its own
			xc, err := xconn.Open(x.log)
			if err != nil {
				return err
			}
			x.xc, x.own = xc, true
		}
		x.conn = x.xc.X()
		x.root = x.xc.Root()
		x.shape = shape.Init(x.conn) == nil
		x.unsubscribe = x.xc.Subscribe(x.event)
		x.shapeWake = make(chan struct{}, 1)
		x.shapeStop = make(chan struct{})
		x.shapeStopped = make(chan struct{})
		go x.shapeLoop()
	}
	x.win = xproto.Window(xc.WindowHandle)
	x.keepAbove()
	if !x.shape {
		return fmt.Errorf("x11: SHAPE extension missing: %w", ErrUnsupported)
	}
	return nil
}

// event handles the connection's events this window asked for: a
// monitor change and the grabbed shortcut (on the connection's event loop).
func (x *x11Window) event(ev xgb.Event) {
	if _, ok := ev.(randr.ScreenChangeNotifyEvent); ok {
		x.mu.Lock()
		f := x.onScreen
		x.mu.Unlock()
		if f != nil {
			f()
		}
	}
	if kp, ok := ev.(xproto.KeyPressEvent); ok {
		x.mu.Lock()
		f, key := x.onHotkey, x.hotkey
		x.mu.Unlock()
		if f != nil && kp.Detail == key {
			f()
		}
	}
	// The grab holds the keyboard until the key is released, so its
	// release comes here whatever the modifiers do.
	if kr, ok := ev.(xproto.KeyReleaseEvent); ok {
		x.mu.Lock()
		f, key := x.onHotkeyUp, x.hotkey
		x.mu.Unlock()
		if f != nil && kr.Detail == key {
			f()
		}
	}
}

func (x *x11Window) WatchMonitors(onChange func()) error {
	if x.conn == nil || !x.xc.RandR() {
		return ErrUnsupported
	}
	x.mu.Lock()
	x.onScreen = onChange
	x.mu.Unlock()
	if err := randr.SelectInputChecked(x.conn, x.root, randr.NotifyMaskScreenChange).Check(); err != nil {
		return fmt.Errorf("x11: watching monitors: %w", err)
	}
	return nil
}

// keysymY is the X keysym of the shortcut's key.
const keysymY = 0x79

func (x *x11Window) GrabShortcut(onPress func()) error {
	if x.conn == nil {
		return ErrUnsupported
	}
	setup := xproto.Setup(x.conn)
	first, count := setup.MinKeycode, byte(setup.MaxKeycode-setup.MinKeycode+1)
	km, err := xproto.GetKeyboardMapping(x.conn, first, count).Reply()
	if err != nil {
		return fmt.Errorf("x11: keyboard mapping: %w", err)
	}
	var key xproto.Keycode
	per := int(km.KeysymsPerKeycode)
	for i := 0; per > 0 && i*per < len(km.Keysyms); i++ {
		if km.Keysyms[i*per] == keysymY {
			key = first + xproto.Keycode(i)
			break
		}
	}
	if key == 0 {
		return fmt.Errorf("x11: no keycode for Y: %w", ErrUnsupported)
	}
	base := uint16(xproto.ModMaskControl | xproto.ModMask1)
	// The grab must not depend on Caps Lock (Lock) or Num Lock (Mod2).
	for _, extra := range []uint16{0, xproto.ModMaskLock, xproto.ModMask2, xproto.ModMaskLock | xproto.ModMask2} {
		err := xproto.GrabKeyChecked(x.conn, true, x.root, base|extra, key, xproto.GrabModeAsync, xproto.GrabModeAsync).Check()
		if err != nil {
			return fmt.Errorf("x11: grabbing Ctrl+Alt+Y: %w", err)
		}
	}
	x.mu.Lock()
	x.hotkey, x.onHotkey = key, onPress
	x.mu.Unlock()
	return nil
}

func (x *x11Window) OnShortcutRelease(f func()) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.onHotkeyUp = f
}

func (x *x11Window) atom(name string) xproto.Atom { return x.xc.Atom(name) }

// keepAbove asks for "above others, not in the task bar or pager": the
// _NET_WM_STATE property (read by a window manager when it maps the
// window) and the EWMH client message (for a window already mapped). With
// no window manager running both are harmless no-ops.
func (x *x11Window) keepAbove() {
	state := x.atom("_NET_WM_STATE")
	atoms := []xproto.Atom{
		x.atom("_NET_WM_STATE_ABOVE"),
		x.atom("_NET_WM_STATE_SKIP_TASKBAR"),
		x.atom("_NET_WM_STATE_SKIP_PAGER"),
	}
	data := make([]byte, 4*len(atoms))
	for i, a := range atoms {
		xgb.Put32(data[4*i:], uint32(a))
	}
	xproto.ChangeProperty(x.conn, xproto.PropModeReplace, x.win, state, xproto.AtomAtom, 32, uint32(len(atoms)), data)
	for _, pair := range [][2]xproto.Atom{{atoms[0], 0}, {atoms[1], atoms[2]}} {
		ev := xproto.ClientMessageEvent{
			Format: 32,
			Window: x.win,
			Type:   state,
			Data:   xproto.ClientMessageDataUnionData32New([]uint32{1, uint32(pair[0]), uint32(pair[1]), 1, 0}),
		}
		xproto.SendEvent(x.conn, false, x.root,
			xproto.EventMaskSubstructureNotify|xproto.EventMaskSubstructureRedirect, string(ev.Bytes()))
	}
}

// setShape hands the shape to shapeLoop, which sends it. The X server
// intersects the input shape with the bounding one, so an input shape
// covering every frame of a motion need not change with each frame.
func (x *x11Window) SetShape(bounding, input []image.Rectangle) error {
	if x.conn == nil || !x.shape {
		return ErrUnsupported
	}
	xrects := func(rs []image.Rectangle) []xproto.Rectangle {
		xr := make([]xproto.Rectangle, 0, len(rs))
		for _, r := range rs {
			if !r.Empty() {
				xr = append(xr, xproto.Rectangle{X: int16(r.Min.X), Y: int16(r.Min.Y), Width: uint16(r.Dx()), Height: uint16(r.Dy())})
			}
		}
		return xr
	}
	x.shapeMu.Lock()
	x.shapeBound = xrects(bounding)
	if input != nil {
		x.shapeInput, x.shapeHasIn = xrects(input), true
	}
	x.shapeMu.Unlock()
	select {
	case x.shapeWake <- struct{}{}:
	default:
	}
	return nil
}

// shapeLoop sends the latest shape each time setShape wakes it. A shape
// superseded before it was sent is never sent.
func (x *x11Window) shapeLoop() {
	defer close(x.shapeStopped)
	for {
		select {
		case <-x.shapeStop:
			return
		case <-x.shapeWake:
		}
		x.shapeMu.Lock()
		bound, input, hasIn := x.shapeBound, x.shapeInput, x.shapeHasIn
		x.shapeBound, x.shapeInput, x.shapeHasIn = nil, nil, false
		x.shapeMu.Unlock()
		if hasIn {
			shape.Rectangles(x.conn, shape.SoSet, shape.SkInput, xproto.ClipOrderingUnsorted, x.win, 0, 0, input)
		}
		if bound != nil {
			shape.Rectangles(x.conn, shape.SoSet, shape.SkBounding, xproto.ClipOrderingUnsorted, x.win, 0, 0, bound)
		}
	}
}

func (x *x11Window) Move(px, py int) error {
	if x.conn == nil {
		return ErrUnsupported
	}
	return xproto.ConfigureWindowChecked(x.conn, x.win, xproto.ConfigWindowX|xproto.ConfigWindowY,
		[]uint32{uint32(int32(px)), uint32(int32(py))}).Check()
}

func (x *x11Window) Position() (image.Point, error) {
	if x.conn == nil {
		return image.Point{}, ErrUnsupported
	}
	r, err := xproto.TranslateCoordinates(x.conn, x.win, x.root, 0, 0).Reply()
	if err != nil {
		return image.Point{}, fmt.Errorf("x11: window position: %w", err)
	}
	return image.Pt(int(r.DstX), int(r.DstY)), nil
}

func (x *x11Window) Pointer() (image.Point, error) {
	if x.conn == nil {
		return image.Point{}, ErrUnsupported
	}
	return x.xc.Pointer()
}

// WatchPointer hands f the pointer's position from the connection's one
// poller, which every pet shares (PointerWatcher).
func (x *x11Window) WatchPointer(every time.Duration, f func(image.Point, bool)) (stop func(), ok bool) {
	if x.conn == nil {
		return nil, false
	}
	return x.xc.WatchPointer(every, f), true
}

func (x *x11Window) Monitors() ([]image.Rectangle, error) {
	if x.conn == nil {
		return nil, ErrUnsupported
	}
	return x.xc.Monitors()
}

func (x *x11Window) Focus() error {
	if x.conn == nil {
		return ErrUnsupported
	}
	active := x.atom("_NET_ACTIVE_WINDOW")
	ev := xproto.ClientMessageEvent{
		Format: 32, Window: x.win, Type: active,
		Data: xproto.ClientMessageDataUnionData32New([]uint32{1, 0, 0, 0, 0}),
	}
	xproto.SendEvent(x.conn, false, x.root,
		xproto.EventMaskSubstructureNotify|xproto.EventMaskSubstructureRedirect, string(ev.Bytes()))
	xproto.SetInputFocus(x.conn, xproto.InputFocusParent, x.win, xproto.TimeCurrentTime)
	return nil
}

func (x *x11Window) Close() error {
	x.once.Do(func() {
		if x.conn != nil {
			close(x.shapeStop)
			<-x.shapeStopped
			x.unsubscribe()
			if x.own {
				x.xc.Close()
			}
		}
	})
	return nil
}

// The optional abilities this shim has (native.go).
var (
	_ MonitorWatcher = (*x11Window)(nil)
	_ Shortcut       = (*x11Window)(nil)
)
