package vrmpack

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"unicode/utf8"

	"yui/pet/character"
	"yui/pet/character/raster"
	"yui/pet/character/rig"
	"yui/pet/character/vrm"
)

// thumbnailSide bounds the meta's thumbnail as the pack keeps it.
const thumbnailSide = 256

// baker draws a plan's pictures and writes the pack.
type baker struct {
	m           *vrm.Model
	r           *rig.Rig
	plan        *plan
	size        image.Point
	supersample int
	progress    func(Stage, int, int)
}

// manifest is the character.json the import writes.
type manifest struct {
	ID              string                `json:"id"`
	Name            string                `json:"name"`
	Size            [2]int                `json:"size"`
	Feet            [2]int                `json:"feet"`
	Faces           character.Facing      `json:"faces,omitempty"`
	Emotions        map[string]string     `json:"emotions"`
	Motions         map[string]motionSpec `json:"motions"`
	TalkByEmotion   map[string]string     `json:"talk_by_emotion"`
	Gaze            map[string]string     `json:"gaze"`
	EmotionTextMode string                `json:"emotion_text_mode"`
	Source          string                `json:"source"`
	Meta            *character.Meta       `json:"meta"`
}

// bake draws every picture into a hidden folder beside dir/id, writes the
// manifest, loads the pack back as the app will, and renames the folder
// into place. On any error, a cancel included, the folder goes.
func (b *baker) bake(ctx context.Context, dir, id, file string) (err error) {
	o := raster.Options{Width: 2 * b.size.X, Height: 2 * b.size.Y, Supersample: b.supersample}
	lo, hi, err := b.r.Bounds(rig.Pose{})
	if err != nil {
		return fmt.Errorf("measure the model: %w", err)
	}
	f, err := frame(lo, hi, o)
	if err != nil {
		return err
	}
	tex, err := loadTextures(b.m)
	if err != nil {
		return err
	}
	_, statErr := os.Stat(dir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	tmp, err := os.MkdirTemp(dir, ".import-"+id+"-")
	if err != nil {
		return fmt.Errorf("create a folder in %s: %w", dir, err)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
			if statErr != nil {
				os.Remove(dir) // made for this pack: nothing is left
			}
		}
	}()
	if err := b.drawAll(ctx, tex, f, o, tmp); err != nil {
		return err
	}
	total := len(b.plan.shots)
	b.progress(StageRendering, total, total)
	b.progress(StageWriting, 0, 1)
	m := b.manifest(id, f, file)
	if th := b.thumbnail(); th != nil {
		if err := writeFile(filepath.Join(tmp, "thumbnail.png"), th); err == nil {
			m.Meta.Thumbnail = "thumbnail.png"
		}
	}
	j, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := writeFile(filepath.Join(tmp, character.ManifestName), append(j, '\n')); err != nil {
		return err
	}
	if _, err := character.LoadDir(tmp); err != nil {
		return fmt.Errorf("the pack made from the model does not load: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	final := filepath.Join(dir, id)
	if err := os.Rename(tmp, final); err != nil {
		return fmt.Errorf("install %s: %w", final, err)
	}
	syncDir(dir)
	b.progress(StageWriting, 1, 1)
	return nil
}

// drawAll draws every picture of the plan into dir. The pictures are
// posed and drawn one after another (the renderer spreads each over the
// cores); each is encoded and written by a second goroutine while the
// next one is drawn, so that at most two pictures are held at a time.
func (b *baker) drawAll(ctx context.Context, tex *textures, f framing, o raster.Options, dir string) error {
	type drawn struct {
		img  *image.NRGBA
		file string
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	todo := make(chan drawn)
	written := make(chan error, 1)
	go func() {
		var err error
		for d := range todo {
			if err == nil {
				if err = encodeTo(filepath.Join(dir, d.file), d.img); err != nil {
					cancel()
				}
			}
		}
		written <- err
	}()
	drawErr := func() error {
		defer close(todo)
		total := len(b.plan.shots)
		for i, s := range b.plan.shots {
			b.progress(StageRendering, i, total)
			if err := ctx.Err(); err != nil {
				return err
			}
			fr, err := b.r.Apply(s.pose)
			if err != nil {
				return fmt.Errorf("pose %s: %w", s.file, err)
			}
			img, err := raster.Render(ctx, tex.scene(fr, f, s.shadow), o)
			if err != nil {
				return fmt.Errorf("draw %s: %w", s.file, err)
			}
			select {
			case todo <- drawn{img, s.file}:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	}()
	// The writer's error comes first: a failed write cancels the drawing.
	if err := <-written; err != nil {
		return err
	}
	return drawErr
}

// encodeTo writes img as a PNG file.
func encodeTo(name string, img *image.NRGBA) error {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return fmt.Errorf("encode %s: %w", filepath.Base(name), err)
	}
	return writeFile(name, buf.Bytes())
}

// manifest is the pack's character.json.
func (b *baker) manifest(id string, f framing, file string) manifest {
	mt := b.m.Meta
	name := mt.Title
	if name == "" || name == "undefined" {
		name = id
	}
	if r := []rune(name); len(r) > character.MaxNameLen {
		name = string(r[:character.MaxNameLen])
	}
	feet := [2]int{
		min(max(f.feet.X/2, 0), b.size.X),
		min(max(f.feet.Y/2, 1), b.size.Y),
	}
	return manifest{
		ID: id, Name: name, Size: [2]int{b.size.X, b.size.Y}, Feet: feet, Faces: b.plan.faces,
		Emotions: b.plan.emotions, Motions: b.plan.motions, TalkByEmotion: b.plan.talkBy, Gaze: b.plan.gaze,
		EmotionTextMode: "free", Source: Source,
		Meta: &character.Meta{
			Title: clip(mt.Title), Version: clip(mt.Version), Author: clip(mt.Author), Contact: clip(mt.Contact),
			Reference: clip(mt.Reference), License: clip(mt.License), AllowedUser: clip(mt.AllowedUser),
			Commercial: clip(mt.Commercial), Redistribution: mt.Redistribution, Model: clip(file),
		},
	}
}

// thumbnail is the model's own picture as a small PNG, nil when it has
// none or it does not decode (the import goes on without it).
func (b *baker) thumbnail() []byte {
	i := b.m.Meta.Thumbnail
	if i < 0 || i >= len(b.m.Textures) {
		return nil
	}
	img, err := b.m.Textures[i].Decode()
	if err != nil {
		return nil
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, shrink(img, thumbnailSide)); err != nil {
		return nil
	}
	return buf.Bytes()
}

// clip cuts a meta text to what a pack keeps.
func clip(s string) string {
	if len(s) <= character.MaxMetaLen {
		return s
	}
	n := character.MaxMetaLen
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func writeFile(name string, data []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(name), err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", filepath.Base(name), err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("sync %s: %w", filepath.Base(name), err)
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
