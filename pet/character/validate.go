package character

import (
	"errors"
	"fmt"
	"image"
	"io/fs"
	"math"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// validate checks everything but the images and returns the pack without
// them. The checks run in the manifest's order (identity, emotions,
// motions, gaze, emotion text, then the optional parts), so the first
// error a pack author sees is the first field at fault.
func (m *manifest) validate() (*Pack, error) {
	p, err := m.validateIdentity()
	if err != nil {
		return nil, err
	}
	if err := m.checkEmotions(); err != nil {
		return nil, err
	}
	if err := m.checkMotions(); err != nil {
		return nil, err
	}
	if err := m.checkGaze(); err != nil {
		return nil, err
	}
	if err := m.validateEmotionText(p); err != nil {
		return nil, err
	}
	if err := m.validatePose(p); err != nil {
		return nil, err
	}
	if err := m.validateMeta(p); err != nil {
		return nil, err
	}
	if p.FillerLines, err = checkLines("filler_lines", m.FillerLines); err != nil {
		return nil, err
	}
	if p.FailureLines, err = checkLines("failure_lines", m.FailureLines); err != nil {
		return nil, err
	}
	if p.Lines, err = checkLanguageLines(m.Lines); err != nil {
		return nil, err
	}
	if err := m.checkDefaults(p); err != nil {
		return nil, err
	}
	return p, nil
}

// validateIdentity checks the id, name and size and returns the pack they
// start, with its maps made and nothing else filled.
func (m *manifest) validateIdentity() (*Pack, error) {
	switch {
	case m.ID == "":
		return nil, errors.New(`"id" is missing`)
	case !ValidID(m.ID):
		return nil, fmt.Errorf(`"id" %q must be 1 to 64 letters, digits, "-" or "_", starting with a letter or digit`, m.ID)
	}
	name := strings.TrimSpace(m.Name)
	switch {
	case name == "":
		return nil, errors.New(`"name" is missing`)
	case utf8.RuneCountInString(name) > MaxNameLen:
		return nil, fmt.Errorf(`"name" is longer than %d characters`, MaxNameLen)
	}
	if len(m.Size) != 2 {
		return nil, fmt.Errorf(`"size" must be [width, height], got %d numbers`, len(m.Size))
	}
	for i, v := range m.Size {
		if v < MinSize || v > MaxSize {
			return nil, fmt.Errorf(`"size" %s %d is outside %d..%d`, [2]string{"width", "height"}[i], v, MinSize, MaxSize)
		}
	}
	return &Pack{
		ID:              m.ID,
		Name:            name,
		Size:            [2]int{m.Size[0], m.Size[1]},
		Emotions:        map[string]image.Image{},
		Motions:         map[string]Motion{},
		EmotionTextMode: m.EmotionTextMode,
		EmotionTextMap:  map[string]string{},
	}, nil
}

// checkEmotions checks that "neutral" is there and every emotion's id and
// image path.
func (m *manifest) checkEmotions() error {
	if len(m.Emotions) == 0 {
		return errors.New(`"emotions" is missing or empty; at least "neutral" is required`)
	}
	if _, ok := m.Emotions["neutral"]; !ok {
		return errors.New(`"emotions" has no "neutral"`)
	}
	for _, id := range sortedKeys(m.Emotions) {
		if !ValidID(id) {
			return fmt.Errorf(`emotion id %q must be 1 to 64 letters, digits, "-" or "_"`, id)
		}
		if err := checkImagePath(m.Emotions[id]); err != nil {
			return fmt.Errorf("emotion %s: %w", id, err)
		}
	}
	return nil
}

// checkMotions checks that every required motion is there, then each
// motion in id order.
func (m *manifest) checkMotions() error {
	for _, id := range RequiredMotions {
		if mo, ok := m.Motions[id]; !ok || mo == nil {
			return fmt.Errorf(`"motions" has no %q (required: %s)`, id, strings.Join(RequiredMotions, ", "))
		}
	}
	for _, id := range sortedKeys(m.Motions) {
		if err := checkMotion(id, m.Motions[id]); err != nil {
			return err
		}
	}
	return nil
}

// checkMotion checks one motion's id, its frame count and paths, and its
// frame rate.
func checkMotion(id string, mo *manifestMotion) error {
	if !ValidID(id) {
		return fmt.Errorf(`motion id %q must be 1 to 64 letters, digits, "-" or "_"`, id)
	}
	if mo == nil {
		return fmt.Errorf("motion %s: is null", id)
	}
	switch n := len(mo.Frames); {
	case n == 0:
		return fmt.Errorf("motion %s: no frames", id)
	case n > MaxFrames:
		return fmt.Errorf("motion %s: %d frames, at most %d", id, n, MaxFrames)
	}
	for i, f := range mo.Frames {
		if err := checkImagePath(f); err != nil {
			return fmt.Errorf("motion %s frame %d: %w", id, i, err)
		}
	}
	switch {
	case mo.FPS == nil:
		return fmt.Errorf(`motion %s: "fps" is missing`, id)
	case math.IsNaN(*mo.FPS) || *mo.FPS < MinFPS || *mo.FPS > MaxFPS:
		return fmt.Errorf(`motion %s: "fps" %v is outside %v..%v`, id, *mo.FPS, MinFPS, MaxFPS)
	}
	return nil
}

// checkGaze checks the optional gaze images' directions and paths.
func (m *manifest) checkGaze() error {
	for _, dir := range sortedKeys(m.Gaze) {
		if dir != GazeLeft && dir != GazeRight {
			return fmt.Errorf(`"gaze" key %q must be %q or %q`, dir, GazeLeft, GazeRight)
		}
		if err := checkImagePath(m.Gaze[dir]); err != nil {
			return fmt.Errorf("gaze %s: %w", dir, err)
		}
	}
	return nil
}

// validateEmotionText checks the emotion text mode and map and sets them
// on p, the mode defaulting to "free".
func (m *manifest) validateEmotionText(p *Pack) error {
	switch p.EmotionTextMode {
	case "":
		p.EmotionTextMode = "free"
	case "free", "enum":
	default:
		return fmt.Errorf(`"emotion_text_mode" %q must be "free" or "enum"`, p.EmotionTextMode)
	}
	for _, k := range sortedKeys(m.EmotionTextMap) {
		v := strings.TrimSpace(m.EmotionTextMap[k])
		if strings.TrimSpace(k) == "" || v == "" {
			return fmt.Errorf(`"emotion_text_map" has an empty tag or word (%q: %q)`, k, m.EmotionTextMap[k])
		}
		p.EmotionTextMap[k] = v
	}
	if p.EmotionTextMode == "enum" && len(p.EmotionTextMap) == 0 {
		return errors.New(`"emotion_text_mode" is "enum" but "emotion_text_map" is empty`)
	}
	return nil
}

func checkLines(field string, lines []string) ([]string, error) {
	if len(lines) > MaxLines {
		return nil, fmt.Errorf("%q has %d lines, at most %d", field, len(lines), MaxLines)
	}
	out := make([]string, 0, len(lines))
	for i, l := range lines {
		l = strings.TrimSpace(l)
		switch {
		case l == "":
			return nil, fmt.Errorf("%q line %d is empty", field, i+1)
		case len(l) > MaxLineLen:
			return nil, fmt.Errorf("%q line %d is longer than %d bytes", field, i+1, MaxLineLen)
		}
		out = append(out, l)
	}
	return out, nil
}

// checkImagePath refuses image paths that are empty, leave the pack folder
// (absolute, "..", drive letters, backslashes) or do not name a PNG.
func checkImagePath(p string) error {
	switch {
	case p == "":
		return errors.New("image path is empty")
	case strings.HasPrefix(p, "/") || filepath.IsAbs(p) || strings.Contains(p, `\`) || strings.Contains(p, ":"):
		return fmt.Errorf("image path %q must be relative to the pack folder", p)
	case !fs.ValidPath(p) || strings.HasPrefix(p, "./"):
		return fmt.Errorf("image path %q must stay inside the pack folder (no \"..\" or \".\" elements)", p)
	case !strings.EqualFold(path.Ext(p), ".png"):
		return fmt.Errorf("image %q is not a .png file", p)
	}
	return nil
}
