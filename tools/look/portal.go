//go:build (linux || freebsd || openbsd || netbsd) && !android

package look

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"image/draw"
	_ "image/png" // the portal's screenshots are PNG files
	"net/url"
	"os"
	"strings"

	"github.com/godbus/dbus/v5"
)

// The XDG desktop portal's Screenshot (org.freedesktop.portal.Screenshot,
// version 1 and later; xdg-desktop-portal 1.16 in Debian 12): the call
// returns a Request object at once and the answer comes later as the
// Request's Response signal, after the desktop has asked the user where
// it asks. The consent is kept by the portal in its permission store
// (table and id "screenshot", app id "" for a program outside a sandbox
// and outside a systemd app scope), so it is asked once.
const (
	portalName       = "org.freedesktop.portal.Desktop"
	portalPath       = dbus.ObjectPath("/org/freedesktop/portal/desktop")
	portalShot       = "org.freedesktop.portal.Screenshot.Screenshot"
	portalRequest    = "org.freedesktop.portal.Request"
	portalRespMember = "Response"
)

// PortalResponse is the Request's response code.
type PortalResponse uint32

// The portal's response codes.
const (
	PortalOK        PortalResponse = 0
	PortalCancelled PortalResponse = 1
	PortalOther     PortalResponse = 2
)

// Errors of a portal capture, for the tool's answer and the App tab.
var (
	// ErrNoPortal: nothing on the session bus answers the portal's
	// Screenshot (no xdg-desktop-portal, or no backend for the desktop).
	ErrNoPortal = errors.New("no screenshot portal on the session bus")
	// ErrPortalCancelled: the user cancelled (response 1).
	ErrPortalCancelled = errors.New("the screenshot was cancelled")
	// ErrPortalRefused: the desktop refused (response 2): the user denied
	// the portal's screenshot permission, or its backend failed.
	ErrPortalRefused = errors.New("the desktop refused the screenshot")
)

// Portal is the Capturer of a Wayland session: the whole desktop through
// the portal, cut to the rectangle asked for.
type Portal struct {
	// Address is the session bus's; "" is DBUS_SESSION_BUS_ADDRESS's.
	Address string
	// Bounds is the desktop's rectangle in desktop coordinates (the
	// monitors' union), which the portal's picture covers.
	Bounds func() (image.Rectangle, error)
}

// Capture implements Capturer with no deadline of its own.
func (p Portal) Capture(r image.Rectangle) (*image.RGBA, error) {
	return p.CaptureContext(context.Background(), r)
}

// CaptureContext takes a screenshot through the portal, reads the file it
// names and removes it: the desktop's backends write it into the user's
// Pictures folder (xdg-desktop-portal-gnome through GNOME Shell's
// Screenshot, xdg-desktop-portal-kde itself), and a turn's screenshot is
// not the user's to keep.
func (p Portal) CaptureContext(ctx context.Context, r image.Rectangle) (*image.RGBA, error) {
	if r.Empty() {
		return nil, fmt.Errorf("capture %v: empty rectangle", r)
	}
	path, err := p.shoot(ctx)
	if err != nil {
		return nil, err
	}
	img, err := readShot(path)
	if err != nil {
		return nil, err
	}
	all := img.Bounds()
	if p.Bounds != nil {
		if all, err = p.Bounds(); err != nil {
			return nil, fmt.Errorf("capture: desktop bounds: %w", err)
		}
	}
	return cut(img, all, r)
}

// shoot asks the portal for a screenshot and returns the file's path.
// One private connection per shot: shots are rare (a user's turn, a look
// at the screen) and nothing outlives the call.
func (p Portal) shoot(ctx context.Context) (string, error) {
	conn, err := p.connect(ctx)
	if err != nil {
		return "", err
	}
	defer conn.Close()

	token, err := handleToken()
	if err != nil {
		return "", err
	}
	// The Request's path is known before the call (its sender and token),
	// so the Response cannot come before the match is in place.
	want := requestPath(conn.Names()[0], token)
	signals := make(chan *dbus.Signal, 8)
	conn.Signal(signals)
	if err := matchResponse(conn, want); err != nil {
		return "", err
	}
	opts := map[string]dbus.Variant{
		"handle_token": dbus.MakeVariant(token),
		"interactive":  dbus.MakeVariant(false),
	}
	var handle dbus.ObjectPath
	call := conn.Object(portalName, portalPath).CallWithContext(ctx, portalShot, 0, "", opts)
	if err := call.Store(&handle); err != nil {
		if missing(err) {
			return "", fmt.Errorf("capture: %w (%v)", ErrNoPortal, err)
		}
		return "", fmt.Errorf("capture: portal: %w", err)
	}
	if handle != want { // a portal older than handle_token
		if err := matchResponse(conn, handle); err != nil {
			return "", err
		}
	}
	// The portal answered the call, so it owns its name now: its
	// Response comes from that owner and from no one else.
	var owner string
	if err := conn.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.GetNameOwner", 0, portalName).Store(&owner); err != nil {
		return "", fmt.Errorf("capture: portal owner: %w", err)
	}
	for {
		select {
		case <-ctx.Done():
			// Best effort: the request goes away; a consent the user gives
			// later is still kept by the portal for the next shot.
			conn.Object(portalName, handle).Go(portalRequest+".Close", dbus.FlagNoReplyExpected, nil)
			return "", fmt.Errorf("capture: waiting for the portal: %w", ctx.Err())
		case s, ok := <-signals:
			if !ok {
				return "", errors.New("capture: the session bus closed")
			}
			if s.Sender != owner || s.Name != portalRequest+"."+portalRespMember || (s.Path != handle && s.Path != want) {
				continue
			}
			return responseFile(s.Body)
		}
	}
}

func (p Portal) connect(ctx context.Context) (*dbus.Conn, error) {
	var conn *dbus.Conn
	var err error
	if p.Address != "" {
		conn, err = dbus.Dial(p.Address, dbus.WithContext(ctx))
	} else {
		conn, err = dbus.SessionBusPrivate(dbus.WithContext(ctx))
	}
	if err != nil {
		return nil, fmt.Errorf("capture: %w (no session bus: %v)", ErrNoPortal, err)
	}
	if err := conn.Auth(nil); err != nil {
		conn.Close()
		return nil, fmt.Errorf("capture: session bus: %w", err)
	}
	if err := conn.Hello(); err != nil {
		conn.Close()
		return nil, fmt.Errorf("capture: session bus: %w", err)
	}
	return conn, nil
}

// matchResponse asks for the Response of the Request at path, from the
// portal alone: the answer names a file that is read and removed, so
// another program on the bus must not be able to answer in its place.
func matchResponse(conn *dbus.Conn, path dbus.ObjectPath) error {
	if err := conn.AddMatchSignal(dbus.WithMatchSender(portalName), dbus.WithMatchObjectPath(path),
		dbus.WithMatchInterface(portalRequest), dbus.WithMatchMember(portalRespMember)); err != nil {
		return fmt.Errorf("capture: portal response: %w", err)
	}
	return nil
}

// requestPath is the portal's Request object for a sender's token:
// the unique name without its colon, dots as underscores.
func requestPath(sender, token string) dbus.ObjectPath {
	s := strings.ReplaceAll(strings.TrimPrefix(sender, ":"), ".", "_")
	return dbus.ObjectPath("/org/freedesktop/portal/desktop/request/" + s + "/" + token)
}

func handleToken() (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("capture: token: %w", err)
	}
	return "yui" + hex.EncodeToString(b[:]), nil
}

// missing reports an error that says nobody serves the portal's
// Screenshot.
func missing(err error) bool {
	var de dbus.Error
	if !errors.As(err, &de) {
		return false
	}
	switch de.Name {
	case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
		"org.freedesktop.DBus.Error.UnknownMethod", "org.freedesktop.DBus.Error.UnknownInterface",
		"org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.Spawn.ChildExited",
		"org.freedesktop.DBus.Error.Spawn.ExecFailed", "org.freedesktop.DBus.Error.Spawn.ServiceNotFound":
		return true
	}
	return false
}

// responseFile reads the Response signal's body (u response, a{sv}
// results) into the screenshot's local path.
func responseFile(body []any) (string, error) {
	if len(body) != 2 {
		return "", fmt.Errorf("capture: portal response with %d values", len(body))
	}
	code, ok := body[0].(uint32)
	if !ok {
		return "", fmt.Errorf("capture: portal response code %T", body[0])
	}
	switch PortalResponse(code) {
	case PortalOK:
	case PortalCancelled:
		return "", fmt.Errorf("capture: %w", ErrPortalCancelled)
	default:
		return "", fmt.Errorf("capture: %w (response %d)", ErrPortalRefused, code)
	}
	results, ok := body[1].(map[string]dbus.Variant)
	if !ok {
		return "", fmt.Errorf("capture: portal results %T", body[1])
	}
	v, ok := results["uri"]
	if !ok {
		return "", errors.New("capture: the portal gave no uri")
	}
	uri, ok := v.Value().(string)
	if !ok {
		return "", fmt.Errorf("capture: portal uri %s", v.Signature())
	}
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return "", fmt.Errorf("capture: portal uri %q is no local file", uri)
	}
	return u.Path, nil
}

// readShot decodes the screenshot file and removes it: a regular file
// only, never what a link points at.
func readShot(path string) (image.Image, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, fmt.Errorf("capture: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("capture: the portal's %s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("capture: %w", err)
	}
	img, _, err := image.Decode(f)
	f.Close()
	if rmErr := os.Remove(path); rmErr != nil && err == nil {
		err = rmErr
	}
	if err != nil {
		return nil, fmt.Errorf("capture: the portal's file: %w", err)
	}
	return img, nil
}

// cut returns the part of img showing r, where img shows all (desktop
// coordinates). A picture larger than all (a scaled monitor's physical
// pixels) is scaled in step.
func cut(img image.Image, all, r image.Rectangle) (*image.RGBA, error) {
	if all.Empty() {
		return nil, errors.New("capture: empty desktop")
	}
	r = r.Intersect(all)
	if r.Empty() {
		return nil, fmt.Errorf("capture: %v is off the desktop %v", r, all)
	}
	ib := img.Bounds()
	sx := func(x int) int { return ib.Min.X + (x-all.Min.X)*ib.Dx()/all.Dx() }
	sy := func(y int) int { return ib.Min.Y + (y-all.Min.Y)*ib.Dy()/all.Dy() }
	src := image.Rect(sx(r.Min.X), sy(r.Min.Y), sx(r.Max.X), sy(r.Max.Y))
	out := image.NewRGBA(image.Rect(0, 0, src.Dx(), src.Dy()))
	draw.Draw(out, out.Bounds(), img, src.Min, draw.Src)
	return out, nil
}
