package shimeji

import (
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding/japanese"

	"yui/pet/character"
)

func TestImportEnglishShimejiEE(t *testing.T) {
	set, cfg := t.TempDir(), t.TempDir()
	makeSet(t, filepath.Join(set, "img", "Kuro"), filepath.Join(set, "conf"), "actions.xml", englishActions)
	// No behaviors.xml: the actions are enough.
	r, err := Import(Options{Dir: set, ConfigDir: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if r.ID != "kuro" || r.Name != "Kuro" || r.Dir != filepath.Join(cfg, "characters", "kuro") {
		t.Fatalf("result %+v", r)
	}
	p, err := character.LoadDir(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	// Anchors 40,100 and 40,84 on 80x100 poses: 16 px hang below the feet.
	if p.Size != [2]int{80, 116} || p.Feet != image.Pt(40, 100) || p.Faces != character.FacingLeft || p.Mirror == nil || p.Source != Source {
		t.Fatalf("size %v feet %v faces %q", p.Size, p.Feet, p.Faces)
	}
	if p.WalkSpeed != 75 { // 3 px a 40 ms tick
		t.Errorf("walk speed %v, want 75", p.WalkSpeed)
	}
	walk := p.Motions["walk"]
	if len(walk.Frames) != 2 || walk.Durations[0] != 240*time.Millisecond || walk.Durations[1] != 160*time.Millisecond || !walk.Loop {
		t.Errorf("walk %d frames, durations %v", len(walk.Frames), walk.Durations)
	}
	// Each pose's anchor is on the feet point: the standing block ends on
	// the feet line, the dangling one 16 px lower.
	bottom := func(img image.Image) int {
		b := img.Bounds()
		for y := b.Max.Y - 1; y >= 0; y-- {
			if _, _, _, a := img.At(b.Dx()/2, y).RGBA(); a != 0 {
				return y + 1
			}
		}
		return -1
	}
	if b := bottom(p.Motions["idle"].Frames[0]); b != 100 {
		t.Errorf("standing pose ends at y %d, want the feet line 100", b)
	}
	if b := bottom(p.Motions[character.MotionSitEdge].Frames[0]); b != 116 {
		t.Errorf("dangling pose ends at y %d, want 116", b)
	}
	// The mapped poses, by colour.
	colour := func(img image.Image) [3]uint8 {
		r, g, b, _ := img.At(40, 90).RGBA()
		return [3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}
	}
	want := map[string]string{"idle": "shime1.png", "sit": "shime11.png", "fall": "shime4.png", character.MotionLand: "shime18.png",
		character.MotionDrag: "shime5.png", "thinking": "shime11.png", "talk": "shime18.png"}
	for m, f := range want {
		c := poseColors[f]
		if got := colour(p.Motions[m].Frames[0]); got != [3]uint8{c.R, c.G, c.B} {
			t.Errorf("motion %s shows %v, want %s's %v", m, got, f, c)
		}
	}
	if got, c := colour(p.Emotions["sleepy"]), poseColors["shime21.png"]; got != [3]uint8{c.R, c.G, c.B} {
		t.Errorf("sleepy shows %v, want Sprawl", got)
	}
	if got, c := colour(p.Emotions["happy"]), poseColors["shime1.png"]; got != [3]uint8{c.R, c.G, c.B} {
		t.Errorf("happy shows %v, want the standing pose", got)
	}
	// Mirrored: the block's left edge moves to the other side.
	m := p.Turned(true).Motions["walk"].Frames[1]
	if _, _, _, a := m.At(20, 90).RGBA(); a == 0 {
		t.Error("the mirrored walk frame is not flipped")
	}
	// A second import of the same set gets a free id.
	r2, err := Import(Options{Dir: set, ConfigDir: cfg})
	if err != nil || r2.ID != "kuro-2" {
		t.Fatalf("second import: %+v %v", r2, err)
	}
	// An id asked for that is taken is refused.
	if _, err := Import(Options{Dir: set, ConfigDir: cfg, ID: "kuro"}); err == nil || !strings.Contains(err.Error(), "already installed") {
		t.Fatalf("taken id: %v", err)
	}
}

func TestImportJapaneseOriginal(t *testing.T) {
	for _, enc := range []string{"utf-8", "shift_jis"} {
		t.Run(enc, func(t *testing.T) {
			set, cfg := t.TempDir(), t.TempDir()
			xml := toJapanese(englishActions)
			if enc == "shift_jis" {
				xml = strings.Replace(xml, `encoding="UTF-8"`, `encoding="Shift_JIS"`, 1)
				b, err := japanese.ShiftJIS.NewEncoder().String(xml)
				if err != nil {
					t.Fatal(err)
				}
				xml = b
			} else {
				xml = "\ufeff" + xml
			}
			makeSet(t, filepath.Join(set, "img"), filepath.Join(set, "conf"), "動作.xml", xml)
			if err := os.WriteFile(filepath.Join(set, "conf", "行動.xml"), []byte("<マスコット/>"), 0o644); err != nil {
				t.Fatal(err)
			}
			r, err := Import(Options{Dir: set, ConfigDir: cfg, ID: "shime"})
			if err != nil {
				t.Fatal(err)
			}
			p, err := character.LoadDir(r.Dir)
			if err != nil {
				t.Fatal(err)
			}
			if p.ID != "shime" || p.WalkSpeed != 75 || p.Size != [2]int{80, 116} || len(p.Motions[character.MotionSitEdge].Frames) != 2 {
				t.Fatalf("id %s walk %v size %v motions %v", p.ID, p.WalkSpeed, p.Size, p.Vocabulary().MotionIDs)
			}
		})
	}
}

func TestImportSetPicked(t *testing.T) {
	set, cfg := t.TempDir(), t.TempDir()
	makeSet(t, filepath.Join(set, "img", "A"), filepath.Join(set, "conf"), "actions.xml", englishActions)
	makeSet(t, filepath.Join(set, "img", "B"), filepath.Join(set, "conf"), "actions.xml", englishActions)
	if r, err := Import(Options{Dir: set, ConfigDir: cfg, Set: "B"}); err != nil || r.ID != "b" {
		t.Fatalf("%+v %v", r, err)
	}
	if _, err := Import(Options{Dir: set, ConfigDir: cfg, Set: "C"}); err == nil || !strings.Contains(err.Error(), "A, B") {
		t.Fatalf("unknown set: %v", err)
	}
	// The image folder itself, with conf/ two levels up.
	if r, err := Import(Options{Dir: filepath.Join(set, "img", "A"), ConfigDir: cfg}); err != nil || r.ID != "a" {
		t.Fatalf("%+v %v", r, err)
	}
}

func TestImportOversizeScaled(t *testing.T) {
	set, cfg := t.TempDir(), t.TempDir()
	makeSet(t, filepath.Join(set, "img"), filepath.Join(set, "conf"), "actions.xml", englishActions)
	writePNG(t, filepath.Join(set, "img", "shime1.png"), 3000, 100, poseColors["shime1.png"])
	r, err := Import(Options{Dir: set, ConfigDir: cfg})
	if err != nil {
		t.Fatal(err)
	}
	p, err := character.LoadDir(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.Size[0] > character.MaxSize || p.Size[0] < character.MaxSize-2 {
		t.Fatalf("size %v, want scaled to %d wide", p.Size, character.MaxSize)
	}
}

func TestImportBadSets(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, set string)
		want   string
	}{
		{"missing image", func(t *testing.T, set string) { os.Remove(filepath.Join(set, "img", "shime2.png")) }, "image shime2.png is missing"},
		{"XML that does not parse", func(t *testing.T, set string) {
			writeFile(t, filepath.Join(set, "conf", "actions.xml"), strings.Replace(englishActions, "</ActionList>", "</Actionlist>", 1))
		}, "actions.xml: does not parse (line"},
		{"broken behaviors.xml", func(t *testing.T, set string) {
			writeFile(t, filepath.Join(set, "conf", "behaviors.xml"), "<BehaviorList><Behavior></BehaviorList>")
		}, "behaviors.xml: does not parse"},
		{"action with no poses", func(t *testing.T, set string) {
			writeFile(t, filepath.Join(set, "conf", "actions.xml"), strings.Replace(englishActions,
				`<Pose Image="/shime4.png" ImageAnchor="40,100" Velocity="0,0" Duration="250"/>`, "", 1))
		}, "action Falling has no poses"},
		{"path that leaves the folder", func(t *testing.T, set string) {
			writePNG(t, filepath.Join(filepath.Dir(set), "secret.png"), 80, 100, poseColors["shime1.png"])
			writeFile(t, filepath.Join(set, "conf", "actions.xml"), strings.Replace(englishActions, `"/shime4.png"`, `"/../../secret.png"`, 1))
		}, "leaves the set's folder"},
		{"link that leaves the folder", func(t *testing.T, set string) {
			out := filepath.Join(t.TempDir(), "out.png")
			writePNG(t, out, 80, 100, poseColors["shime1.png"])
			os.Remove(filepath.Join(set, "img", "shime4.png"))
			if err := os.Symlink(out, filepath.Join(set, "img", "shime4.png")); err != nil {
				t.Skip(err)
			}
		}, "leaves the set's folder"},
		{"image over 4096 px", func(t *testing.T, set string) {
			writePNG(t, filepath.Join(set, "img", "shime4.png"), 4097, 8, poseColors["shime4.png"])
		}, "images over 4096 px a side are refused"},
		{"not a PNG", func(t *testing.T, set string) { writeFile(t, filepath.Join(set, "img", "shime4.png"), "GIF89a") }, "not a PNG image"},
		{"no Stand", func(t *testing.T, set string) {
			writeFile(t, filepath.Join(set, "conf", "actions.xml"), strings.Replace(englishActions, `Name="Stand"`, `Name="Stood"`, 1))
		}, "no Stand"},
		{"too many poses", func(t *testing.T, set string) {
			walk := strings.Repeat(`<Pose Image="/shime2.png" ImageAnchor="40,100" Velocity="-3,0" Duration="4"/>`, character.MaxFrames+1)
			writeFile(t, filepath.Join(set, "conf", "actions.xml"), strings.Replace(englishActions,
				`<Pose Image="/shime2.png" ImageAnchor="40,100" Velocity="-3,0" Duration="4"/>`, walk, 1))
		}, "action Walk has 258 poses; a pack's motion holds at most 256"},
		{"no configuration", func(t *testing.T, set string) { os.RemoveAll(filepath.Join(set, "conf")) }, "no configuration"},
		{"no images", func(t *testing.T, set string) { os.RemoveAll(filepath.Join(set, "img")) }, "no images"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, cfg := t.TempDir(), t.TempDir()
			makeSet(t, filepath.Join(set, "img"), filepath.Join(set, "conf"), "actions.xml", englishActions)
			tt.change(t, set)
			_, err := Import(Options{Dir: set, ConfigDir: cfg})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one saying %q", err, tt.want)
			}
			if ents, _ := os.ReadDir(cfg); len(ents) != 0 {
				t.Fatalf("a refused set wrote %v", ents)
			}
		})
	}
}

func writeFile(t *testing.T, name, s string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func FuzzParseActions(f *testing.F) {
	f.Add([]byte(englishActions))
	f.Add([]byte(toJapanese(englishActions)))
	f.Add([]byte(`<Mascot><Action Name="a"><Animation><Pose Image="/x.png" ImageAnchor="1e9,2" Duration="-5"/></Animation></Action></Mascot>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		actions, err := ParseActions(data)
		if err != nil {
			return
		}
		for _, a := range actions {
			for _, p := range a.Poses {
				if p.Ticks < 1 || p.Ticks > maxTicks || p.Image == "" {
					t.Fatalf("pose %+v out of range", p)
				}
			}
		}
		_, _, _ = choose(actions)
	})
}
