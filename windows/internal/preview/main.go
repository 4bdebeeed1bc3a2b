// Command preview shows the pet window with a hand-made View and a
// placeholder character, for looking at the window without a backend:
//
//	go run ./windows/internal/preview --view talking   # idle, talking, thinking, busy (long texts)
package main

import (
	"flag"
	"image"
	"image/color"
	"log/slog"
	"math"
	"os"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"

	"yui/pet"
	"yui/pet/character"
	"yui/transport"
	"yui/windows/petwindow"
	"yui/windows/widgets"
)

func main() {
	which := flag.String("view", "idle", "idle, talking, thinking, sleepy or busy")
	placeholder := flag.Bool("placeholder", false, "draw a placeholder blob instead of the default character")
	flag.Parse()
	log := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))

	a := fyneapp.NewWithID("io.github.yui.preview")
	a.Settings().SetTheme(widgets.Theme())
	pack := placeholderPack()
	if !*placeholder {
		pack = character.Default()
	}
	f := &fake{}
	pw, err := petwindow.New(a, petwindow.Options{
		Name: "Yui", Pack: pack, Actions: f, Poke: true,
		Host: previewHost{a}, Logger: log,
	})
	if err != nil {
		log.Error("preview", "err", err)
		os.Exit(1)
	}
	f.w = pw
	v := pet.View{Emotion: "neutral", Motion: "idle", Pill: pet.Pill{Conn: "ready", ConnState: transport.StateReady}}
	switch *which {
	case "talking":
		v.Emotion, v.Motion = "happy", "talk"
		v.Bubble = "All green! The slow tests are the two network ones; want me to list them?"
		v.EmotionText, v.Caption = "😆", "grinning"
	case "thinking":
		v.Motion, v.Plate, v.Running = "thinking", "thinking", true
		v.Pill.Tool = "read_file running"
	case "sleepy": // the user away a while (pet.Controller.SetSleepy)
		v.Emotion = "sleepy"
	case "busy":
		v.Delegations = []transport.Delegation{{ID: "d1", Title: "Sort the regression test list", State: "running", StartedAt: time.Now().UnixMilli()}}
		v.ErrorLine = "Provider returned 429: rate limit reached for model gpt-something in organization org-abc on tokens per min (TPM): Limit 30000, Used 29000, Requested 2000. Please try again in 2s."
		v.Caption = "a long caption that goes on and on to see where it wraps around"
		v.Pill.Tool = "some_very_long_tool_name_for_testing running"
	}
	f.v = v
	// As the app does: once shown, the window knows the size it draws the
	// character at, and keeps the pack scaled and packed to that size.
	pw.Show()
	w, h := pw.CharacterPixels()
	pw.SetPack(petwindow.ScaledPack(pack, w, h))
	pw.SetView(v)
	a.Run()
	pw.Close()
}

// fake answers each typed turn by echoing it after a second of thinking.
type fake struct {
	mu sync.Mutex
	w  *petwindow.PetWindow
	v  pet.View
}

func (f *fake) SendText(text string, _ []transport.Image) {
	f.mu.Lock()
	f.v.Running, f.v.Plate, f.v.Motion, f.v.Bubble = true, "thinking", "thinking", ""
	f.w.SetView(f.v)
	f.mu.Unlock()
	time.AfterFunc(1500*time.Millisecond, func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.v.Running, f.v.Plate, f.v.Motion, f.v.Emotion, f.v.Bubble = false, "", "talk", "happy", "You said: "+text
		f.w.SetView(f.v)
	})
}

func (f *fake) Poke() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.v.Emotion, f.v.Motion, f.v.Bubble = "surprised", "", "Hey!"
	f.w.SetView(f.v)
}

func (f *fake) Pat() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.v.Emotion = "happy"
	f.w.SetView(f.v)
}

func (f *fake) Busy() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.v.Running
}

func (f *fake) Stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.v.Running, f.v.Plate = false, ""
	f.w.SetView(f.v)
}

// placeholderPack draws a round blob at 2x: a body, eyes and a mouth.
func placeholderPack() *character.Pack {
	draw := func(mouth float64, eyeY float64, bob float64) image.Image {
		const w, h = 384, 512
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		cx, cy, r := 192.0, 300.0+bob, 150.0
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				dx, dy := float64(x)-cx, (float64(y)-cy)*1.1
				d := math.Hypot(dx, dy)
				switch {
				case d < r-8:
					img.Set(x, y, color.NRGBA{0xf6, 0xc8, 0xd8, 0xff})
				case d < r:
					img.Set(x, y, color.NRGBA{0xb0, 0x60, 0x80, 0xff})
				case d < r+3:
					img.Set(x, y, color.NRGBA{0xb0, 0x60, 0x80, 0x80})
				}
				for _, ex := range []float64{-50, 50} {
					if math.Hypot(float64(x)-(cx+ex), float64(y)-(cy-30+eyeY)) < 16 {
						img.Set(x, y, color.NRGBA{0x30, 0x20, 0x30, 0xff})
					}
				}
				if mouth > 0 && math.Abs(float64(x)-cx) < 30 && float64(y) > cy+30 && float64(y) < cy+30+mouth {
					img.Set(x, y, color.NRGBA{0x80, 0x20, 0x40, 0xff})
				}
			}
		}
		return img
	}
	neutral, happy, open := draw(4, 0, 0), draw(10, -4, 0), draw(24, 0, 0)
	up := draw(4, -14, 0)
	return &character.Pack{
		ID: "placeholder", Name: "Yui", Size: [2]int{192, 256},
		Emotions: map[string]image.Image{"neutral": neutral, "happy": happy, "surprised": open},
		Motions: map[string]character.Motion{
			"idle":     {Frames: []image.Image{neutral, draw(4, 0, 4)}, FPS: 2, Loop: true},
			"talk":     {Frames: []image.Image{happy, open}, FPS: 6, Loop: true},
			"thinking": {Frames: []image.Image{up}, FPS: 4, Loop: true},
		},
		EmotionTextMode: "enum",
		EmotionTextMap:  map[string]string{"😆": "joyfully"},
	}
}

// previewHost quits from the menu; the preview has no other windows.
type previewHost struct{ a fyne.App }

func (h previewHost) OpenMessages()    {}
func (h previewHost) OpenSettings()    {}
func (h previewHost) Quit()            { h.a.Quit() }
func (h previewHost) OpenPermissions() {}
func (h previewHost) ShortcutPressed() {}
func (h previewHost) PetGrabbed()      {}
func (h previewHost) PetDropped()      {}
func (h previewHost) MonitorsChanged() {}
