package desktop

import (
	"image"
	"testing"
)

func mustApply(t *testing.T, tab *factTable, s string) {
	t.Helper()
	ev, err := parseFactEvent(s)
	if err != nil {
		t.Fatalf("parse %s: %v", s, err)
	}
	tab.apply(ev)
}

func TestFactTable(t *testing.T) {
	tab := newFactTable(nil)
	if _, _, ok := tab.windows(); ok {
		t.Fatal("live before a snapshot")
	}
	mustApply(t, tab, `{"kind":"all","windows":[
	  {"id":"7","xid":"0","title":"Notes","app":"notes","x":10,"y":20,"width":300,"height":200,"normal":true,"focus":true},
	  {"id":"9","xid":"4194311","title":"Memo","app":"XTerm","x":400,"y":20,"width":300,"height":200,"normal":true}],
	  "focus":"7","order":["7","9"]}`)
	ws, active, ok := tab.windows()
	if !ok || len(ws) != 2 || ws[0].Title != "Memo" || ws[0].ID != 4194311 || ws[1].ID != nativeBit|7 || active != nativeBit|7 {
		t.Fatalf("windows = %+v, active %v", ws, active)
	}
	if ws[1].Frame != image.Rect(10, 20, 310, 220) {
		t.Fatalf("frame = %v", ws[1].Frame)
	}
	var got []Change
	stop, ok := tab.watch(nativeBit|7, func(c Change) { got = append(got, c) })
	if !ok {
		t.Fatal("no watch")
	}
	mustApply(t, tab, `{"kind":"window","window":{"id":"7","title":"Notes","x":50,"y":60,"width":300,"height":200}}`)
	mustApply(t, tab, `{"kind":"window","window":{"id":"7","title":"Notes 2","x":50,"y":60,"width":300,"height":200}}`) // same frame: nothing
	mustApply(t, tab, `{"kind":"window","window":{"id":"7","x":50,"y":60,"width":300,"height":200,"minimized":true}}`)
	mustApply(t, tab, `{"kind":"stack","order":["9","7"]}`)
	if ws, _, _ := tab.windows(); ws[0].ID != nativeBit|7 {
		t.Fatalf("after restack: %+v", ws)
	}
	mustApply(t, tab, `{"kind":"focus","id":"9"}`)
	if w, ok, _ := tab.active(); !ok || w.Title != "Memo" {
		t.Fatalf("active = %+v %v", w, ok)
	}
	mustApply(t, tab, `{"kind":"closed","id":"7"}`)
	if len(got) != 3 || got[0].Kind != Moved || got[0].Window.Frame.Min != image.Pt(50, 60) || got[1].Kind != Minimized || got[2].Kind != Closed {
		t.Fatalf("changes = %+v", got)
	}
	stop()
	if ws, _, _ := tab.windows(); len(ws) != 1 {
		t.Fatalf("after close: %+v", ws)
	}
	if tab.changes.Load() != 7 {
		t.Fatalf("changes counted %d", tab.changes.Load())
	}
	tab.setDead()
	if _, _, known := tab.active(); known {
		t.Fatal("known after the source died")
	}
}

func TestFactEventBad(t *testing.T) {
	for _, s := range []string{"", "{", `{"kind":"nope"}`, `{"kind":"window"}`, `[1]`} {
		if _, err := parseFactEvent(s); err == nil {
			t.Errorf("%q taken", s)
		}
	}
	tab := newFactTable(nil)
	mustApply(t, tab, `{"kind":"all","windows":[{"id":"x"},{"id":"-1"},{"id":"3"}]}`)
	if ws, _, _ := tab.windows(); len(ws) != 1 {
		t.Fatalf("unreadable ids kept: %+v", ws)
	}
}

func FuzzFactEvent(f *testing.F) {
	f.Add(`{"kind":"all","windows":[{"id":"1","x":1}],"order":["1"]}`)
	f.Add(`{"kind":"window","window":{"id":"2","xid":"5"}}`)
	f.Add(`{"kind":"closed","id":"2"}`)
	f.Fuzz(func(t *testing.T, s string) {
		ev, err := parseFactEvent(s)
		if err != nil {
			return
		}
		tab := newFactTable(nil)
		tab.apply(ev)
		tab.windows()
		tab.active()
	})
}

func TestSessionKind(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "ubuntu:GNOME"}, "gnome"},
		{map[string]string{"WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "KDE"}, "kde"},
		{map[string]string{"XDG_SESSION_TYPE": "x11", "XDG_CURRENT_DESKTOP": "GNOME"}, ""},
		{map[string]string{"XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "sway"}, ""},
		{map[string]string{"XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "GNOME-Classic"}, "gnome"},
		{map[string]string{"XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "pop:GNOME"}, "gnome"},
		// XDG_SESSION_TYPE decides when set: an X11 session with a
		// nested compositor's WAYLAND_DISPLAY stays X11.
		{map[string]string{"XDG_SESSION_TYPE": "x11", "WAYLAND_DISPLAY": "wayland-1", "XDG_CURRENT_DESKTOP": "KDE"}, ""},
	} {
		if got := SessionKind(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("%v: %q, want %q", c.env, got, c.want)
		}
	}
}
