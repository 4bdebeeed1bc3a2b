//go:build (linux || freebsd || openbsd || netbsd) && !android && !wayland && !wasm

package native

import (
	"fmt"
	"image"
	"log/slog"
	"sort"
	"sync"

	"fyne.io/fyne/v2/driver"
	"github.com/jezek/xgb"
	"github.com/jezek/xgb/randr"
	"github.com/jezek/xgb/shape"
	"github.com/jezek/xgb/xproto"
)

// x11Window shapes and moves a pet window through its own pure-Go X
// connection (github.com/jezek/xgb), next to the one GLFW holds: window
// ids are global on an X server, so the SHAPE extension and
// ConfigureWindow requests work from any connection.
type x11Window struct {
	log   *slog.Logger
	conn  *xgb.Conn
	root  xproto.Window
	win   xproto.Window
	shape bool // SHAPE extension present
	randr bool // RandR 1.5 monitors present

	done chan struct{} // closed when the event drain ends
	once sync.Once

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

func New(log *slog.Logger) Window { return &x11Window{log: log} }

func (x *x11Window) Attach(ctx any) error {
	xc, ok := ctx.(driver.X11WindowContext)
	if !ok || xc.WindowHandle == 0 {
		return fmt.Errorf("x11: no X11 window handle (context %T): %w", ctx, ErrUnsupported)
	}
	if x.conn == nil {
		conn, err := xgb.NewConn()
		if err != nil {
			return fmt.Errorf("x11: connect: %w", err)
		}
		x.conn = conn
		x.root = xproto.Setup(conn).DefaultScreen(conn).Root
		x.shape = shape.Init(conn) == nil
		if randr.Init(conn) == nil {
			if v, err := randr.QueryVersion(conn, 1, 5).Reply(); err == nil &&
				(v.MajorVersion > 1 || v.MinorVersion >= 5) {
				x.randr = true
			}
		}
		x.done = make(chan struct{})
		go x.drain()
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

// drain reads the connection's events and the errors of unchecked
// requests, which xgb would otherwise queue until its buffer blocks. It
// ends when the connection closes.
func (x *x11Window) drain() {
	defer close(x.done)
	for {
		ev, err := x.conn.WaitForEvent()
		if ev == nil && err == nil {
			return
		}
		if err != nil {
			x.log.Debug("x11 request failed", "err", err.Error())
		}
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
}

func (x *x11Window) WatchMonitors(onChange func()) error {
	if x.conn == nil || !x.randr {
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

func (x *x11Window) atom(name string) xproto.Atom {
	r, err := xproto.InternAtom(x.conn, false, uint16(len(name)), name).Reply()
	if err != nil {
		return 0
	}
	return r.Atom
}

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
	r, err := xproto.QueryPointer(x.conn, x.root).Reply()
	if err != nil {
		return image.Point{}, fmt.Errorf("x11: pointer: %w", err)
	}
	return image.Pt(int(r.RootX), int(r.RootY)), nil
}

func (x *x11Window) Monitors() ([]image.Rectangle, error) {
	if x.conn == nil {
		return nil, ErrUnsupported
	}
	if x.randr {
		r, err := randr.GetMonitors(x.conn, x.root, true).Reply()
		if err == nil && len(r.Monitors) > 0 {
			ms := append([]randr.MonitorInfo(nil), r.Monitors...)
			sort.SliceStable(ms, func(i, j int) bool { return ms[i].Primary && !ms[j].Primary })
			out := make([]image.Rectangle, len(ms))
			for i, m := range ms {
				out[i] = image.Rect(int(m.X), int(m.Y), int(m.X)+int(m.Width), int(m.Y)+int(m.Height))
			}
			return out, nil
		}
	}
	g, err := xproto.GetGeometry(x.conn, xproto.Drawable(x.root)).Reply()
	if err != nil {
		return nil, fmt.Errorf("x11: root geometry: %w", err)
	}
	return []image.Rectangle{image.Rect(0, 0, int(g.Width), int(g.Height))}, nil
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
			x.conn.Close()
			<-x.done
		}
	})
	return nil
}
