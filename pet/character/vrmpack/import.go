// Package vrmpack turns a VRM avatar into an ordinary character pack
// (docs/product.md §14): the model is read (pet/character/vrm), posed for
// every frame the pack holds (pet/character/rig), drawn once by the pure-Go
// renderer (pet/character/raster), and the pictures are written with a
// character.json as <characters folder>/<id>/. The pet then plays the pack
// like any other, at no more cost than a drawn character.
//
// Nothing is left behind on a refusal, an error or a cancel: the pack is
// written into a hidden folder beside its place and renamed into place at
// the end, after it loads as the app will load it.
package vrmpack

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"yui/pet/character"
	"yui/pet/character/rig"
	"yui/pet/character/vrm"
)

// Source is the "source" of a pack made from a VRM model.
const Source = "vrm"

// Stage is a step of an import, as Progress reports it.
type Stage string

const (
	StageReading   Stage = "reading"
	StagePosing    Stage = "posing"
	StageRendering Stage = "rendering"
	StageWriting   Stage = "writing"
)

// Options say what to import and where to.
type Options struct {
	// File is the .vrm model.
	File string
	// ID is the pack's id; "" makes one from the model's title or file
	// name that no installed pack has.
	ID string
	// Motions are VRM Animation clips to bake: motion name → .vrma path.
	Motions map[string]string
	// Dir is the characters folder (<config dir>/characters); the pack
	// goes to Dir/<id>/.
	Dir string
	// Progress, when set, hears each stage with its count done of total
	// (rendering: frames). It is called on the import's goroutine.
	Progress func(s Stage, done, total int)
	// ConfirmAuthor is asked, for a model whose meta allows only its
	// author, whether the user is that author; nil or false refuses.
	ConfirmAuthor func(m vrm.Meta) bool
	// Size is the pack's logical size; zero is DefaultSize. The pictures
	// are drawn at twice it.
	Size image.Point
	// Supersample is the renderer's anti-aliasing per side; 0 is
	// DefaultSupersample.
	Supersample int
}

// DefaultSize is the logical size of a pack made from a model: the
// built-in characters' (assets/characters/yui/character.json).
var DefaultSize = image.Pt(192, 256)

// DefaultSupersample is the anti-aliasing of a pack's pictures: 2x2
// samples a pixel of pictures already drawn at twice the logical size,
// sixteen a logical pixel; the renderer's own 3x3 costs twice the time
// for edges no one tells apart on a desktop.
const DefaultSupersample = 2

// ErrNotAuthor is the refusal of a model only its author may use when
// the user does not confirm that they are the author.
var ErrNotAuthor = errors.New("the model's licence allows only its author to use it, and you did not confirm that you are the author")

// Import reads o.File and writes it as a pack; it returns the new pack's
// id. Errors are one line and nothing is written.
func Import(ctx context.Context, o Options) (string, error) {
	id, err := importModel(ctx, o)
	if err != nil {
		return "", fmt.Errorf("import %s: %w", filepath.Base(o.File), err)
	}
	return id, nil
}

func importModel(ctx context.Context, o Options) (string, error) {
	if o.Dir == "" {
		return "", errors.New("no characters folder")
	}
	if o.ID != "" && !character.ValidID(o.ID) {
		return "", fmt.Errorf("id %q must be 1 to 64 letters, digits, \"-\" or \"_\", starting with a letter or digit", o.ID)
	}
	if o.ID != "" {
		if _, err := os.Lstat(filepath.Join(o.Dir, o.ID)); err == nil {
			return "", fmt.Errorf("a character %q is already installed; choose another id", o.ID)
		}
	}
	for name := range o.Motions {
		if !character.ValidID(name) {
			return "", fmt.Errorf("motion name %q must be 1 to 64 letters, digits, \"-\" or \"_\"", name)
		}
		if reservedMotion(name) {
			return "", fmt.Errorf("motion name %q is one the import makes itself; choose another", name)
		}
	}
	progress := func(s Stage, done, total int) {
		if o.Progress != nil {
			o.Progress(s, done, total)
		}
	}
	progress(StageReading, 0, 1+len(o.Motions))
	m, err := readModel(o.File)
	if err != nil {
		return "", err
	}
	if m.Meta.AllowedUser == character.AllowOnlyAuthor && (o.ConfirmAuthor == nil || !o.ConfirmAuthor(m.Meta)) {
		return "", ErrNotAuthor
	}
	clips, err := readClips(o.Motions)
	if err != nil {
		return "", err
	}
	progress(StageReading, 1+len(o.Motions), 1+len(o.Motions))
	if err := ctx.Err(); err != nil {
		return "", err
	}
	progress(StagePosing, 0, 1)
	r, err := rig.New(m)
	if err != nil {
		return "", fmt.Errorf("pose the model: %w", err)
	}
	pl, err := makePlan(m, r, clips)
	if err != nil {
		return "", err
	}
	progress(StagePosing, 1, 1)
	size := o.Size
	if size == (image.Point{}) {
		size = DefaultSize
	}
	if o.Supersample == 0 {
		o.Supersample = DefaultSupersample
	}
	id := o.ID
	if id == "" {
		id = freeID(o.Dir, idFrom(m.Meta.Title, o.File))
	}
	b := &baker{m: m, r: r, plan: pl, size: size, supersample: o.Supersample, progress: progress}
	return id, b.bake(ctx, o.Dir, id, filepath.Base(o.File))
}

// readModel reads and checks a .vrm file.
func readModel(file string) (*vrm.Model, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, unwrap(err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, errors.New("is a folder, not a .vrm file")
	}
	m, err := vrm.Read(io.LimitReader(f, vrm.MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	return m, nil
}

// readClips reads the .vrma clips by motion name.
func readClips(paths map[string]string) (map[string]*vrm.Clip, error) {
	clips := make(map[string]*vrm.Clip, len(paths))
	for _, name := range sortedKeys(paths) {
		f, err := os.Open(paths[name])
		if err != nil {
			return nil, fmt.Errorf("motion %s: %w", name, err)
		}
		c, err := vrm.ReadClip(io.LimitReader(f, vrm.MaxFileBytes+1))
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("motion %s (%s): %w", name, filepath.Base(paths[name]), err)
		}
		clips[name] = c
	}
	return clips, nil
}

var notID = regexp.MustCompile(`[^a-z0-9_-]+`)

// idFrom makes a pack id of the model's title, else of its file name:
// "Sample Avatar" → "sample-avatar"; "vrm" when neither gives one.
func idFrom(title, file string) string {
	for _, name := range []string{title, strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))} {
		id := strings.Trim(notID.ReplaceAllString(strings.ToLower(name), "-"), "-_")
		if len(id) > 56 {
			id = strings.TrimRight(id[:56], "-_")
		}
		if character.ValidID(id) && id != "undefined" {
			return id
		}
	}
	return "vrm"
}

// freeID returns id, or id-2, id-3 … when a pack of that id is installed.
func freeID(dir, id string) string {
	for n := 1; ; n++ {
		c := id
		if n > 1 {
			c = fmt.Sprintf("%s-%d", id, n)
		}
		if _, err := os.Lstat(filepath.Join(dir, c)); errors.Is(err, os.ErrNotExist) || n > 999 {
			return c
		}
	}
}

// unwrap drops a *os.PathError whose path the message names already.
func unwrap(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// MaxClipsBeside bounds the clips ClipsBeside takes.
const MaxClipsBeside = 32

// ClipsBeside finds the VRM Animation clips (.vrma) in the model's
// folder, by motion name (the file's name made an id: "Wave Hello.vrma"
// is "wave_hello"), for an import that offers no way to name them (the
// Characters tab). At most MaxClipsBeside, in name order.
func ClipsBeside(model string) map[string]string {
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(model), "*"))
	out := map[string]string{}
	for _, f := range files {
		if !strings.EqualFold(filepath.Ext(f), ".vrma") || len(out) >= MaxClipsBeside {
			continue
		}
		base := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
		id := strings.Trim(notID.ReplaceAllString(strings.ToLower(base), "_"), "-_")
		if len(id) > 48 {
			id = id[:48]
		}
		if _, taken := out[id]; character.ValidID(id) && !taken && !reservedMotion(id) {
			out[id] = f
		}
	}
	return out
}

// reservedMotion reports whether a clip may not take the name: the
// motions the import makes itself.
func reservedMotion(id string) bool {
	switch id {
	case "idle", "talk", "walk", "sit", "sit_edge", "fall", "land", "drag", "thinking":
		return true
	}
	return strings.HasPrefix(id, "talk_")
}
