package character

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io/fs"
	"os"
	"sort"
	"strings"
	"unicode/utf8"
)

// The fields a pack made from a 3D model adds (docs/product.md §14): a
// talk loop per emotion and the model's meta. Both are optional: a pack
// without them (the built-in characters, Shimeji sets) loads as before.

// Limits of the meta fields.
const (
	MaxMetaLen        = 500 // bytes per meta text
	MaxThumbnailSide  = 1024
	MaxThumbnailBytes = 4 << 20
)

// Allowed users, as a model's meta says them (VRM's allowedUser).
const (
	AllowOnlyAuthor = "OnlyAuthor"
	AllowLicensed   = "OnlySeparatelyLicensedPerson"
	AllowEveryone   = "Everyone"
)

// Meta is who made a model and what its user may do with it, kept from
// the model a pack was made from (VRM's meta). Every field may be empty.
type Meta struct {
	Title     string `json:"title,omitempty"`
	Version   string `json:"version,omitempty"`
	Author    string `json:"author,omitempty"`
	Contact   string `json:"contact,omitempty"`
	Reference string `json:"reference,omitempty"`
	// License is the licence's name or address.
	License string `json:"license,omitempty"`
	// AllowedUser is AllowOnlyAuthor, AllowLicensed or AllowEveryone.
	AllowedUser string `json:"allowed_user,omitempty"`
	// Commercial is "personalNonProfit", "personalProfit" or "corporation".
	Commercial string `json:"commercial,omitempty"`
	// Redistribution is whether the model may be passed on.
	Redistribution bool `json:"redistribution"`
	// Thumbnail is the model's picture, a PNG in the pack folder ("" none).
	Thumbnail string `json:"thumbnail,omitempty"`
	// Model is the file name the pack was made from.
	Model string `json:"model,omitempty"`
}

// metaFields are character.json's fields for a pack made from a model.
type metaFields struct {
	// TalkByEmotion names, for an emotion, the motion played while the
	// character talks with that emotion: a loop of mouth shapes on that
	// emotion's face. An emotion left out talks as Frames always did.
	TalkByEmotion map[string]string `json:"talk_by_emotion,omitempty"`
	Meta          *Meta             `json:"meta,omitempty"`
}

// validateMeta checks the talk_by_emotion and meta fields and sets them
// on p (after the emotions and motions are checked).
func (m *manifest) validateMeta(p *Pack) error {
	for _, e := range sortedKeys(m.TalkByEmotion) {
		mo := m.TalkByEmotion[e]
		if _, ok := m.Emotions[e]; !ok {
			return fmt.Errorf(`"talk_by_emotion" names emotion %q the pack does not have`, e)
		}
		if mm, ok := m.Motions[mo]; !ok || mm == nil {
			return fmt.Errorf(`"talk_by_emotion" %s names motion %q the pack does not have`, e, mo)
		}
		if p.TalkByEmotion == nil {
			p.TalkByEmotion = map[string]string{}
		}
		p.TalkByEmotion[e] = mo
	}
	if m.Meta == nil {
		return nil
	}
	mt := *m.Meta
	texts := map[string]*string{
		"title": &mt.Title, "version": &mt.Version, "author": &mt.Author, "contact": &mt.Contact,
		"reference": &mt.Reference, "license": &mt.License, "allowed_user": &mt.AllowedUser,
		"commercial": &mt.Commercial, "model": &mt.Model,
	}
	keys := make([]string, 0, len(texts))
	for k := range texts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		s := strings.TrimSpace(*texts[k])
		if len(s) > MaxMetaLen || !utf8.ValidString(s) {
			return fmt.Errorf(`"meta" %q is longer than %d bytes`, k, MaxMetaLen)
		}
		*texts[k] = s
	}
	if mt.Thumbnail != "" {
		if err := checkImagePath(mt.Thumbnail); err != nil {
			return fmt.Errorf(`"meta" thumbnail: %w`, err)
		}
	}
	p.Meta = &mt
	return nil
}

// TalkMotion is the motion that plays while the character talks with
// emotion: the pack's talk loop for it, else "talk".
func (p *Pack) TalkMotion(emotion string) string {
	if p == nil {
		return "talk"
	}
	if emotion == "" {
		emotion = "neutral"
	}
	if mo := p.TalkByEmotion[emotion]; mo != "" && p.Has(mo) {
		return mo
	}
	return "talk"
}

// talkLoops are the motions talk_by_emotion names other than talk: they
// play under talk, so a cue does not ask for them by name.
func (p *Pack) talkLoops() map[string]bool {
	out := map[string]bool{}
	for _, mo := range p.TalkByEmotion {
		if mo != "talk" {
			out[mo] = true
		}
	}
	return out
}

// ReadThumbnail decodes the thumbnail the pack in fsys names in its meta,
// nil when it has none. It is read apart from the pack's images (they
// share one size; a thumbnail need not), for the character gallery.
func ReadThumbnail(fsys fs.FS, p *Pack) (image.Image, error) {
	if p == nil || p.Meta == nil || p.Meta.Thumbnail == "" {
		return nil, nil
	}
	data, err := fs.ReadFile(fsys, p.Meta.Thumbnail)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("thumbnail %s: %w", p.Meta.Thumbnail, os.ErrNotExist)
	case err != nil:
		return nil, fmt.Errorf("thumbnail: %w", unwrapPath(err))
	case len(data) > MaxThumbnailBytes:
		return nil, fmt.Errorf("thumbnail %s is larger than %d MiB", p.Meta.Thumbnail, MaxThumbnailBytes>>20)
	case !bytes.HasPrefix(data, pngMagic):
		return nil, fmt.Errorf("thumbnail %s is not a PNG file", p.Meta.Thumbnail)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("thumbnail %s: %w", p.Meta.Thumbnail, err)
	}
	if cfg.Width < 1 || cfg.Height < 1 || cfg.Width > MaxThumbnailSide || cfg.Height > MaxThumbnailSide {
		return nil, fmt.Errorf("thumbnail %s is %dx%d; each side must be 1..%d pixels", p.Meta.Thumbnail, cfg.Width, cfg.Height, MaxThumbnailSide)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("thumbnail %s: %w", p.Meta.Thumbnail, err)
	}
	return img, nil
}
