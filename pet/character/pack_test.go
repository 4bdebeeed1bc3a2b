package character

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func pngBytes(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// validManifest is a small valid pack's character.json as a map, so tests
// can break one field at a time.
func validManifest() map[string]any {
	motion := func(frames ...string) map[string]any {
		fs := make([]any, len(frames))
		for i, f := range frames {
			fs[i] = f
		}
		return map[string]any{"frames": fs, "fps": 6, "loop": true}
	}
	return map[string]any{
		"id":   "mochi",
		"name": "Mochi",
		"size": []any{16, 16},
		"emotions": map[string]any{
			"neutral": "a.png",
			"happy":   "img/b.png",
		},
		"motions": map[string]any{
			"idle":     motion("a.png", "img/b.png"),
			"thinking": motion("a.png"),
			"talk":     motion("a.png"),
			"walk":     motion("a.png"),
			"sit":      motion("a.png"),
			"fall":     motion("a.png"),
		},
		"emotion_text_mode": "enum",
		"emotion_text_map":  map[string]any{"😆": "joyfully"},
		"filler_lines":      []any{"Hmm."},
		"failure_lines":     []any{"Oops."},
	}
}

func packFS(t testing.TB, m map[string]any) fstest.MapFS {
	t.Helper()
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return fstest.MapFS{
		"character.json": {Data: data},
		"a.png":          {Data: pngBytes(t, 8, 8)},
		"img/b.png":      {Data: pngBytes(t, 8, 8)},
	}
}

func TestLoadValid(t *testing.T) {
	p, err := Load(packFS(t, validManifest()))
	if err != nil {
		t.Fatal(err)
	}
	if p.ID != "mochi" || p.Name != "Mochi" || p.Size != [2]int{16, 16} {
		t.Errorf("got id %q name %q size %v", p.ID, p.Name, p.Size)
	}
	if p.ImageSize != image.Pt(8, 8) {
		t.Errorf("ImageSize = %v, want 8x8", p.ImageSize)
	}
	if len(p.Motions["idle"].Frames) != 2 || p.Motions["idle"].FPS != 6 || !p.Motions["idle"].Loop {
		t.Errorf("idle = %+v", p.Motions["idle"])
	}
	if _, ok := p.Emotions["happy"].(*image.NRGBA); !ok {
		t.Errorf("happy is %T, want *image.NRGBA", p.Emotions["happy"])
	}
	v := p.Vocabulary()
	if !slices.Equal(v.EmotionIDs, []string{"happy", "neutral"}) {
		t.Errorf("EmotionIDs = %v", v.EmotionIDs)
	}
	if !slices.Equal(v.MotionIDs, []string{"fall", "idle", "sit", "talk", "thinking", "walk"}) {
		t.Errorf("MotionIDs = %v", v.MotionIDs)
	}
	if v.EmotionTextMode != "enum" || v.EmotionTextMap["😆"] != "joyfully" {
		t.Errorf("vocabulary mode %q map %v", v.EmotionTextMode, v.EmotionTextMap)
	}
	v.EmotionTextMap["x"] = "y"
	if _, ok := p.EmotionTextMap["x"]; ok {
		t.Error("Vocabulary shares its map with the pack")
	}
}

func TestLoadFreeModeDefault(t *testing.T) {
	m := validManifest()
	delete(m, "emotion_text_mode")
	delete(m, "emotion_text_map")
	p, err := Load(packFS(t, m))
	if err != nil {
		t.Fatal(err)
	}
	if p.EmotionTextMode != "free" {
		t.Errorf("mode = %q, want free", p.EmotionTextMode)
	}
	if v := p.Vocabulary(); v.EmotionTextMap == nil {
		t.Error("vocabulary map is nil, want empty")
	}
}

func TestLoadRefusals(t *testing.T) {
	jpg := func() []byte {
		var buf bytes.Buffer
		img := image.NewRGBA(image.Rect(0, 0, 8, 8))
		img.Set(1, 1, color.White)
		if err := jpeg.Encode(&buf, img, nil); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}()
	tests := []struct {
		name   string
		edit   func(m map[string]any, fs fstest.MapFS)
		reason string
	}{
		{"no manifest", func(_ map[string]any, fs fstest.MapFS) { delete(fs, "character.json") }, "character.json: file does not exist"},
		{"bad json", func(_ map[string]any, fs fstest.MapFS) {
			fs["character.json"] = &fstest.MapFile{Data: []byte("{\n  \"id\": \"x\",\n}")}
		}, "not valid JSON (line 3"},
		{"wrong type", func(_ map[string]any, fs fstest.MapFS) {
			fs["character.json"] = &fstest.MapFile{Data: []byte(`{"id": 3}`)}
		}, "character.json: json: cannot unmarshal"},
		{"no id", func(m map[string]any, _ fstest.MapFS) { delete(m, "id") }, `"id" is missing`},
		{"bad id", func(m map[string]any, _ fstest.MapFS) { m["id"] = "../evil" }, `"id" "../evil" must be`},
		{"no name", func(m map[string]any, _ fstest.MapFS) { m["name"] = "  " }, `"name" is missing`},
		{"no size", func(m map[string]any, _ fstest.MapFS) { delete(m, "size") }, `"size" must be [width, height], got 0`},
		{"size 3", func(m map[string]any, _ fstest.MapFS) { m["size"] = []any{1, 2, 3} }, "got 3 numbers"},
		{"size small", func(m map[string]any, _ fstest.MapFS) { m["size"] = []any{192, 2} }, `"size" height 2 is outside`},
		{"size huge", func(m map[string]any, _ fstest.MapFS) { m["size"] = []any{99999, 200} }, `"size" width 99999 is outside`},
		{"no emotions", func(m map[string]any, _ fstest.MapFS) { delete(m, "emotions") }, `"emotions" is missing or empty`},
		{"no neutral", func(m map[string]any, _ fstest.MapFS) { m["emotions"] = map[string]any{"happy": "a.png"} }, `"emotions" has no "neutral"`},
		{"bad emotion id", func(m map[string]any, _ fstest.MapFS) { m["emotions"].(map[string]any)["hap py"] = "a.png" }, `emotion id "hap py"`},
		{"missing motion", func(m map[string]any, _ fstest.MapFS) { delete(m["motions"].(map[string]any), "sit") }, `"motions" has no "sit"`},
		{"null motion", func(m map[string]any, _ fstest.MapFS) { m["motions"].(map[string]any)["walk"] = nil }, `"motions" has no "walk"`},
		{"no frames", func(m map[string]any, _ fstest.MapFS) {
			m["motions"].(map[string]any)["walk"].(map[string]any)["frames"] = []any{}
		}, "motion walk: no frames"},
		{"no fps", func(m map[string]any, _ fstest.MapFS) {
			delete(m["motions"].(map[string]any)["walk"].(map[string]any), "fps")
		}, `motion walk: "fps" is missing`},
		{"fps zero", func(m map[string]any, _ fstest.MapFS) {
			m["motions"].(map[string]any)["walk"].(map[string]any)["fps"] = 0
		}, `motion walk: "fps" 0 is outside`},
		{"fps high", func(m map[string]any, _ fstest.MapFS) {
			m["motions"].(map[string]any)["walk"].(map[string]any)["fps"] = 1000
		}, `"fps" 1000 is outside`},
		{"bad mode", func(m map[string]any, _ fstest.MapFS) { m["emotion_text_mode"] = "loose" }, `"emotion_text_mode" "loose" must be "free" or "enum"`},
		{"enum without map", func(m map[string]any, _ fstest.MapFS) { delete(m, "emotion_text_map") }, `"emotion_text_map" is empty`},
		{"empty map word", func(m map[string]any, _ fstest.MapFS) { m["emotion_text_map"] = map[string]any{"👂": ""} }, "empty tag or word"},
		{"empty filler", func(m map[string]any, _ fstest.MapFS) { m["filler_lines"] = []any{"ok", " "} }, `"filler_lines" line 2 is empty`},
		{"traversal", func(m map[string]any, _ fstest.MapFS) { m["emotions"].(map[string]any)["neutral"] = "../x.png" }, `emotion neutral: image path "../x.png" must stay inside`},
		{"inner traversal", func(m map[string]any, _ fstest.MapFS) { m["emotions"].(map[string]any)["neutral"] = "img/../../x.png" }, "must stay inside"},
		{"absolute", func(m map[string]any, _ fstest.MapFS) { m["emotions"].(map[string]any)["neutral"] = "/etc/x.png" }, "must be relative"},
		{"windows absolute", func(m map[string]any, _ fstest.MapFS) { m["emotions"].(map[string]any)["neutral"] = `C:\x.png` }, "must be relative"},
		{"backslash", func(m map[string]any, _ fstest.MapFS) { m["emotions"].(map[string]any)["neutral"] = `..\x.png` }, "must be relative"},
		{"empty path", func(m map[string]any, _ fstest.MapFS) { m["emotions"].(map[string]any)["neutral"] = "" }, "image path is empty"},
		{"not png name", func(m map[string]any, _ fstest.MapFS) { m["emotions"].(map[string]any)["neutral"] = "a.jpg" }, `image "a.jpg" is not a .png file`},
		{"frame traversal", func(m map[string]any, _ fstest.MapFS) {
			m["motions"].(map[string]any)["talk"].(map[string]any)["frames"] = []any{"a.png", "../../b.png"}
		}, "motion talk frame 1: image path"},
		{"missing image", func(m map[string]any, _ fstest.MapFS) { m["emotions"].(map[string]any)["happy"] = "nope.png" }, "emotion happy: image nope.png: file does not exist"},
		{"jpeg as png", func(_ map[string]any, fs fstest.MapFS) { fs["img/b.png"] = &fstest.MapFile{Data: jpg} }, "image img/b.png is not a PNG file"},
		{"corrupt png", func(_ map[string]any, fs fstest.MapFS) {
			b := pngBytes(t, 8, 8)
			fs["img/b.png"] = &fstest.MapFile{Data: b[:len(b)/2]}
		}, "image img/b.png:"},
		{"huge png", func(_ map[string]any, fs fstest.MapFS) { fs["img/b.png"] = &fstest.MapFile{Data: pngBytes(t, 5000, 1)} }, "is 5000x1; each side must be 1..4096"},
		{"big file", func(_ map[string]any, fs fstest.MapFS) {
			fs["img/b.png"] = &fstest.MapFile{Data: append(pngBytes(t, 8, 8), make([]byte, MaxImageBytes)...)}
		}, "larger than 16 MiB"},
		{"mixed sizes", func(_ map[string]any, fs fstest.MapFS) { fs["img/b.png"] = &fstest.MapFile{Data: pngBytes(t, 8, 9)} }, "all images must be the same size"},
		{"huge card", func(m map[string]any, _ fstest.MapFS) { m["card"] = strings.Repeat("x", MaxCardLen+1) }, `"card" has 8001 characters`},
		{"speech rate", func(m map[string]any, _ fstest.MapFS) { m["speech"] = map[string]any{"rate": 9} }, `"speech" "rate" 9 is outside`},
		{"speech engine", func(m map[string]any, _ fstest.MapFS) {
			m["speech"] = map[string]any{"voices": map[string]any{"festival": "x"}}
		}, `names engine "festival"`},
		{"folder as image", func(m map[string]any, _ fstest.MapFS) { m["emotions"].(map[string]any)["happy"] = "img.png" }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := validManifest()
			fsys := packFS(t, m)
			tt.edit(m, fsys)
			if _, ok := fsys["character.json"]; ok && !strings.HasPrefix(tt.name, "bad json") && tt.name != "wrong type" {
				data, err := json.Marshal(m)
				if err != nil {
					t.Fatal(err)
				}
				fsys["character.json"] = &fstest.MapFile{Data: data}
			}
			if tt.name == "folder as image" {
				fsys["img.png/x"] = &fstest.MapFile{Data: []byte("x")}
			}
			p, err := Load(fsys)
			if err == nil {
				t.Fatalf("Load succeeded with %+v, want error %q", p.ID, tt.reason)
			}
			if !strings.HasPrefix(err.Error(), "load pack") {
				t.Errorf("error %q does not start with \"load pack\"", err)
			}
			if !strings.Contains(err.Error(), tt.reason) {
				t.Errorf("error %q does not contain %q", err, tt.reason)
			}
			// The quick load refuses the same packs for the same reason
			// (quick.go): at once, or, for an image corrupt past a valid
			// header outside the first frame (the idle motion's second
			// frame here), in Rest.
			q, qerr := LoadQuick(fsys)
			if qerr == nil && tt.name == "corrupt png" {
				_, qerr = q.Rest()
			}
			if qerr == nil || qerr.Error() != err.Error() {
				t.Errorf("LoadQuick error %v, Load's %q", qerr, err)
			}
		})
	}
}

func TestLoadErrorNamesPack(t *testing.T) {
	m := validManifest()
	delete(m["motions"].(map[string]any), "fall")
	_, err := Load(packFS(t, m))
	if err == nil || !strings.HasPrefix(err.Error(), "load pack mochi: ") {
		t.Fatalf("err = %v, want it to start with \"load pack mochi: \"", err)
	}
}

func TestDefault(t *testing.T) {
	p := Default()
	if p.ID != DefaultID || p.Name != "Yui" {
		t.Errorf("default pack %q %q", p.ID, p.Name)
	}
	if p.Size != [2]int{192, 256} {
		t.Errorf("size %v", p.Size)
	}
	if p.ImageSize != image.Pt(2*p.Size[0], 2*p.Size[1]) {
		t.Errorf("images are %v, want 2x the logical size %v", p.ImageSize, p.Size)
	}
	for _, e := range []string{"neutral", "happy", "sad", "angry", "surprised", "curious", "sleepy", "embarrassed"} {
		if p.Emotions[e] == nil {
			t.Errorf("emotion %s missing", e)
		}
	}
	for _, m := range RequiredMotions {
		if len(p.Motions[m].Frames) == 0 {
			t.Errorf("motion %s missing", m)
		}
	}
	if len(p.Motions["idle"].Frames) < 4 {
		t.Errorf("idle has %d frames", len(p.Motions["idle"].Frames))
	}
	if p.EmotionTextMode != "enum" || len(p.EmotionTextMap) < 4 {
		t.Errorf("emotion text %q %v", p.EmotionTextMode, p.EmotionTextMap)
	}
	if len(p.FillerLines) == 0 || len(p.FailureLines) == 0 {
		t.Error("default pack has no filler or failure lines")
	}
	// The shaped window keeps pixels with alpha above 50%: the character
	// must be a solid shape there, and the corners must be clear.
	img := p.Emotions["neutral"].(*image.NRGBA)
	if a := img.NRGBAAt(img.Rect.Dx()/2, img.Rect.Dy()*3/4).A; a != 255 {
		t.Errorf("body centre alpha %d, want opaque", a)
	}
	if a := img.NRGBAAt(0, 0).A; a != 0 {
		t.Errorf("corner alpha %d, want transparent", a)
	}
	// Each call is a fresh copy.
	q := Default()
	q.Emotions["neutral"] = nil
	if p.Emotions["neutral"] == nil {
		t.Error("Default shares its maps between calls")
	}
}

func writePack(t *testing.T, dir string, m map[string]any) {
	t.Helper()
	for name, f := range packFS(t, m) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSelect(t *testing.T) {
	cfg := t.TempDir()
	writePack(t, Dir(cfg, "mochi"), validManifest())
	broken := validManifest()
	broken["id"] = "broken"
	delete(broken["motions"].(map[string]any), "talk")
	writePack(t, Dir(cfg, "broken"), broken)
	writePack(t, Dir(cfg, "other"), validManifest()) // says its id is mochi

	tests := []struct {
		configDir, id string
		wantID        string
		reason        string // "" for no error
	}{
		{cfg, "", "yui", ""},
		{cfg, "yui", "yui", ""},
		{"", "yui", "yui", ""},
		{cfg, "mochi", "mochi", ""},
		{cfg, "missing", "yui", `character "missing": no pack at`},
		{cfg, "broken", "yui", `character "broken" refused: load pack broken: "motions" has no "talk"`},
		{cfg, "other", "yui", `says its id is "mochi"`},
		{cfg, "../mochi", "yui", "not a valid pack id"},
		{"", "mochi", "yui", "no config folder"},
	}
	// A stand-in default keeps the test fast; TestSelectDefault uses the
	// real one.
	def := func() *Pack { return &Pack{ID: DefaultID, Name: "Yui"} }
	for _, tt := range tests {
		p, err := selectPack(tt.configDir, tt.id, def)
		if p == nil {
			t.Fatalf("Select(%q) returned a nil pack", tt.id)
		}
		if p.ID != tt.wantID {
			t.Errorf("Select(%q) = pack %q, want %q", tt.id, p.ID, tt.wantID)
		}
		switch {
		case tt.reason == "" && err != nil:
			t.Errorf("Select(%q) error %v", tt.id, err)
		case tt.reason != "" && (err == nil || !strings.Contains(err.Error(), tt.reason)):
			t.Errorf("Select(%q) error %v, want %q", tt.id, err, tt.reason)
		}
	}
}

func TestSelectDefault(t *testing.T) {
	p, err := Select(t.TempDir(), "missing")
	if err == nil || p == nil || p.ID != DefaultID || len(p.Emotions) < 8 {
		t.Fatalf("Select = %v, %v; want the embedded default and an error", p, err)
	}
}

func TestSelectUserOverridesDefault(t *testing.T) {
	cfg := t.TempDir()
	m := validManifest()
	m["id"] = "yui"
	m["name"] = "My Yui"
	writePack(t, Dir(cfg, "yui"), m)
	p, err := Select(cfg, "yui")
	if err != nil || p.Name != "My Yui" {
		t.Fatalf("Select = %q, %v; want the user's pack", p.Name, err)
	}
}

func TestLoadDirMissing(t *testing.T) {
	_, err := LoadDir(filepath.Join(t.TempDir(), "nope"))
	if err == nil || !strings.Contains(err.Error(), "load pack from") {
		t.Fatalf("err = %v", err)
	}
}

func FuzzLoad(f *testing.F) {
	valid, err := json.Marshal(validManifest())
	if err != nil {
		f.Fatal(err)
	}
	img := pngBytes(f, 8, 8)
	f.Add(valid, img)
	f.Add([]byte(`{"id":"x","name":"X","size":[16,16],"emotions":{"neutral":"../a.png"}}`), img)
	f.Add([]byte(`{"motions":{"idle":null}}`), []byte("\x89PNG\r\n\x1a\n"))
	f.Add([]byte(`[]`), []byte{})
	f.Add([]byte(`{"id":"x","name":"X","size":[16,16],"emotions":{"neutral":"a.png"},"motions":{"idle":{"frames":["a.png"],"fps":1e309}}}`), img)
	f.Fuzz(func(t *testing.T, manifest, image []byte) {
		fsys := fstest.MapFS{
			"character.json": {Data: manifest},
			"a.png":          {Data: image},
			"img/b.png":      {Data: img},
		}
		p, err := Load(fsys)
		// The quick load and its rest refuse what Load refuses (quick.go).
		q, qerr := LoadQuick(fsys)
		if qerr == nil {
			_, qerr = q.Rest()
		}
		if (err == nil) != (qerr == nil) || (err != nil && err.Error() != qerr.Error()) {
			t.Fatalf("Load error %v, LoadQuick's %v", err, qerr)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "load pack") {
				t.Fatalf("error %q does not start with \"load pack\"", err)
			}
			return
		}
		if p.Emotions["neutral"] == nil {
			t.Fatal("loaded pack without neutral")
		}
		for _, m := range RequiredMotions {
			if len(p.Motions[m].Frames) == 0 {
				t.Fatalf("loaded pack without motion %s", m)
			}
		}
		_ = p.Vocabulary()
	})
}

// A pack carries its character's card and speech defaults; the built-in
// Yui has both.
func TestPackDefaults(t *testing.T) {
	m := validManifest()
	m["card"] = "  You are Kit.  "
	m["speech"] = map[string]any{"voices": map[string]any{"openai": "nova", "system": " "}, "rate": 1.2}
	p, err := Load(packFS(t, m))
	if err != nil {
		t.Fatal(err)
	}
	if p.Card != "You are Kit." || p.Speech.Voice("openai") != "nova" || p.Speech.Voice("system") != "" || p.Speech.Rate != 1.2 {
		t.Errorf("card %q speech %+v", p.Card, p.Speech)
	}
	d := Default()
	for _, want := range []string{"You are Yui", "generate_express", "body_action", "client_context", "short"} {
		if !strings.Contains(d.Card, want) {
			t.Errorf("the built-in card does not mention %q", want)
		}
	}
}

func TestOutlineKeepsStructureNotPixels(t *testing.T) {
	p, err := Select(t.TempDir(), DefaultID)
	if err != nil {
		t.Fatal(err)
	}
	o := p.Outline()
	if o.ID != p.ID || len(o.Emotions) != len(p.Emotions) || len(o.Motions) != len(p.Motions) {
		t.Fatalf("outline %+v", o)
	}
	for id, m := range p.Motions {
		om := o.Motions[id]
		if len(om.Frames) != len(m.Frames) || om.FPS != m.FPS || om.Loop != m.Loop {
			t.Fatalf("motion %s: %+v vs %+v", id, om, m)
		}
		for _, f := range om.Frames {
			if f == nil || !f.Bounds().Empty() {
				t.Fatalf("motion %s holds pixels", id)
			}
		}
	}
	if o.Frames("idle", "neutral").Motion != "idle" {
		t.Fatal("the outline's idle motion is not found")
	}
}

// BenchmarkLoadDefault is loading the default pack, as a pet's start
// does before its first frame: its images decode on all cores.
func BenchmarkLoadDefault(b *testing.B) {
	for b.Loop() {
		Default()
	}
}
