//go:build e2e

package xvfb

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
	"golang.org/x/text/encoding/japanese"

	"yui/cmd/yui/e2e/harness"
)

// A generated Shimeji set: 96x120 poses, each its own colour, a body
// block standing on the anchor and a nose block on its left (Shimeji
// poses face left), so a mirrored pose has its nose on the right. The
// anchors are not Shimeji's usual 64,128: 48,110 standing and 48,94
// sitting on an edge, whose legs hang 16 px below the feet.
var genPoses = []struct {
	file   string
	c      color.NRGBA
	anchor string
}{
	{"shime1.png", color.NRGBA{220, 30, 30, 255}, "48,110"},   // Stand
	{"shime2.png", color.NRGBA{30, 200, 30, 255}, "48,110"},   // Walk
	{"shime3.png", color.NRGBA{30, 30, 220, 255}, "48,110"},   // Walk
	{"shime11.png", color.NRGBA{220, 220, 30, 255}, "48,110"}, // Sit
	{"shime31.png", color.NRGBA{220, 30, 220, 255}, "48,94"},  // SitAndDangleLegs
	{"shime32.png", color.NRGBA{30, 220, 220, 255}, "48,94"},  // SitAndDangleLegs
	{"shime4.png", color.NRGBA{250, 140, 0, 255}, "48,110"},   // Falling
	{"shime18.png", color.NRGBA{140, 0, 250, 255}, "48,110"},  // Bouncing
	{"shime5.png", color.NRGBA{0, 120, 60, 255}, "48,110"},    // Resisting
	{"shime21.png", color.NRGBA{120, 60, 0, 255}, "48,110"},   // Sprawl
}

func genColour(file string) color.NRGBA {
	for _, p := range genPoses {
		if p.file == file {
			return p.c
		}
	}
	panic(file)
}

// genActions is the set's actions.xml: the walk moves 4 px a 40 ms tick
// (100 px/s).
func genActions() string {
	pose := func(file, anchor, vel string, ticks int) string {
		return fmt.Sprintf(`<Pose Image="/%s" ImageAnchor="%s" Velocity="%s" Duration="%d"/>`, file, anchor, vel, ticks)
	}
	action := func(name, typ string, poses ...string) string {
		return fmt.Sprintf(`<Action Name="%s" Type="%s"><Animation>%s</Animation></Action>`, name, typ, strings.Join(poses, ""))
	}
	return `<?xml version="1.0" encoding="UTF-8"?>
<Mascot xmlns="http://www.group-finity.com/Mascot"><ActionList>
` + action("Stand", "Stay", pose("shime1.png", "48,110", "0,0", 250)) + "\n" +
		action("Walk", "Move", pose("shime2.png", "48,110", "-4,0", 5), pose("shime3.png", "48,110", "-4,0", 5)) + "\n" +
		action("Sit", "Stay", pose("shime11.png", "48,110", "0,0", 250)) + "\n" +
		action("SitAndDangleLegs", "Stay", pose("shime31.png", "48,94", "0,0", 10), pose("shime32.png", "48,94", "0,0", 10)) + "\n" +
		action("Falling", "Embedded", pose("shime4.png", "48,110", "0,0", 250)) + "\n" +
		action("Bouncing", "Animate", pose("shime18.png", "48,110", "0,0", 8)) + "\n" +
		action("Resisting", "Embedded", pose("shime5.png", "48,110", "0,0", 5)) + "\n" +
		action("Sprawl", "Stay", pose("shime21.png", "48,110", "0,0", 250)) + `
</ActionList></Mascot>
`
}

// genJapanese is genActions in the original Shimeji's dialect.
func genJapanese() string {
	return strings.NewReplacer(
		"<Mascot", "<マスコット", "</Mascot>", "</マスコット>", "<ActionList>", "<動作リスト>", "</ActionList>", "</動作リスト>",
		"<Action ", "<動作 ", "</Action>", "</動作>", "<Animation>", "<アニメーション>", "</Animation>", "</アニメーション>",
		"<Pose ", "<ポーズ ", `Name="Stand"`, `名前="立つ"`, `Name="Walk"`, `名前="歩く"`, `Name="Sit"`, `名前="座る"`,
		`Name="SitAndDangleLegs"`, `名前="足をぶらぶらさせる"`, `Name="Falling"`, `名前="落ちる"`, `Name="Bouncing"`, `名前="跳ねる"`,
		`Name="Resisting"`, `名前="抵抗する"`, `Name="Sprawl"`, `名前="寝そべる"`, "Type=", "種類=",
		"ImageAnchor=", "基準座標=", "Image=", "画像=", "Velocity=", "移動速度=", "Duration=", "長さ=",
	).Replace(genActions())
}

// writeGenSet writes the set's images to imgDir and its actions to conf.
func writeGenSet(t *testing.T, imgDir, confFile, actions string) {
	t.Helper()
	for _, p := range genPoses {
		var ax, ay int
		fmt.Sscanf(p.anchor, "%d,%d", &ax, &ay)
		img := image.NewNRGBA(image.Rect(0, 0, 96, 120))
		fill := func(x0, y0, x1, y1 int) {
			for y := y0; y < y1; y++ {
				for x := x0; x < x1; x++ {
					img.SetNRGBA(x, y, p.c)
				}
			}
		}
		fill(ax-24, ay-80, ax+24, ay)    // body, standing on the anchor
		fill(ax-40, ay-60, ax-24, ay-44) // nose, to the left
		if ay < 110 {
			fill(ax-20, ay, ax+20, ay+16) // legs hanging below the anchor
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		mustWrite(t, filepath.Join(imgDir, p.file), buf.Bytes())
	}
	mustWrite(t, confFile, []byte(actions))
}

func mustWrite(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// packImport runs yui pack import and returns its exit code and output.
func packImport(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(harness.BinDir(t), "yui"), append([]string{"pack", "import"}, args...)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, strings.TrimSpace(out.String()), errOut.String()
}

// TestShimejiSetImportsAndRuns imports a generated set in both dialects,
// refuses bad sets, then runs Yui with it: idle, a walk to the right (the
// set's pace, mirrored), sitting on a window's edge, held, falling and
// landing, each shown with the mapped pose.
func TestShimejiSetImportsAndRuns(t *testing.T) {
	cfg, sets := t.TempDir(), t.TempDir()
	// Shimeji-ee layout, English configuration.
	ee := filepath.Join(sets, "ee")
	writeGenSet(t, filepath.Join(ee, "img", "Gen"), filepath.Join(ee, "conf", "actions.xml"), genActions())
	// The original's layout, Japanese configuration in Shift_JIS.
	jp := filepath.Join(sets, "original")
	sjis, err := japanese.ShiftJIS.NewEncoder().String(strings.Replace(genJapanese(), `encoding="UTF-8"`, `encoding="Shift_JIS"`, 1))
	if err != nil {
		t.Fatal(err)
	}
	writeGenSet(t, filepath.Join(jp, "img"), filepath.Join(jp, "conf", "動作.xml"), sjis)

	code, id, stderr := packImport(t, ee, "--config-dir", cfg)
	if code != 0 || id != "gen" {
		t.Fatalf("import ee: code %d, id %q, stderr %s", code, id, stderr)
	}
	code, jpID, stderr := packImport(t, jp, "--id", "gen-jp", "--config-dir", cfg)
	if code != 0 || jpID != "gen-jp" {
		t.Fatalf("import original: code %d, id %q, stderr %s", code, jpID, stderr)
	}
	// Both dialects make the same poses.
	for _, f := range []string{"pose-01.png", "pose-05.png", "pose-09.png"} {
		a, _ := os.ReadFile(filepath.Join(cfg, "characters", id, f))
		b, _ := os.ReadFile(filepath.Join(cfg, "characters", jpID, f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Fatalf("%s differs between the English and the Japanese import", f)
		}
	}

	// Bad sets: the reason, exit 1, nothing written.
	bad := func(name, want string, change func(dir string)) {
		dir := filepath.Join(sets, "bad-"+name)
		writeGenSet(t, filepath.Join(dir, "img"), filepath.Join(dir, "conf", "actions.xml"), genActions())
		change(dir)
		code, out, stderr := packImport(t, dir, "--config-dir", cfg)
		if code != 1 || out != "" || !strings.Contains(stderr, want) {
			t.Errorf("bad set %s: code %d, stdout %q, stderr %q; want the reason %q", name, code, out, stderr, want)
		}
		ents, _ := os.ReadDir(filepath.Join(cfg, "characters"))
		if len(ents) != 2 {
			t.Errorf("bad set %s left %d entries in characters/", name, len(ents))
		}
	}
	actionsOf := func(dir string) string { return filepath.Join(dir, "conf", "actions.xml") }
	bad("missing-image", "image shime3.png is missing", func(dir string) { os.Remove(filepath.Join(dir, "img", "shime3.png")) })
	bad("xml", "does not parse", func(dir string) { mustWrite(t, actionsOf(dir), []byte(genActions()[:300])) })
	bad("no-poses", "action Walk has no poses", func(dir string) {
		s := genActions()
		i := strings.Index(s, `<Action Name="Walk"`)
		j := strings.Index(s[i:], "</Action>") + i
		mustWrite(t, actionsOf(dir), []byte(s[:i]+`<Action Name="Walk" Type="Move"><Animation></Animation>`+s[j:]))
	})
	bad("escape", "leaves the set's folder", func(dir string) {
		mustWrite(t, actionsOf(dir), []byte(strings.Replace(genActions(), `"/shime4.png"`, `"/../../ee/img/Gen/shime4.png"`, 1)))
	})
	bad("huge", "images over 4096 px a side are refused", func(dir string) {
		var buf bytes.Buffer
		png.Encode(&buf, image.NewNRGBA(image.Rect(0, 0, 4100, 2)))
		mustWrite(t, filepath.Join(dir, "img", "shime4.png"), buf.Bytes())
	})

	runShimeji(t, cfg, id)
}

// Where the generated pack is drawn in the pet window: 96x136 (the
// legs hang 16 px under the feet at 110), centred in the 360 px window
// under the 150 px bubble area.
const (
	genW, genFeet = 96, 110
	genLeft       = (360 - genW) / 2
)

// poseAt reads the pose the pet window near win shows: the colour of
// its body, and whether its nose is on the right (mirrored). The pet is
// found in the screenshot itself along its rows (a walking pet has
// moved on by the time its frame is read back).
func poseAt(img image.Image, win image.Rectangle) (color.NRGBA, bool) {
	colourAt := func(x, y int) color.NRGBA {
		r, g, b, _ := img.At(x, y).RGBA()
		return color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 255}
	}
	// run is the widest span of row y in colour c.
	run := func(y int, c color.NRGBA) (int, int) {
		best0, best1, x0 := 0, 0, -1
		for x := max(win.Min.X-150, 0); x < min(win.Max.X+150, img.Bounds().Max.X)+1; x++ {
			in := x < img.Bounds().Max.X && near(colourAt(x, y), c)
			switch {
			case in && x0 < 0:
				x0 = x
			case !in && x0 >= 0:
				if x-x0 > best1-best0 {
					best0, best1 = x0, x
				}
				x0 = -1
			}
		}
		return best0, best1
	}
	y := win.Min.Y + 150 + 90 // a row through the body of every pose
	var body color.NRGBA
	for _, p := range genPoses {
		if b0, b1 := run(y, p.c); b1-b0 >= 40 {
			body = p.c
			// The nose row: 58 standing, 74 sitting on an edge.
			for _, ny := range []int{win.Min.Y + 150 + 58, win.Min.Y + 150 + 74} {
				if n0, n1 := run(ny, p.c); n1-n0 > b1-b0+8 {
					return body, n1 > b1
				}
			}
			return body, false
		}
	}
	return body, false
}

func near(a, b color.NRGBA) bool {
	d := func(x, y uint8) bool { return int(x)-int(y) < 12 && int(y)-int(x) < 12 }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B)
}

// poseCheck is a WaitShot check: the pet shows one of files' poses,
// mirrored or not as asked.
func poseCheck(win func() image.Rectangle, mirrored bool, files ...string) func(image.Image) error {
	return func(img image.Image) error {
		c, m := poseAt(img, win())
		for _, f := range files {
			if near(c, genColour(f)) && m == mirrored {
				return nil
			}
		}
		return fmt.Errorf("the pet shows colour %v (mirrored %v), want %v (mirrored %v)", c, m, files, mirrored)
	}
}

const shimejiScenario = `{"steps": [
  {"wait": "turn", "timeout_ms": 120000},
  {"send": {"type": "tool_call", "id": "c-walk-left", "turn_id": "{turn_id}", "name": "body_action", "arguments": {"action": "walk_to", "x": 500, "y": 0}}},
  {"wait": "tool_result", "timeout_ms": 30000},
  {"send": {"type": "tool_call", "id": "c-walk-right", "turn_id": "{turn_id}", "name": "body_action", "arguments": {"action": "walk_to", "x": 800, "y": 0}}},
  {"wait": "tool_result", "timeout_ms": 30000},
  {"send": {"type": "tool_call", "id": "c-sit", "turn_id": "{turn_id}", "name": "body_action", "arguments": {"action": "sit_on_window", "app": "Notes"}}},
  {"wait": "tool_result", "timeout_ms": 30000},
  {"send": {"type": "turn_end", "turn_id": "{turn_id}"}},
  {"wait": "turn", "timeout_ms": 600000}
]}`

func runShimeji(t *testing.T, cfg, id string) {
	d := harness.StartXvfb(t, 1280, 800)
	harness.StartWM(t, d)
	harness.Start(t, d.Env(), "xmessage", "-title", "Notes", "-geometry", "420x160+760+420", "Shopping: milk, eggs, tea")
	notesID := d.WindowID(t, "Notes")

	st := map[string]any{"version": 1, "active_preset": "p-shime0001", "presets": []any{map[string]any{
		"id": "p-shime0001", "name": "Yui", "enabled": true, "character": id, "gravity": true, "chat_api": "push", "chat_id": "yui-0000shim",
	}}}
	data, _ := json.Marshal(st)
	mustWrite(t, filepath.Join(cfg, "settings.json"), data)

	scen := filepath.Join(t.TempDir(), "shimeji.json")
	mustWrite(t, scen, []byte(shimejiScenario))
	s := harness.StartSim(t, harness.FreePort(t), "sim-key", scen)
	a := harness.StartYuiIn(t, d, cfg, "sim-key", "--chat-api", "push", "--chat-base-url", s.Url)
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	petID := d.WindowID(t, "Yui")
	win := func() image.Rectangle { return d.Frame(t, petID) }

	// Idle: the standing pose, facing left as drawn.
	d.WaitShot(t, "shimeji-idle", 15*time.Second, poseCheck(win, false, "shime1.png"))

	// Walk left to x 500 (the character's left edge), as drawn; then right
	// to x 800, mirrored, at the set's 100 px/s.
	ask(a, "walk please")
	leftSpeed := walkSeen(t, d, win, 500, false)
	rightSpeed := walkSeen(t, d, win, 800, true)
	t.Logf("walked left at %.0f px/s, then right at %.0f px/s", leftSpeed, rightSpeed)
	if rightSpeed < 60 || rightSpeed > 150 {
		t.Errorf("the pet walked at %.0f px/s, want the set's 100 px/s", rightSpeed)
	}

	// Sitting on Notes' top edge: the dangling poses, their legs over it.
	nr := d.Frame(t, notesID)
	harness.WaitFor(t, 20*time.Second, "the pet sitting on Notes", func() bool { return win().Min.Y+150+genFeet == nr.Min.Y })
	img := d.WaitShot(t, "shimeji-sit", 10*time.Second, func(img image.Image) error {
		c, _ := poseAt(img, win())
		if !near(c, genColour("shime31.png")) && !near(c, genColour("shime32.png")) {
			return fmt.Errorf("the pet on Notes shows %v, want the SitAndDangleLegs poses", c)
		}
		return nil
	})
	w := win()
	if c, _ := poseAt(img, w); !near(c, genColour("shime31.png")) && !near(c, genColour("shime32.png")) {
		t.Errorf("no legs hang over Notes' top edge")
	}
	legs := img.At(w.Min.X+genLeft+48, nr.Min.Y+8)
	if r, g, b, _ := legs.RGBA(); r>>8 < 200 || b>>8 < 200 || g>>8 > 60 && g>>8 < 200 {
		t.Errorf("the pixel 8 px under Notes' top edge is %v, want the legs hanging over it", legs)
	}

	// Held: the Resisting pose; dropped in mid-air: falling, then landing
	// on the floor.
	a.WaitRecord(20*time.Second, "push.turn_end", nil)
	w = win()
	grab := image.Pt(w.Min.X+genLeft+48, w.Min.Y+150+70)
	d.Run(t, "xdotool", "mousemove", "--sync", fmt.Sprint(grab.X), fmt.Sprint(grab.Y))
	d.Run(t, "xdotool", "mousedown", "1")
	for i := 1; i <= 6; i++ {
		d.Run(t, "xdotool", "mousemove", "--sync", fmt.Sprint(grab.X-(grab.X-300)*i/6), fmt.Sprint(grab.Y-(grab.Y-120)*i/6))
	}
	d.WaitShot(t, "shimeji-held", 5*time.Second, anyFacing(win, "shime5.png"))
	// The fall lasts under half a second: the screen is read a pixel at a
	// time (a screenshot takes longer), the shot kept once seen.
	px := newPixelReader(t, d)
	w = win()
	d.Run(t, "xdotool", "mouseup", "1")
	seen := map[string]bool{}
	end := time.Now().Add(5 * time.Second)
	for time.Now().Before(end) && !(seen["shime4.png"] && seen["shime18.png"]) {
		for _, c := range px.column(t, w.Min.X+genLeft+48) {
			for _, f := range []string{"shime4.png", "shime18.png"} {
				if near(c, genColour(f)) && !seen[f] {
					seen[f] = true
					d.Screenshot(t, "shimeji-"+map[string]string{"shime4.png": "fall", "shime18.png": "land"}[f])
				}
			}
		}
	}
	if !seen["shime4.png"] || !seen["shime18.png"] {
		t.Errorf("the drop showed falling %v and landing %v, want both (Falling and Bouncing)", seen["shime4.png"], seen["shime18.png"])
	}
	harness.WaitFor(t, 10*time.Second, "the pet on the floor", func() bool { return win().Min.Y+150+genFeet == 800 })
	d.WaitShot(t, "shimeji-landed", 10*time.Second, anyFacing(win, "shime1.png"))
}

// pixelReader reads columns of the screen straight from the X server,
// fast enough to see a fall.
type pixelReader struct {
	conn *xgb.Conn
	root xproto.Window
	h    int
}

func newPixelReader(t *testing.T, d *harness.Display) *pixelReader {
	t.Helper()
	conn, err := xgb.NewConnDisplay(d.Name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	scr := xproto.Setup(conn).DefaultScreen(conn)
	return &pixelReader{conn: conn, root: scr.Root, h: int(scr.HeightInPixels)}
}

// column returns the screen's pixels at x, top to bottom.
func (p *pixelReader) column(t *testing.T, x int) []color.NRGBA {
	t.Helper()
	r, err := xproto.GetImage(p.conn, xproto.ImageFormatZPixmap, xproto.Drawable(p.root), int16(x), 0, 1, uint16(p.h), 0xffffffff).Reply()
	if err != nil {
		t.Fatal(err)
	}
	out := make([]color.NRGBA, 0, p.h)
	for i := 0; i+3 < len(r.Data); i += 4 { // BGRX at depth 24
		out = append(out, color.NRGBA{r.Data[i+2], r.Data[i+1], r.Data[i], 255})
	}
	return out
}

// walkSeen follows a walk until the character's left edge reaches x:
// it checks a screenshot shows the walk poses facing the way it goes,
// and returns the pace it went at (pixels a second).
func walkSeen(t *testing.T, d *harness.Display, win func() image.Rectangle, x int, right bool) float64 {
	t.Helper()
	type sample struct {
		x  int
		at time.Time
	}
	// ahead is how far the character still has to go.
	ahead := func(wx int) int {
		if right {
			return x - (wx + genLeft)
		}
		return (wx + genLeft) - x
	}
	start := win()
	startX := start.Min.X
	var walk []sample // the positions on the way, each when first seen
	shot := false
	end := time.Now().Add(30 * time.Second)
	prev, still := startX, time.Now()
	for time.Now().Before(end) {
		w := win()
		a := ahead(w.Min.X)
		// Arrived, turned back for the next walk, jumped off the floor
		// or stopped: the walk is over.
		if a <= 0 || a > ahead(prev) || w.Min.Y != start.Min.Y || (len(walk) > 0 && time.Since(still) > 1500*time.Millisecond) {
			break
		}
		if w.Min.X != prev {
			prev, still = w.Min.X, time.Now()
			walk = append(walk, sample{w.Min.X, still})
			if !shot {
				shot = true
				name := map[bool]string{false: "shimeji-walk-left", true: "shimeji-walk-right"}[right]
				d.WaitShot(t, name, 3*time.Second, poseCheck(win, right, "shime2.png", "shime3.png"))
				still = time.Now()
			}
		}
	}
	if len(walk) > 0 {
		t.Logf("walk to %d: the window at %v, %d samples from x %d to %d", x, win(), len(walk), walk[0].x, walk[len(walk)-1].x)
	}
	if !shot || len(walk) < 2 {
		t.Fatalf("no walk to x %d seen (the pet stays at %d)", x, win().Min.X+genLeft)
	}
	first, last := walk[0], walk[len(walk)-1]
	dx := last.x - first.x
	if dx < 0 {
		dx = -dx
	}
	return float64(dx) / last.at.Sub(first.at).Seconds()
}

// anyFacing is poseCheck either way round.
func anyFacing(win func() image.Rectangle, files ...string) func(image.Image) error {
	return func(img image.Image) error {
		if err := poseCheck(win, false, files...)(img); err == nil {
			return nil
		}
		return poseCheck(win, true, files...)(img)
	}
}

// dragTo drags the pet by its body so that the character's left edge is
// at x and its feet at feet, then lets go.
func dragTo(t *testing.T, d *harness.Display, petID string, x, feet int) {
	t.Helper()
	w := d.Frame(t, petID)
	grab := image.Pt(w.Min.X+genLeft+48, w.Min.Y+150+70)
	to := image.Pt(x+48, feet-genFeet+70)
	d.Run(t, "xdotool", "mousemove", "--sync", fmt.Sprint(grab.X), fmt.Sprint(grab.Y))
	d.Run(t, "xdotool", "mousedown", "1")
	for i := 1; i <= 6; i++ {
		d.Run(t, "xdotool", "mousemove", "--sync", fmt.Sprint(grab.X+(to.X-grab.X)*i/6), fmt.Sprint(grab.Y+(to.Y-grab.Y)*i/6))
	}
	d.Run(t, "xdotool", "mouseup", "1")
}
