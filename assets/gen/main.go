// Command gen draws Yui, the default character pack, and writes it as
// character.json plus PNG images. It is run by go generate in package
// assets:
//
//	go run ./gen -out characters/yui -sheet ../docs/character/sheet.png -icon icon.png -window-icon window-icon.png
//
// -icon also writes the app icon: the neutral face on a transparent square;
// -window-icon the same at 128x128, the windows' icon.
//
// Everything is drawn by code with an anti-aliasing vector rasterizer, so the
// output is the same on every run.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"log"
	"os"
	"path/filepath"
	"sort"
)

func main() {
	out := flag.String("out", "characters/yui", "directory to write the pack to")
	mint := flag.String("mint", "", "also write the second built-in character, Mint, to this directory")
	sheet := flag.String("sheet", "", "also write a contact sheet PNG here")
	iconPath := flag.String("icon", "", "also write the app icon PNG here")
	windowIconPath := flag.String("window-icon", "", "also write the windows' smaller icon PNG here")
	flag.Parse()
	if err := run(*out, *sheet); err != nil {
		log.Fatal(err)
	}
	if *mint != "" {
		files, err := generateFrom(planMint())
		if err != nil {
			log.Fatal(err)
		}
		if err := writePack(*mint, files); err != nil {
			log.Fatal(err)
		}
	}
	for _, ic := range []struct {
		path string
		size int
	}{{*iconPath, iconSize}, {*windowIconPath, windowIconSize}} {
		if ic.path == "" {
			continue
		}
		b, err := encodePNG(icon(ic.size))
		if err != nil {
			log.Fatalf("encode icon: %v", err)
		}
		if err := os.WriteFile(ic.path, b, 0o644); err != nil {
			log.Fatalf("write icon: %v", err)
		}
	}
}

func run(out, sheet string) error {
	files, err := generate()
	if err != nil {
		return err
	}
	if err := writePack(out, files); err != nil {
		return err
	}
	if sheet != "" {
		img := contactSheet()
		b, err := encodePNG(img)
		if err != nil {
			return fmt.Errorf("encode sheet: %w", err)
		}
		if err := os.MkdirAll(filepath.Dir(sheet), 0o755); err != nil {
			return fmt.Errorf("create sheet dir: %w", err)
		}
		if err := os.WriteFile(sheet, b, 0o644); err != nil {
			return fmt.Errorf("write sheet: %w", err)
		}
	}
	return nil
}

// writePack writes a pack's files to out, removing stale images.
func writePack(out string, files map[string][]byte) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", out, err)
	}
	// Remove stale images so renamed frames do not linger.
	old, err := filepath.Glob(filepath.Join(out, "*.png"))
	if err != nil {
		return err
	}
	for _, f := range old {
		if _, ok := files[filepath.Base(f)]; !ok {
			if err := os.Remove(f); err != nil {
				return fmt.Errorf("remove stale %s: %w", f, err)
			}
		}
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(out, name), files[name], 0o644); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
	}
	return nil
}

// manifest is character.json.
type manifest struct {
	ID              string                    `json:"id"`
	Name            string                    `json:"name"`
	Size            [2]int                    `json:"size"`
	Emotions        map[string]string         `json:"emotions"`
	Motions         map[string]manifestMotion `json:"motions"`
	EmotionTextMode string                    `json:"emotion_text_mode"`
	EmotionTextMap  map[string]string         `json:"emotion_text_map"`
	FillerLines     []string                  `json:"filler_lines"`
	FailureLines    []string                  `json:"failure_lines"`
	Lines           map[string]manifestLines  `json:"lines,omitempty"`
	Gaze            map[string]string         `json:"gaze,omitempty"`
	// Card and Speech are the character's own system prompt and voice,
	// the defaults of a preset that shows it.
	Card   string          `json:"card,omitempty"`
	Speech *speechDefaults `json:"speech,omitempty"`
}

// speechDefaults is a character's voice (pet/character.Speech): the
// voice per speech engine and the rate.
type speechDefaults struct {
	Voices map[string]string `json:"voices,omitempty"`
	Rate   float64           `json:"rate,omitempty"`
}

type manifestMotion struct {
	Frames []string `json:"frames"`
	FPS    float64  `json:"fps"`
	Loop   bool     `json:"loop"`
}

// generate renders Yui's pack: file name to content.
func generate() (map[string][]byte, error) { return generateFrom(plan()) }

// generateFrom renders a planned pack.
func generateFrom(m manifest, poses map[string]pose) (map[string][]byte, error) {
	files := map[string][]byte{}
	for name, p := range poses {
		b, err := encodePNG(render(p))
		if err != nil {
			return nil, fmt.Errorf("encode %s: %w", name, err)
		}
		files[name] = b
	}
	b, err := encodeManifest(m)
	if err != nil {
		return nil, err
	}
	files["character.json"] = b
	return files, nil
}

// plan describes Yui's pack and returns the pose of every image file.
func plan() (manifest, map[string]pose) {
	poses := map[string]pose{}
	m := manifest{
		ID:              "yui",
		Name:            "Yui",
		Size:            [2]int{imgW / 2, imgH / 2},
		Emotions:        map[string]string{},
		Motions:         map[string]manifestMotion{},
		EmotionTextMode: "enum",
		EmotionTextMap: map[string]string{
			"😆": "joyfully",
			"👂": "whisper",
			"💦": "flustered",
			"✨": "sparkling",
			"😤": "huffy",
			"🥱": "drowsily",
			"🤔": "pondering",
			"🎵": "sing-song",
		},
		FillerLines: []string{
			"Hmm, let me think.",
			"Ooh, good question…",
			"One moment!",
			"Let me see…",
		},
		FailureLines: []string{
			"I can't reach my thoughts right now.",
			"Sorry, my head feels foggy. Try again in a bit?",
			"Hmm, I lost my train of thought.",
		},
		Lines: yuiLines(),
	}
	for _, e := range emotions() {
		name := e.id + ".png"
		poses[name] = e.pose
		m.Emotions[e.id] = name
	}
	m.Gaze = map[string]string{}
	for dir, p := range gazes() {
		name := "gaze-" + dir + ".png"
		poses[name] = p
		m.Gaze[dir] = name
	}
	for _, mo := range motions() {
		mm := manifestMotion{FPS: mo.fps, Loop: mo.loop}
		for i, p := range mo.frames {
			name := fmt.Sprintf("%s-%d.png", mo.file, i)
			poses[name] = p
			mm.Frames = append(mm.Frames, name)
		}
		m.Motions[mo.id] = mm
	}
	m.Card = yuiCard
	m.Speech = &speechDefaults{Voices: map[string]string{
		"alltalk": "female_01.wav", "espeak-ng": "en-us+f2", "sapi": "Microsoft Zira Desktop", "kokoro": "af_bella", "piper": "en_US-amy-medium", "openai": "nova"}}
	return m, poses
}

// planMint is Mint's pack: Yui's poses drawn with Mint's look, her own
// name, words, card and voice.
func planMint() (manifest, map[string]pose) {
	m, poses := plan()
	for name, p := range poses {
		p.lk = &mintLook
		poses[name] = p
	}
	m.ID, m.Name = "mint", "Mint"
	m.EmotionTextMode, m.EmotionTextMap = "free", nil
	m.FillerLines = []string{"Mm, one sec.", "Let me check.", "Thinking…", "Hold on a moment."}
	m.FailureLines = []string{"I can't reach my notes right now.", "Something's off on my side. Try again soon?"}
	m.Lines = mintLines()
	m.Card = mintCard
	m.Speech = &speechDefaults{Voices: map[string]string{
		"alltalk": "female_03.wav", "espeak-ng": "en-us+f3", "sapi": "Microsoft Zira Desktop", "kokoro": "bf_emma", "piper": "en_GB-jenny_dioco-medium", "openai": "sage"}, Rate: 0.95}
	return m, poses
}

func encodeManifest(m manifest) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return nil, fmt.Errorf("encode character.json: %w", err)
	}
	return buf.Bytes(), nil
}

// encodePNG encodes img as a compact 8-bit RGBA PNG.
func encodePNG(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, toNRGBA(img)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// toNRGBA converts img to non-premultiplied RGBA, which is what PNG stores.
func toNRGBA(img image.Image) *image.NRGBA {
	b := img.Bounds()
	n := image.NewNRGBA(b)
	draw.Draw(n, b, img, b.Min, draw.Src)
	return n
}
