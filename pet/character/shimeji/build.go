package shimeji

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"io"
	"math"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	xdraw "golang.org/x/image/draw"

	"yui/pet/character"
)

// Source is the "source" of a pack made from a Shimeji set.
const Source = "shimeji"

// built is a pack ready to write: its files by name.
type built struct {
	name  string
	m     manifest
	files map[string][]byte // the images
}

// manifest is the character.json the importer writes.
type manifest struct {
	ID              string                `json:"id"`
	Name            string                `json:"name"`
	Size            [2]int                `json:"size"`
	Feet            [2]int                `json:"feet"`
	Faces           character.Facing      `json:"faces"`
	WalkSpeed       float64               `json:"walk_speed,omitempty"`
	Emotions        map[string]string     `json:"emotions"`
	Motions         map[string]motionSpec `json:"motions"`
	EmotionTextMode string                `json:"emotion_text_mode"`
	Source          string                `json:"source"`
}

type motionSpec struct {
	Frames      []string `json:"frames"`
	FPS         float64  `json:"fps"`
	Loop        bool     `json:"loop"`
	DurationsMS []int64  `json:"durations_ms"`
}

// poseKey is a pose as drawn: the same image at the same anchor is one
// frame file.
type poseKey struct {
	image  string
	anchor [2]int
}

// build reads and checks the whole set and makes the pack's files; it
// writes nothing.
func build(l layout) (*built, error) {
	motions, sleepy, err := readMotions(l)
	if err != nil {
		return nil, err
	}
	poses, err := readPoses(l.images, motions, sleepy)
	if err != nil {
		return nil, err
	}
	c, frames, files, err := drawPoses(poses)
	if err != nil {
		return nil, err
	}
	m := makeManifest(l.name, c, motions, sleepy[0], frames)
	return &built{name: m.Name, m: m, files: files}, nil
}

// readMotions reads the set's actions, checks that its behaviors (which
// are not imported) are well-formed XML, and chooses the actions that play
// the pack's motions and its sleepy pose.
func readMotions(l layout) ([]chosen, []Pose, error) {
	data, err := readLimited(l.actions, MaxConfigBytes)
	if err != nil {
		return nil, nil, err
	}
	actions, err := ParseActions(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", filepath.Base(l.actions), err)
	}
	if l.behaviors != "" {
		data, err := readLimited(l.behaviors, MaxConfigBytes)
		if err != nil {
			return nil, nil, err
		}
		if err := CheckWellFormed(data); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", filepath.Base(l.behaviors), err)
		}
	}
	motions, sleepy, err := choose(actions)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", filepath.Base(l.actions), err)
	}
	return motions, sleepy, nil
}

// poseSet is every pose the pack draws, in the order first used, with each
// image read once.
type poseSet struct {
	dir  string // the set's image folder
	imgs map[string]image.Image
	keys []poseKey
	seen map[poseKey]bool
}

// add reads the pose's image if it is new and keeps the pose if it is.
func (s *poseSet) add(p Pose) error {
	k := poseKey{p.Image, p.Anchor}
	if _, ok := s.imgs[p.Image]; !ok {
		img, err := readImage(s.dir, p.Image)
		if err != nil {
			return err
		}
		s.imgs[p.Image] = img
	}
	if !s.seen[k] {
		s.seen[k] = true
		s.keys = append(s.keys, k)
	}
	return nil
}

// readPoses reads and checks every pose's image: the motions' in order,
// then the sleepy pose.
func readPoses(dir string, motions []chosen, sleepy []Pose) (*poseSet, error) {
	s := &poseSet{dir: dir, imgs: map[string]image.Image{}, seen: map[poseKey]bool{}}
	for _, m := range motions {
		if len(m.poses) > character.MaxFrames {
			return nil, fmt.Errorf("action %s has %d poses; a pack's motion holds at most %d", m.action, len(m.poses), character.MaxFrames)
		}
		for _, p := range m.poses {
			if err := s.add(p); err != nil {
				return nil, fmt.Errorf("action %s: %w", m.action, err)
			}
		}
	}
	if err := s.add(sleepy[0]); err != nil {
		return nil, err
	}
	return s, nil
}

// drawPoses draws each pose on one canvas that fits them all, feet on the
// same spot, and names its frame file.
func drawPoses(s *poseSet) (canvas, map[poseKey]string, map[string][]byte, error) {
	if len(s.keys) > character.MaxImages {
		return canvas{}, nil, nil, fmt.Errorf("%d different poses; a pack holds at most %d images", len(s.keys), character.MaxImages)
	}
	c := canvasFor(s.keys, s.imgs)
	frames := map[poseKey]string{}
	files := map[string][]byte{}
	for i, k := range s.keys {
		name := fmt.Sprintf("pose-%02d.png", i+1)
		b, err := c.draw(s.imgs[k.image], k.anchor)
		if err != nil {
			return canvas{}, nil, nil, err
		}
		frames[k], files[name] = name, b
	}
	return c, frames, files, nil
}

// makeManifest writes the pack's character.json: its size and feet from
// the canvas, each motion's frames and timing, every emotion standing as
// the idle motion's first frame but sleepy, which is its own pose.
func makeManifest(name string, c canvas, motions []chosen, sleepy Pose, frames map[poseKey]string) manifest {
	m := manifest{
		Name:            displayName(name),
		Size:            [2]int{c.w, c.h},
		Feet:            [2]int{c.feet.X, c.feet.Y},
		Faces:           character.FacingLeft,
		Emotions:        map[string]string{},
		Motions:         map[string]motionSpec{},
		EmotionTextMode: "free",
		Source:          Source,
	}
	for _, m2 := range motions {
		m.Motions[m2.motion] = motionFrames(m2, frames)
		if m2.motion == "walk" {
			m.WalkSpeed = math.Round(walkSpeed(m2.poses)*c.scale*100) / 100
		}
	}
	stand := m.Motions["idle"].Frames[0]
	for _, e := range emotions {
		m.Emotions[e] = stand
	}
	m.Emotions["sleepy"] = frames[poseKey{sleepy.Image, sleepy.Anchor}]
	return m
}

// motionFrames is one motion's frames with each pose's own time, and the
// mean frame rate they make, within a pack's limits.
func motionFrames(m chosen, frames map[poseKey]string) motionSpec {
	spec := motionSpec{Loop: m.loop}
	var total float64
	for _, p := range m.poses {
		spec.Frames = append(spec.Frames, frames[poseKey{p.Image, p.Anchor}])
		ms := int64(p.Ticks) * Tick.Milliseconds()
		spec.DurationsMS = append(spec.DurationsMS, ms)
		total += float64(ms) / 1000
	}
	spec.FPS = math.Min(math.Max(float64(len(spec.Frames))/total, character.MinFPS), character.MaxFPS)
	return spec
}

// displayName is the pack's name: the set's, within the pack's limit.
func displayName(n string) string {
	n = strings.TrimSpace(n)
	if n == "" || !utf8.ValidString(n) {
		return "Shimeji"
	}
	if r := []rune(n); len(r) > character.MaxNameLen {
		n = string(r[:character.MaxNameLen])
	}
	return n
}

// readLimited reads a file of at most limit bytes.
func readLimited(name string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Base(name), unwrap(err))
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", filepath.Base(name), unwrap(err))
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is larger than %d MiB", filepath.Base(name), limit>>20)
	}
	return data, nil
}

// readImage reads a pose image named as the set names it ("/shime1.png",
// relative to the image folder), refusing paths that leave the folder and
// images over the pack's limits.
func readImage(dir, name string) (image.Image, error) {
	rel := strings.TrimLeft(strings.ReplaceAll(name, `\`, "/"), "/")
	if rel == "" || !filepath.IsLocal(filepath.FromSlash(rel)) || strings.Contains(rel, ":") {
		return nil, fmt.Errorf("image %q: the path leaves the set's folder", name)
	}
	if !strings.EqualFold(path.Ext(rel), ".png") {
		return nil, fmt.Errorf("image %q is not a .png file", name)
	}
	full := filepath.Join(dir, filepath.FromSlash(rel))
	// A link may lead out of the folder too.
	if real, err := filepath.EvalSymlinks(full); err == nil {
		root, err2 := filepath.EvalSymlinks(dir)
		if r, err3 := filepath.Rel(root, real); err2 != nil || err3 != nil || !filepath.IsLocal(r) {
			return nil, fmt.Errorf("image %q: the path leaves the set's folder", name)
		}
	} else {
		return nil, fmt.Errorf("image %s is missing", rel)
	}
	data, err := readLimited(full, character.MaxImageBytes)
	if err != nil {
		return nil, err
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("image %s is not a PNG image: %w", rel, err)
	}
	if cfg.Width < 1 || cfg.Height < 1 || cfg.Width > maxSide || cfg.Height > maxSide {
		return nil, fmt.Errorf("image %s is %dx%d; images over %d px a side are refused", rel, cfg.Width, cfg.Height, maxSide)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("image %s: %w", rel, err)
	}
	return img, nil
}

// canvas is the frame every pose is drawn on: wide and tall enough for
// each pose with its anchor on the feet point, the feet point in the
// middle so that a mirrored frame keeps the feet in place, scaled down
// to the pack's limits.
type canvas struct {
	w, h  int // after scaling
	feet  image.Point
	scale float64
	// raw is the canvas and feet before scaling.
	rw, rh int
	rfeet  image.Point
}

func canvasFor(keys []poseKey, imgs map[string]image.Image) canvas {
	var half, top, bottom int
	for _, k := range keys {
		b := imgs[k.image].Bounds()
		half = max(half, k.anchor[0], b.Dx()-k.anchor[0])
		top = max(top, k.anchor[1])
		bottom = max(bottom, b.Dy()-k.anchor[1])
	}
	top = max(top, 1)
	c := canvas{rw: max(2*half, character.MinSize), rh: max(top+bottom, character.MinSize)}
	c.rfeet = image.Pt(c.rw/2, top)
	c.scale = 1
	if side := max(c.rw, c.rh); side > character.MaxSize {
		c.scale = float64(character.MaxSize) / float64(side)
	}
	if px := float64(len(keys)) * float64(c.rw) * float64(c.rh) * c.scale * c.scale; px > character.MaxTotalPixels {
		c.scale *= math.Sqrt(character.MaxTotalPixels/px) * 0.99
	}
	sc := func(v int) int { return max(int(math.Round(float64(v)*c.scale)), 1) }
	c.w, c.h = max(sc(c.rw), character.MinSize), max(sc(c.rh), character.MinSize)
	c.feet = image.Pt(min(sc(c.rfeet.X), c.w), min(sc(c.rfeet.Y), c.h))
	return c
}

// draw puts img with its anchor on the feet point and encodes the frame.
func (c canvas) draw(img image.Image, anchor [2]int) ([]byte, error) {
	raw := image.NewNRGBA(image.Rect(0, 0, c.rw, c.rh))
	b := img.Bounds()
	off := c.rfeet.Sub(image.Pt(anchor[0], anchor[1]))
	draw.Draw(raw, image.Rectangle{Min: off, Max: off.Add(b.Size())}, img, b.Min, draw.Src)
	var out image.Image = raw
	if c.w != c.rw || c.h != c.rh {
		dst := image.NewNRGBA(image.Rect(0, 0, c.w, c.h))
		xdraw.CatmullRom.Scale(dst, dst.Rect, raw, raw.Rect, draw.Src, nil)
		out = dst
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, out); err != nil {
		return nil, fmt.Errorf("encode a frame: %w", err)
	}
	return buf.Bytes(), nil
}

// write puts the pack in <configDir>/characters/<id>/: every file goes
// to a hidden folder beside it, is synced, the pack is loaded back as
// the app will load it, and the folder is renamed into place. On any
// error nothing is left.
func (b *built) write(configDir, id string) (dir string, err error) {
	m := b.m
	m.ID = id
	j, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return "", err
	}
	root := filepath.Join(configDir, "characters")
	dir = filepath.Join(root, id)
	if _, err := os.Lstat(dir); err == nil {
		return "", fmt.Errorf("a character %q is already installed (%s); choose another id", id, dir)
	}
	_, statErr := os.Stat(root)
	if err := os.MkdirAll(root, 0o700); err != nil {
		return "", fmt.Errorf("create %s: %w", root, err)
	}
	tmp, err := os.MkdirTemp(root, ".import-"+id+"-")
	if err != nil {
		return "", fmt.Errorf("create a folder in %s: %w", root, err)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
			if statErr != nil {
				os.Remove(root) // made for this pack: nothing is left
			}
		}
	}()
	if err := writeSynced(filepath.Join(tmp, character.ManifestName), append(j, '\n')); err != nil {
		return "", err
	}
	for name, data := range b.files {
		if err := writeSynced(filepath.Join(tmp, name), data); err != nil {
			return "", err
		}
	}
	if _, err := character.LoadDir(tmp); err != nil {
		return "", fmt.Errorf("the pack made from the set does not load: %w", err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return "", fmt.Errorf("install %s: %w", dir, err)
	}
	syncDir(root)
	return dir, nil
}

func writeSynced(name string, data []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("sync %s: %w", name, err)
	}
	return f.Close()
}

// syncDir makes the rename durable where the system allows syncing a
// folder (not on Windows, where the error is ignored).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
