//go:build e2e

package wayland

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	_ "image/jpeg" // the look tool's pictures
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
	"yui/tools/look"
)

// startPortal makes the session's XDG desktop portal usable as a login
// makes it: the activation environment names the compositor's displays
// and the desktop (xdg-desktop-portal picks its backend by
// XDG_CURRENT_DESKTOP; the backend, a GTK program, opens the Wayland
// display), as gnome-session and plasma's startup do. Then it seeds the
// portal's permission store with the screenshot consent for programs
// outside a sandbox (app id ""): a fresh user is asked once, in a dialog
// nobody can answer in a headless test (xdg-desktop-portal 1.16's
// screenshot.c asks when the permission is unset); the seed is that
// answer, given.
func startPortal(t *testing.T, s *harness.Session) {
	t.Helper()
	harness.NeedTools(t, "/usr/libexec/xdg-desktop-portal", "/usr/libexec/xdg-permission-store")
	c := s.SessionConn(t)
	env := map[string]string{"WAYLAND_DISPLAY": s.Wayland, "DISPLAY": s.Name, "XDG_CURRENT_DESKTOP": s.Desktop,
		"XDG_SESSION_TYPE": "wayland", "XDG_RUNTIME_DIR": s.Runtime, "HOME": s.Home}
	for _, kv := range s.Extra {
		if v, ok := strings.CutPrefix(kv, "XAUTHORITY="); ok {
			env["XAUTHORITY"] = v
		}
	}
	if s.Desktop == "KDE" {
		// KDE's portal backend is a Qt program; without Qt's Wayland
		// plugin (qtwayland5, not installed here) it runs on XWayland.
		env["QT_QPA_PLATFORM"] = "xcb"
		// Plasma's dialogs module, which its dialogs are made on, is a
		// stand-in here (testdata/qml): Debian has it only in
		// plasma-workspace, a whole Plasma desktop.
		qml, err := filepath.Abs(filepath.Join("testdata", "qml"))
		if err != nil {
			t.Fatal(err)
		}
		env["QML2_IMPORT_PATH"] = qml
	}
	if err := c.BusObject().Call("org.freedesktop.DBus.UpdateActivationEnvironment", 0, env).Err; err != nil {
		t.Fatalf("activation environment: %v", err)
	}
	store := c.Object("org.freedesktop.impl.portal.PermissionStore", "/org/freedesktop/impl/portal/PermissionStore")
	if err := store.Call("org.freedesktop.impl.portal.PermissionStore.SetPermission", 0,
		"screenshot", true, "screenshot", "", []string{"yes"}).Err; err != nil {
		t.Fatalf("permission store: %v", err)
	}
}

// magentaIn counts the pixels of img that are foot's background,
// ff00ff, give or take JPEG's error.
func magentaIn(img image.Image) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r>>8 > 200 && g>>8 < 60 && bl>>8 > 200 {
				n++
			}
		}
	}
	return n
}

// lookServer is a Chat Completions server: an event turn calls look at
// the screen; everything else is "Okay.". It keeps each request's newest
// message and the images of a tool result.
type lookServer struct {
	mu   sync.Mutex
	reqs []lookRequest
}

type lookRequest struct {
	text   string
	images []string // data URLs
	tool   bool
}

func (s *lookServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var body struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	_ = json.Unmarshal(raw, &body)
	var req lookRequest
	if n := len(body.Messages); n > 0 {
		last := body.Messages[n-1]
		req.tool = last.Role == "tool"
		if json.Unmarshal(last.Content, &req.text) != nil {
			var parts []struct {
				Type     string `json:"type"`
				Text     string `json:"text"`
				ImageURL struct {
					URL string `json:"url"`
				} `json:"image_url"`
			}
			_ = json.Unmarshal(last.Content, &parts)
			for _, p := range parts {
				req.text += p.Text
				if p.ImageURL.URL != "" {
					req.images = append(req.images, p.ImageURL.URL)
				}
			}
		}
		// A tool result's picture may come in a user message after it.
		if n > 1 && last.Role == "user" && body.Messages[n-2].Role == "tool" {
			req.tool = true
		}
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()

	w.Header().Set("Content-Type", "text/event-stream")
	send := func(v string) { io.WriteString(w, "data: "+v+"\n\n"); w.(http.Flusher).Flush() }
	chunk := func(delta, finish string) string {
		return `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + finish + `}]}`
	}
	if !req.tool && strings.Contains(req.text, "trigger: event") {
		send(chunk(`{"role":"assistant","tool_calls":[{"index":0,"id":"call_l","type":"function","function":{"name":"look","arguments":"{\"at\":\"screen\"}"}}]}`, "null"))
		send(chunk(`{}`, `"tool_calls"`))
	} else {
		send(chunk(`{"content":"Okay."}`, "null"))
		send(chunk(`{}`, `"stop"`))
	}
	send("[DONE]")
}

// wait returns the first request that match accepts.
func (s *lookServer) wait(t *testing.T, limit time.Duration, what string, match func(lookRequest) bool) lookRequest {
	t.Helper()
	var got lookRequest
	harness.WaitFor(t, limit, what, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, r := range s.reqs {
			if match(r) {
				got = r
				return true
			}
		}
		return false
	})
	return got
}

// writeLookSettings writes a settings file whose one preset talks to
// base, with screen looks allowed and first activity on.
func writeLookSettings(t *testing.T, dir, base string, private ...string) {
	t.Helper()
	if private == nil {
		private = []string{}
	}
	st := map[string]any{"version": 2, "active_preset": "p-look0001", "log_level": "debug", "screen_look": "allowed",
		"presets": []any{map[string]any{
			"id": "p-look0001", "name": "Yui", "enabled": true, "character": "yui", "chat_api": "chat_completions",
			"chat_base_url": base, "model": "m", "chat_id": "yui-0000cafe", "screen_on_turn": "never",
			"speech": map[string]any{"engine": "none", "rate": 1, "volume": 1}, "voice": map[string]any{"mode": "off", "engine": "openai"},
			"life": map[string]any{"talk": "chatty", "quiet_hours": "", "first_activity": true, "back_from_away_minutes": 0,
				"watch_apps": []string{}, "screen_watch_minutes": 0, "private_titles": private, "schedules": []any{}},
		}}}
	data, _ := json.Marshal(st)
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	// The first start on GNOME's Wayland without Yui's extension offers
	// it once in the App tab (app/desktopsetup.go): offered already here,
	// so that no settings window covers the native window.
	if err := os.MkdirAll(filepath.Join(dir, "state"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "state", "desktop-setup-offered"), []byte("offered\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// typeKey is a Shift pressed through GNOME Shell's own virtual keyboard,
// which goes to the focused native window as a real key would and counts
// as input for Mutter's idle monitor (a Shift types nothing, so nothing
// else changes on the screen).
const typeKey = `(() => {
  const Clutter = imports.gi.Clutter, GLib = imports.gi.GLib;
  const kb = Clutter.get_default_backend().get_default_seat().create_virtual_device(Clutter.InputDeviceType.KEYBOARD_DEVICE);
  const t = GLib.get_monotonic_time();
  kb.notify_keyval(t, Clutter.KEY_Shift_L, Clutter.KeyState.PRESSED);
  kb.notify_keyval(t + 1000, Clutter.KEY_Shift_L, Clutter.KeyState.RELEASED);
  return true;
})()`

// Under GNOME Shell itself with a native foot window in magenta: the
// portal's screenshot shows the native window's pixels, first as the look
// tool's capturer takes it, then through Yui's look at the screen; the
// idle time is Mutter's, so a key typed into the native window is the
// first activity of the day. (The private-window rule with the extension
// installed is tested with the windows' facts.)
func TestGnomeLookAndIdle(t *testing.T) {
	s := harness.NewSession(t, "GNOME")
	s.GnomeShell(t, nil)
	startPortal(t, s)
	s.Native(t, "Notes", "notes", "-o", "colors.background=ff00ff")
	w := harness.GnomeWindow("Notes")
	harness.WaitFor(t, 30*time.Second, "the foot window in GNOME Shell", func() bool {
		return strings.Contains(s.Eval(t, "!!"+w), "true")
	})
	harness.WaitFor(t, 10*time.Second, "the foot window at 300,200", func() bool {
		s.Eval(t, w+".move_frame(true, 300, 200)")
		return strings.Contains(s.Eval(t, "(r => [r.x, r.y].join(','))("+w+".get_frame_rect())"), "300,200")
	})
	// GNOME Shell starts in its overview, which shows windows as small
	// thumbnails: the desktop as a user works in it has none.
	s.Eval(t, "imports.ui.main.overview.hide()")
	s.Eval(t, w+".activate(global.get_current_time())")

	// The capturer alone, on the session's bus: the portal activates, its
	// GNOME backend asks GNOME Shell, and the native window is there.
	var shot image.Image
	var lastErr error
	if !harness.WaitForOr(60*time.Second, func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		img, err := look.Portal{Address: s.Bus}.CaptureContext(ctx, image.Rect(0, 0, 1920, 1080))
		shot, lastErr = img, err
		return err == nil && magentaIn(img) > 100*100
	}) {
		t.Fatalf("no native window in the portal's screenshot: %v (%d magenta pixels)", lastErr, countOrZero(shot))
	}
	if leftover, _ := filepath.Glob(filepath.Join(s.Home, "Pictures", "*.png")); len(leftover) > 0 {
		t.Fatalf("screenshots left in the user's Pictures: %v", leftover)
	}

	// Yui in the session: it chooses the portal and Mutter's idle time.
	srv, base := startLookServer(t)
	cfg := t.TempDir()
	writeLookSettings(t, cfg, base)
	a := harness.StartYuiIn(t, s.Display, cfg, "", "--stats-every", "500ms")
	a.WaitRecord(60*time.Second, "screen_look_way", map[string]string{"way": "portal"})
	a.WaitRecord(10*time.Second, "idle_source", map[string]string{"source": "org.gnome.Mutter.IdleMonitor"})
	a.WaitTicks(3) // the life scheduler has its first samples

	for _, msg := range []string{"life_turn", "life_skipped"} {
		if a.Count(msg, map[string]string{"trigger": "first_activity"}) != 0 {
			t.Fatal("a first activity before any input")
		}
	}
	// A key into the native window (focused again: the pet's window may
	// have taken the focus) is the first activity of the day.
	s.Eval(t, w+".activate(global.get_current_time())")
	s.Eval(t, typeKey)
	srv.wait(t, 20*time.Second, "the first activity turn", func(r lookRequest) bool {
		return strings.Contains(r.text, "trigger: first activity today")
	})

	// look at the screen through Yui: a picture with the native window.
	res := lookNow(t, s, srv, cfg)
	if len(res.images) == 0 {
		t.Fatalf("look screen = %q", res.text)
	}
	img := decodeDataURL(t, res.images[0], filepath.Join(harness.Artifacts(t), "look-screen.jpg"))
	if n := magentaIn(img); n < 50*50 {
		t.Fatalf("look screen's picture (%v) has %d magenta pixels: no native window", img.Bounds(), n)
	}
	// Without Yui's GNOME Shell extension the active window cannot be
	// known: the screenshot was taken because screen looks are allowed,
	// and the log says the private-window rule was not applied.
	a.WaitRecord(10*time.Second, "private_rule_not_applied", nil)
	t.Logf("look screen: %q, %v", res.text, img.Bounds())
}

// startLookServer serves a lookServer until the test ends and returns
// it with its base URL.
func startLookServer(t *testing.T) (*lookServer, string) {
	t.Helper()
	srv := &lookServer{}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv}
	go hs.Serve(l)
	t.Cleanup(func() { hs.Close() })
	return srv, "http://" + l.Addr().String() + "/v1"
}

// lookNow starts an event turn, which the server answers with look at
// the screen, and returns the look's result: the next one after those
// already there.
func lookNow(t *testing.T, s *harness.Session, srv *lookServer, cfg string) lookRequest {
	t.Helper()
	isResult := func(r lookRequest) bool {
		return r.tool && (len(r.images) > 0 || strings.Contains(r.text, "error:"))
	}
	srv.mu.Lock()
	seen := 0
	for _, r := range srv.reqs {
		if isResult(r) {
			seen++
		}
	}
	srv.mu.Unlock()
	cmd := exec.Command(filepath.Join(harness.BinDir(t), "yui"), "event", "--config-dir", cfg, "look")
	cmd.Env = s.Display.Env()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("yui event: %v: %s", err, out)
	}
	var got lookRequest
	harness.WaitFor(t, 60*time.Second, "the look tool's result", func() bool {
		srv.mu.Lock()
		defer srv.mu.Unlock()
		n := 0
		for _, r := range srv.reqs {
			if isResult(r) {
				if n == seen {
					got = r
					return true
				}
				n++
			}
		}
		return false
	})
	return got
}

func countOrZero(img image.Image) int {
	if img == nil {
		return 0
	}
	return magentaIn(img)
}

// decodeDataURL decodes a picture's data URL, and keeps it in file for
// a reader of the test's artifacts.
func decodeDataURL(t *testing.T, u, file string) image.Image {
	t.Helper()
	_, data, ok := strings.Cut(u, ";base64,")
	if !ok {
		t.Fatalf("not a data URL: %.60s", u)
	}
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(file, b, 0o644)
	img, _, err := image.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// Under KWin (kwin_wayland --virtual) with a native window (a GTK dialog
// on GDK's Wayland backend, light grey on KWin's bare black desktop): the
// portal's KDE backend takes the picture through KWin and the native
// window is in it.
func TestKWinPortalLook(t *testing.T) {
	needKDEPortalQML(t)
	s := harness.NewSession(t, "KDE")
	s.KWin(t)
	needKWinScreenShot(t, s)
	startPortal(t, s)
	s.Native(t, "Notes", "notes")
	find := "workspace.clientList().filter(c => c.caption === 'Notes')"
	harness.WaitFor(t, 30*time.Second, "the native window in KWin", func() bool {
		return s.KWinEval(t, find+".length") == "1"
	})
	var fx, fy, fw, fh int
	geo := s.KWinEval(t, "(g => [g.x, g.y, g.width, g.height].join(' '))("+find+"[0].frameGeometry)")
	if _, err := fmt.Sscan(geo, &fx, &fy, &fw, &fh); err != nil || fw < 50 || fh < 50 {
		t.Fatalf("the native window's frame %q: %v", geo, err)
	}
	frame := image.Rect(fx, fy, fx+fw, fy+fh)
	var img *image.RGBA
	var lastErr error
	if !harness.WaitForOr(60*time.Second, func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		img, lastErr = look.Portal{Address: s.Bus}.CaptureContext(ctx, image.Rect(0, 0, 1920, 1080))
		return lastErr == nil && brightIn(img, frame) > frame.Dx()*frame.Dy()/2
	}) {
		t.Fatalf("no native window at %v in the portal's screenshot: %v", frame, lastErr)
	}
	if brightIn(img, image.Rect(0, 0, 1920, 1080))-brightIn(img, frame) > 1920*1080/4 {
		t.Fatal("the picture is bright outside the window too: no window told apart")
	}
}

// needKWinScreenShot skips the test where KWin takes no screenshots: the
// KDE portal asks KWin's org.kde.KWin.ScreenShot2, which KWin's
// screenshot effect serves, and that effect loads only under OpenGL
// compositing (KWin's src/plugins/screenshot/screenshot.cpp,
// ScreenShotEffect::supported). KWin's virtual backend has OpenGL only
// through a GPU's render node (/dev/dri); without one it composites
// with QPainter, and the portal answers every screenshot "cancelled".
func needKWinScreenShot(t *testing.T, s *harness.Session) {
	t.Helper()
	c := s.SessionConn(t)
	if harness.WaitForOr(10*time.Second, func() bool {
		var has bool
		if err := c.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, "org.kde.KWin.ScreenShot2").Store(&has); err == nil && has {
			return true
		}
		var xml string
		err := c.Object("org.kde.KWin", "/org/kde/KWin/ScreenShot2").Call("org.freedesktop.DBus.Introspectable.Introspect", 0).Store(&xml)
		return err == nil && strings.Contains(xml, "org.kde.KWin.ScreenShot2")
	}) {
		return
	}
	gpu := "no GPU render node (/dev/dri/renderD*)"
	if m, _ := filepath.Glob("/dev/dri/renderD*"); len(m) > 0 {
		gpu = "a GPU render node, but KWin did not composite with OpenGL"
	}
	t.Skipf("KWin serves no org.kde.KWin.ScreenShot2, which KDE's portal takes its screenshots through: KWin's screenshot effect needs OpenGL compositing, and this machine has %s", gpu)
}

// brightIn counts the light pixels of img in r.
func brightIn(img *image.RGBA, r image.Rectangle) int {
	n := 0
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := img.RGBAAt(x, y)
			if int(c.R)+int(c.G)+int(c.B) > 3*150 {
				n++
			}
		}
	}
	return n
}

// needKDEPortalQML skips the test where xdg-desktop-portal-kde cannot
// make its screenshot dialog: Debian 12's package does not depend on the
// QML modules its dialog imports, which a Plasma desktop brings along
// (the dialog object is made even for a screenshot without a dialog, and
// without them the backend dies and the portal answers 2). .ci/deps.sh
// installs them; Plasma's own dialogs module is testdata/qml's stand-in.
func needKDEPortalQML(t *testing.T) {
	t.Helper()
	for mod, pkg := range map[string]string{
		"org/kde/kirigami.2": "qml-module-org-kde-kirigami2",
		"QtQuick/Controls.2": "qml-module-qtquick-controls2",
		"QtQuick/Layouts":    "qml-module-qtquick-layouts",
		"QtQuick/Window.2":   "qml-module-qtquick-window2",
		"QtGraphicalEffects": "qml-module-qtgraphicaleffects",
	} {
		if m, _ := filepath.Glob(filepath.Join("/usr/lib/*/qt5/qml", mod)); len(m) == 0 {
			t.Skipf("KDE's portal backend needs the QML module %s (Debian's %s) for its screenshot dialog", mod, pkg)
		}
	}
}

// With Yui's GNOME Shell extension (installed by yui desktop setup before
// the shell starts) the active window is known: the portal's screenshot
// is taken with the private-window rule applied, and a native window
// whose title is private in front stops it.
func TestGnomePortalPrivateNative(t *testing.T) {
	s := harness.NewSession(t, "GNOME")
	s.GnomeShell(t, func(env []string) {
		cmd := exec.Command(filepath.Join(harness.BinDir(t), "yui"), "desktop", "setup")
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("yui desktop setup: %v\n%s", err, out)
		}
	})
	startPortal(t, s)
	s.Eval(t, "imports.ui.main.overview.hide()")
	s.Native(t, "Notes", "notes", "-o", "colors.background=ff00ff")
	notes := harness.GnomeWindow("Notes")
	harness.WaitFor(t, 30*time.Second, "the foot window in GNOME Shell", func() bool {
		return strings.Contains(s.Eval(t, "!!"+notes), "true")
	})
	srv, base := startLookServer(t)
	cfg := t.TempDir()
	writeLookSettings(t, cfg, base, "secretword")
	a := harness.StartYuiIn(t, s.Display, cfg, "")
	a.WaitRecord(60*time.Second, "screen_look_way", map[string]string{"way": "portal"})
	harness.WaitFor(t, 30*time.Second, "the extension's window facts", func() bool {
		return a.Count("desktop_compositor", map[string]string{"desktop": "gnome"}) > 0
	})

	s.Eval(t, notes+".activate(global.get_current_time())")
	res := lookNow(t, s, srv, cfg)
	if len(res.images) == 0 {
		t.Fatalf("look screen with Notes in front = %q", res.text)
	}
	if n := magentaIn(decodeDataURL(t, res.images[0], filepath.Join(harness.Artifacts(t), "notes.jpg"))); n < 50*50 {
		t.Fatalf("%d magenta pixels: no native window", n)
	}
	if a.Count("private_rule_not_applied", nil) != 0 {
		t.Fatal("the private-window rule was not applied although the extension tells the active window")
	}

	s.Native(t, "secretword vault", "vault")
	vault := harness.GnomeWindow("secretword vault")
	harness.WaitFor(t, 30*time.Second, "the private window in front", func() bool {
		s.Eval(t, "(w => w && w.activate(global.get_current_time()))("+vault+")")
		return strings.Contains(s.Eval(t, "(w => !!w && w.has_focus())("+vault+")"), "true")
	})
	if res := lookNow(t, s, srv, cfg); len(res.images) != 0 || !strings.Contains(res.text, "error: a private window is on the screen") {
		t.Fatalf("look screen with a private native window in front = %q (%d images)", res.text, len(res.images))
	}
}
