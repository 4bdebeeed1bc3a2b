//go:build (linux || freebsd || openbsd || netbsd) && !android

package dbustest

import (
	"image"
	"image/png"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/godbus/dbus/v5"
)

// Portal is a fake org.freedesktop.portal.Desktop with the Screenshot
// interface, as xdg-desktop-portal 1.16 serves it: Screenshot returns the
// Request's path at once (the caller's unique name without its colon,
// dots as underscores, then handle_token) and the Response signal
// follows with a code and, for 0, the file's uri.
type Portal struct {
	conn *dbus.Conn
	dir  string

	mu sync.Mutex
	// Code is the response code to send (0 ok, 1 cancelled, 2 other).
	Code uint32
	// Image is the screen the fake shows; nil sends no uri.
	Image image.Image
	// Files are the screenshots written, in order.
	Files []string
	// Interactive is the interactive option of each call.
	Interactive []bool
	// Before, when set, runs with each Request's path before its
	// Response is sent.
	Before func(handle dbus.ObjectPath)

	wg sync.WaitGroup
}

// ServePortal serves a fake portal on the bus at addr until the test ends.
func ServePortal(t testing.TB, addr string) *Portal {
	t.Helper()
	p := &Portal{conn: Connect(t, addr), dir: t.TempDir()}
	t.Cleanup(p.wg.Wait) // registered after Connect's: runs before the close
	if err := p.conn.Export(portalObject{p}, "/org/freedesktop/portal/desktop", "org.freedesktop.portal.Screenshot"); err != nil {
		t.Fatal(err)
	}
	own(t, p.conn, "org.freedesktop.portal.Desktop")
	return p
}

// SetBefore sets Before.
func (p *Portal) SetBefore(f func(handle dbus.ObjectPath)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.Before = f
}

// Set says what the next calls answer.
func (p *Portal) Set(code uint32, img image.Image) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.Code, p.Image = code, img
}

// Calls returns the interactive option of each call so far and the files
// written.
func (p *Portal) Calls() (interactive []bool, files []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]bool(nil), p.Interactive...), append([]string(nil), p.Files...)
}

type portalObject struct{ p *Portal }

// Screenshot is the portal's method; godbus fills sender.
func (o portalObject) Screenshot(sender dbus.Sender, parent string, opts map[string]dbus.Variant) (dbus.ObjectPath, *dbus.Error) {
	p := o.p
	token, _ := opts["handle_token"].Value().(string)
	interactive, _ := opts["interactive"].Value().(bool)
	if token == "" {
		token = "t1"
	}
	handle := dbus.ObjectPath("/org/freedesktop/portal/desktop/request/" +
		strings.ReplaceAll(strings.TrimPrefix(string(sender), ":"), ".", "_") + "/" + token)

	p.mu.Lock()
	p.Interactive = append(p.Interactive, interactive)
	code, img, before := p.Code, p.Image, p.Before
	results := map[string]dbus.Variant{}
	if code == 0 && img != nil {
		f := filepath.Join(p.dir, "Screenshot-"+token+".png")
		if err := writePNG(f, img); err != nil {
			p.mu.Unlock()
			return "", dbus.MakeFailedError(err)
		}
		p.Files = append(p.Files, f)
		results["uri"] = dbus.MakeVariant((&url.URL{Scheme: "file", Path: f}).String())
	}
	p.mu.Unlock()

	// The answer comes after the call returns, as from the real portal.
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		if before != nil {
			before(handle)
		}
		_ = p.conn.Emit(handle, "org.freedesktop.portal.Request.Response", code, results)
	}()
	return handle, nil
}

func writePNG(name string, img image.Image) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
