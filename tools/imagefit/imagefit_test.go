package imagefit

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"yui/transport"
)

// screenshot draws a deterministic screen-like image: a desktop gradient,
// windows with title bars and lines of glyph-like marks, and a noisy
// photo-like area, so JPEG sizes resemble those of real screen captures.
func screenshot(w, h int, seed uint64) *image.RGBA {
	r := rand.New(rand.NewPCG(seed, 1))
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			i := m.PixOffset(x, y)
			m.Pix[i] = uint8(40 + 60*y/h)
			m.Pix[i+1] = uint8(80 + 40*x/w)
			m.Pix[i+2] = 140
			m.Pix[i+3] = 255
		}
	}
	fill := func(r image.Rectangle, c color.RGBA) {
		r = r.Intersect(m.Rect)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				m.SetRGBA(x, y, c)
			}
		}
	}
	for range 6 {
		x0, y0 := r.IntN(w*2/3), r.IntN(h*2/3)
		win := image.Rect(x0, y0, x0+w/4+r.IntN(w/3), y0+h/4+r.IntN(h/3))
		fill(win, color.RGBA{250, 250, 250, 255})
		fill(image.Rect(win.Min.X, win.Min.Y, win.Max.X, win.Min.Y+28), color.RGBA{220, 220, 228, 255})
		// Lines of text: 7x12 glyph cells with random strokes.
		for ly := win.Min.Y + 40; ly+14 < win.Max.Y; ly += 18 {
			lineEnd := win.Min.X + 12 + r.IntN(win.Dx())
			for gx := win.Min.X + 12; gx+8 < min(lineEnd, win.Max.X-12); gx += 8 {
				if r.IntN(7) == 0 {
					continue // a space
				}
				for py := range 12 {
					for px := range 7 {
						if r.IntN(3) == 0 {
							m.SetRGBA(gx+px, ly+py, color.RGBA{20, 20, 30, 255})
						}
					}
				}
			}
		}
	}
	// A photo-like area.
	for y := h / 2; y < h*3/4; y++ {
		for x := w / 2; x < w*3/4; x++ {
			v := uint8(r.IntN(60))
			m.SetRGBA(x, y, color.RGBA{100 + v, 60 + v, 30 + v/2, 255})
		}
	}
	return m
}

func pngBytes(t testing.TB, m image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// arraySize is the JSON-encoded size of urls.
func arraySize(t testing.TB, urls []string) int {
	t.Helper()
	b, err := json.Marshal(urls)
	if err != nil {
		t.Fatal(err)
	}
	return len(b)
}

func decodeURL(t *testing.T, u string) (string, image.Image) {
	t.Helper()
	mime, data, ok := strings.Cut(strings.TrimPrefix(u, "data:"), ";base64,")
	if !ok {
		t.Fatalf("not a data URL: %.40s", u)
	}
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := image.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: %v", mime, err)
	}
	return mime, m
}

func TestFitKeepsSmallImages(t *testing.T) {
	small := pngBytes(t, screenshot(64, 48, 1))
	imgs := []transport.Image{{MIME: "image/png", Data: small}, {MIME: "image/png", Data: small}}
	urls, ok := Fit(imgs, 1<<20)
	if !ok || len(urls) != 2 {
		t.Fatalf("Fit = %d urls, %v", len(urls), ok)
	}
	want := "data:image/png;base64," + base64.StdEncoding.EncodeToString(small)
	if urls[0] != want || urls[1] != want {
		t.Error("small images were re-encoded")
	}
	// Exactly the room it needs still keeps them.
	if _, ok := Fit(imgs, arraySize(t, urls)); !ok {
		t.Error("does not fit in its own size")
	}
}

func TestFitReencodes(t *testing.T) {
	big := pngBytes(t, screenshot(800, 500, 2))
	small := pngBytes(t, screenshot(64, 48, 3))
	imgs := []transport.Image{{MIME: "image/png", Data: big}, {Data: small}}
	for _, room := range []int{200 << 10, 50 << 10, 12 << 10, 4 << 10} {
		urls, ok := Fit(imgs, room)
		if !ok || len(urls) != 2 {
			t.Fatalf("room %d: %d urls, %v", room, len(urls), ok)
		}
		if n := arraySize(t, urls); n > room {
			t.Errorf("room %d: array takes %d", room, n)
		}
		mime, m := decodeURL(t, urls[0])
		if mime != "image/jpeg" {
			t.Errorf("room %d: big image kept as %s", room, mime)
		}
		// The aspect ratio survives shrinking.
		if b := m.Bounds(); b.Dx()*10 < b.Dy()*15 || b.Dx()*10 > b.Dy()*17 {
			t.Errorf("room %d: re-encoded to %v", room, b)
		}
		if mime, _ := decodeURL(t, urls[1]); mime != "image/png" {
			t.Errorf("room %d: small image re-encoded as %s", room, mime)
		}
	}
}

func TestFitNothingFits(t *testing.T) {
	big := pngBytes(t, screenshot(800, 600, 4))
	if urls, ok := Fit([]transport.Image{{MIME: "image/png", Data: big}}, 500); ok {
		t.Errorf("Fit into 500 bytes = %d urls, ok", len(urls))
	}
	if _, ok := Fit([]transport.Image{{MIME: "image/png", Data: []byte("not an image at all")}}, 10); ok {
		t.Error("undecodable image reported as fitting")
	}
	// An undecodable image that must be re-encoded is left out, the rest kept.
	urls, ok := Fit([]transport.Image{{MIME: "image/png", Data: bytes.Repeat([]byte{1}, 1<<16)}, {MIME: "image/png", Data: big}}, 40<<10)
	if !ok || len(urls) != 1 {
		t.Fatalf("Fit = %d urls, %v", len(urls), ok)
	}
	if urls, ok := Fit(nil, 2); !ok || len(urls) != 0 {
		t.Errorf("Fit(nil) = %v, %v", urls, ok)
	}
}

func TestFitDeterministic(t *testing.T) {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, screenshot(600, 400, 5), &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	imgs := []transport.Image{{MIME: "image/jpeg", Data: b.Bytes()}}
	first, _ := Fit(imgs, 60<<10)
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			again, _ := Fit(imgs, 60<<10)
			if len(again) != 1 || again[0] != first[0] {
				t.Error("Fit is not deterministic")
			}
		})
	}
	wg.Wait()
}

func TestFitTransparent(t *testing.T) {
	m := image.NewNRGBA(image.Rect(0, 0, 600, 400))
	for i := range m.Pix {
		if i%4 == 3 {
			m.Pix[i] = uint8(i)
		} else {
			m.Pix[i] = uint8(i * 7)
		}
	}
	urls, ok := Fit([]transport.Image{{MIME: "image/png", Data: pngBytes(t, m)}}, 30<<10)
	if !ok {
		t.Fatal("does not fit")
	}
	decodeURL(t, urls[0])
}

func TestFit4K(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("4K encode is slow in short and race mode")
	}
	data := pngBytes(t, screenshot(3840, 2160, 7))
	urls, ok := Fit([]transport.Image{{MIME: "image/png", Data: data}}, 256<<10)
	if !ok {
		t.Fatal("a 4K screenshot does not fit 256 KiB")
	}
	if n := arraySize(t, urls); n > 256<<10 {
		t.Errorf("array takes %d", n)
	}
	_, m := decodeURL(t, urls[0])
	t.Logf("4K screenshot (%d bytes PNG) fitted as %v, %d bytes", len(data), m.Bounds().Size(), len(urls[0]))
}

func BenchmarkFit3840x2160Into256KiB(b *testing.B) {
	data := pngBytes(b, screenshot(3840, 2160, 7))
	imgs := []transport.Image{{MIME: "image/png", Data: data}}
	b.ResetTimer()
	for b.Loop() {
		if _, ok := Fit(imgs, 256<<10); !ok {
			b.Fatal("does not fit")
		}
	}
}
