package desktop

import (
	"cmp"
	"encoding/json"
	"fmt"
	"image"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
)

// The windows' facts a Wayland compositor tells (GNOME Shell through
// Yui's extension, tools/desktop/gnome/core.js; KWin through Yui's script,
// kwin.js), kept in a table that its events update: what the desktop
// layer answers from on those desktops (compositor.go). The compositor
// sends them as they change, so nothing here polls. The events are JSON,
// the same from both:
//
//	{"kind":"all","windows":[fact…],"focus":"id","order":["id"…],"stage":{"width":w,"height":h}}
//	                                                                every window, focus, stacking bottom first,
//	                                                                the compositor's screen size (xscale.go)
//	{"kind":"window","window":fact}                                 one window changed or appeared
//	{"kind":"closed","id":"id"}                                     one window is gone
//	{"kind":"focus","id":"id"}                                      the focus moved ("" for none)
//	{"kind":"stack","order":["id"…]}                                the stacking order changed

// fact is one window as the compositor tells it. Ids are strings: a
// compositor's 64-bit ids do not survive JavaScript's numbers.
type fact struct {
	ID         string  `json:"id"`
	XID        string  `json:"xid"` // the X window of an XWayland window, "0" or "" for a native one
	Title      string  `json:"title"`
	App        string  `json:"app"`
	X          int     `json:"x"`
	Y          int     `json:"y"`
	Width      int     `json:"width"`
	Height     int     `json:"height"`
	Monitor    int     `json:"monitor"`
	Scale      float64 `json:"scale"`
	Minimized  bool    `json:"minimized"`
	Maximized  bool    `json:"maximized"`
	Fullscreen bool    `json:"fullscreen"`
	Focus      bool    `json:"focus"`
	Normal     bool    `json:"normal"`
	PID        int     `json:"pid"`
}

// factEvent is one message of the compositor.
type factEvent struct {
	Kind    string   `json:"kind"`
	Windows []fact   `json:"windows"`
	Window  *fact    `json:"window"`
	ID      string   `json:"id"`
	Focus   string   `json:"focus"`
	Order   []string `json:"order"`
	// Stage is the compositor's screen size in its own (logical)
	// coordinates, on "all": with XWayland's it gives the factor between
	// the two (xscale.go). An extension or script without it gives 1.
	Stage struct {
		Width  int `json:"width"`
		Height int `json:"height"`
	} `json:"stage"`
	// Seq numbers the events of a source whose deliveries may overtake
	// one another (KWin's calls); 0 for one in order (GNOME's signals).
	Seq uint64 `json:"seq"`
}

// nativeBit marks the id of a native Wayland window, so that it meets no
// X window's id (those are 32-bit): XWayland windows keep their X ids, as
// on X11.
const nativeBit = ID(1) << 62

// maxFactEvent bounds one event: a desktop of a few hundred windows fits.
const maxFactEvent = 4 << 20

// parseFactEvent decodes one event; a bad one is an error, never a panic.
func parseFactEvent(s string) (factEvent, error) {
	var ev factEvent
	if len(s) > maxFactEvent {
		return ev, fmt.Errorf("window facts: an event of %d bytes", len(s))
	}
	if err := json.Unmarshal([]byte(s), &ev); err != nil {
		return ev, fmt.Errorf("window facts: %w", err)
	}
	switch ev.Kind {
	case "all", "closed", "focus", "stack":
	case "window":
		if ev.Window == nil {
			return ev, fmt.Errorf("window facts: a window event without its window")
		}
	default:
		return ev, fmt.Errorf("window facts: unknown event %q", ev.Kind)
	}
	return ev, nil
}

// idOf is the layer's id for a compositor's id and X id.
func idOf(id, xid string) (ID, bool) {
	if x, err := strconv.ParseUint(xid, 10, 32); err == nil && x != 0 {
		return ID(x), true
	}
	n, err := strconv.ParseUint(id, 10, 62)
	if err != nil {
		return 0, false
	}
	return nativeBit | ID(n), true
}

// window is the fact as the layer's Window, its frame in X coordinates.
func (f fact) window(id ID, s xScale) Window {
	return Window{
		ID: id, App: f.App, Title: f.Title,
		Frame:      s.rect(image.Rect(f.X, f.Y, f.X+max(f.Width, 0), f.Y+max(f.Height, 0))),
		Minimized:  f.Minimized,
		Normal:     f.Normal,
		PID:        max(f.PID, 0),
		Fullscreen: f.Fullscreen,
	}
}

// factTable is the windows as the compositor last told them.
type factTable struct {
	changes atomic.Uint64 // events applied: do-not-disturb's change count
	// xSize is XWayland's screen size in X pixels, read when a snapshot
	// comes (not under mu: it asks the X server); nil reads as unknown.
	xSize func() image.Point

	mu      sync.Mutex
	live    bool          // a snapshot came and the compositor's side still runs
	byKey   map[string]ID // the compositor's id → the layer's
	wins    map[ID]Window
	order   []ID // bottom first
	focus   ID
	scale   xScale // compositor → X coordinates, from the last snapshot
	watches map[ID][]*factWatch
}

type factWatch struct {
	f       func(Change)
	stopped atomic.Bool
	last    image.Rectangle
	mini    bool
}

// newFactTable makes an empty table; xSize gives XWayland's screen size
// (nil: the compositor's coordinates are taken as X's).
func newFactTable(xSize func() image.Point) *factTable {
	return &factTable{xSize: xSize, scale: 1, byKey: map[string]ID{}, wins: map[ID]Window{}, watches: map[ID][]*factWatch{}}
}

// isLive reports whether the table answers for the desktop.
func (t *factTable) isLive() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.live
}

// setDead marks the compositor's side gone: the layer answers from
// XWayland until the next snapshot.
func (t *factTable) setDead() {
	t.mu.Lock()
	t.live = false
	t.mu.Unlock()
	t.changes.Add(1)
}

// apply takes one event in and delivers the watches' changes it makes
// (on the caller's goroutine, outside the lock).
func (t *factTable) apply(ev factEvent) {
	t.changes.Add(1)
	scale := xScale(1)
	if ev.Kind == "all" && t.xSize != nil && ev.Stage.Width > 0 {
		scale = fromSizes(image.Pt(ev.Stage.Width, ev.Stage.Height), t.xSize())
	}
	var calls []func()
	t.mu.Lock()
	switch ev.Kind {
	case "all":
		t.scale = scale
		old := t.wins
		t.byKey, t.wins = map[string]ID{}, map[ID]Window{}
		for _, f := range ev.Windows {
			t.putLocked(f)
		}
		t.orderLocked(ev.Order)
		t.focus = t.byKey[ev.Focus]
		t.live = true
		for id := range t.watches {
			if w, ok := t.wins[id]; ok {
				calls = append(calls, t.deliverLocked(id, w)...)
			} else if _, was := old[id]; was {
				calls = append(calls, t.closeLocked(id)...)
			}
		}
	case "window":
		id := t.putLocked(*ev.Window)
		if id != 0 {
			if ev.Window.Focus {
				t.focus = id
			}
			if !slices.Contains(t.order, id) {
				t.order = append(t.order, id) // a new window opens on top
			}
			calls = t.deliverLocked(id, t.wins[id])
		}
	case "closed":
		if id, ok := t.byKey[ev.ID]; ok {
			delete(t.byKey, ev.ID)
			delete(t.wins, id)
			t.order = slices.DeleteFunc(t.order, func(v ID) bool { return v == id })
			if t.focus == id {
				t.focus = 0
			}
			calls = t.closeLocked(id)
		}
	case "focus":
		t.focus = t.byKey[ev.ID]
	case "stack":
		t.orderLocked(ev.Order)
	}
	t.mu.Unlock()
	for _, c := range calls {
		c()
	}
}

// putLocked stores a fact; 0 when its id is unreadable (dropped).
func (t *factTable) putLocked(f fact) ID {
	id, ok := idOf(f.ID, f.XID)
	if !ok {
		return 0
	}
	t.byKey[f.ID] = id
	t.wins[id] = f.window(id, t.scale)
	return id
}

func (t *factTable) orderLocked(keys []string) {
	t.order = t.order[:0:0]
	for _, k := range keys {
		if id, ok := t.byKey[k]; ok {
			t.order = append(t.order, id)
		}
	}
}

// deliverLocked is the watch calls a window's new state makes: Moved when
// its frame changed, Minimized once when it was minimised.
func (t *factTable) deliverLocked(id ID, cur Window) []func() {
	var calls []func()
	for _, w := range t.watches[id] {
		switch {
		case cur.Minimized && !w.mini:
			w.mini = true
			calls = append(calls, w.call(Change{Kind: Minimized, Window: cur}))
		case !cur.Minimized && cur.Frame != w.last:
			w.mini = false
			w.last = cur.Frame
			calls = append(calls, w.call(Change{Kind: Moved, Window: cur}))
		case !cur.Minimized:
			w.mini = false
		}
	}
	return calls
}

// closeLocked ends a window's watches with Closed.
func (t *factTable) closeLocked(id ID) []func() {
	var calls []func()
	for _, w := range t.watches[id] {
		calls = append(calls, w.call(Change{Kind: Closed, Window: Window{ID: id}}))
	}
	delete(t.watches, id)
	return calls
}

func (w *factWatch) call(c Change) func() {
	return func() {
		if !w.stopped.Load() {
			w.f(c)
		}
	}
}

// windows is the list, the topmost first; ok is false while not live.
func (t *factTable) windows() (ws []Window, active ID, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.live {
		return nil, 0, false
	}
	seen := make(map[ID]bool, len(t.wins))
	for i := len(t.order) - 1; i >= 0; i-- {
		if w, in := t.wins[t.order[i]]; in && !seen[w.ID] {
			seen[w.ID] = true
			ws = append(ws, w)
		}
	}
	var rest []Window // not yet in a stacking order: below, by id for a stable answer
	for id, w := range t.wins {
		if !seen[id] {
			rest = append(rest, w)
		}
	}
	slices.SortFunc(rest, func(a, b Window) int { return cmp.Compare(a.ID, b.ID) })
	return append(ws, rest...), t.focus, true
}

// active is the focused window; known is false while not live.
func (t *factTable) active() (w Window, ok, known bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.live {
		return Window{}, false, false
	}
	w, ok = t.wins[t.focus]
	return w, ok, true
}

// watch adds a watch of window id; ok is false while not live or when the
// window is unknown.
func (t *factTable) watch(id ID, f func(Change)) (stop func(), ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	cur, in := t.wins[id]
	if !t.live || !in {
		return nil, false
	}
	w := &factWatch{f: f, last: cur.Frame, mini: cur.Minimized}
	t.watches[id] = append(t.watches[id], w)
	return func() {
		w.stopped.Store(true)
		t.mu.Lock()
		defer t.mu.Unlock()
		t.watches[id] = slices.DeleteFunc(t.watches[id], func(v *factWatch) bool { return v == w })
		if len(t.watches[id]) == 0 {
			delete(t.watches, id)
		}
	}, true
}

// stopAll ends every watch (the layer closes).
func (t *factTable) stopAll() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, list := range t.watches {
		for _, w := range list {
			w.stopped.Store(true)
		}
	}
	t.watches = map[ID][]*factWatch{}
	t.live = false
}
