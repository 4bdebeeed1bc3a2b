// Package character loads character packs: character.json plus PNG images
// (docs/product.md §4), from the embedded default or a user folder.
//
// A pack is validated completely before it is used: a broken user pack is
// refused with a reason the app can show, and the default stays.
package character

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"time"
	"unicode/utf8"

	"yui/assets"
	"yui/transport"
)

// RequiredMotions every pack must define.
var RequiredMotions = []string{"idle", "thinking", "talk", "walk", "sit", "fall"}

// DefaultID is the id of the embedded default pack.
const DefaultID = "yui"

// ManifestName is the pack's description file at the root of its folder.
const ManifestName = "character.json"

// Limits a pack must keep.
const (
	MaxImageSide     = 4096     // pixels, either side
	MaxImageBytes    = 16 << 20 // bytes per PNG file
	MaxManifestBytes = 1 << 20  // bytes of character.json
	MaxTotalPixels   = 64 << 20 // decoded pixels over all images
	// MaxTotalBytes bounds the image files over the pack, which are all
	// held at once while they decode (images.go): no PNG is larger than
	// its pixels, which MaxTotalPixels bounds at 256 MiB.
	MaxTotalBytes = 256 << 20
	MaxFrames     = 256  // frames per motion
	MaxImages     = 1024 // distinct image files
	MinSize       = 16   // logical pixels, either side
	MaxSize       = 2048 // logical pixels, either side
	MinFPS        = 0.1
	MaxFPS        = 60
	MaxLines      = 64  // filler or failure lines
	MaxLineLen    = 500 // bytes per line
	MaxNameLen    = 64  // runes
)

// Pack is a loaded, validated character.
type Pack struct {
	ID   string
	Name string
	// Size is the character's logical size in pixels (width, height); the
	// images are drawn at 2x for HiDPI.
	Size [2]int
	// ImageSize is the pixel size shared by every image of the pack.
	ImageSize image.Point
	// Emotions and Motions hold *image.NRGBA images.
	Emotions map[string]image.Image
	Motions  map[string]Motion
	// Gaze holds the optional frames of the neutral face looking towards
	// the pointer, by GazeLeft and GazeRight; a pack may have none.
	Gaze            map[string]image.Image
	EmotionTextMode string // "free" or "enum"
	EmotionTextMap  map[string]string
	// FillerLines and FailureLines may be empty.
	FillerLines  []string
	FailureLines []string
	// Lines are the filler and failure lines by language (lines.go).
	Lines map[string]Lines
	// Card is the character's default persona text and Speech its
	// default speech settings (card.go); both may be empty.
	Card   string
	Speech Speech
	// Feet is the point (logical pixels) the character stands on: the
	// pet's feet line is Feet.Y, and what is drawn below hangs over the
	// edge it sits on.
	Feet image.Point
	// Faces is the side the images look to; Mirror holds them flipped.
	Faces  Facing
	Mirror *Mirror
	// WalkSpeed is the walk's pace in logical pixels per second; 0 is
	// the app's own.
	WalkSpeed float64
	// Source is what the pack was imported from, "" when made by hand.
	Source string
	// TalkByEmotion is the talk loop by emotion (meta.go); nil when the
	// pack has one talk loop.
	TalkByEmotion map[string]string
	// Meta is the model's meta of a pack made from one, else nil.
	Meta *Meta
}

// Motion is an animation.
type Motion struct {
	Frames []image.Image
	FPS    float64
	Loop   bool
	// Durations, when set, is how long each frame shows (same length
	// as Frames); FPS is then their average.
	Durations []time.Duration
}

// manifest is character.json as written.
type manifest struct {
	ID              string                     `json:"id"`
	Name            string                     `json:"name"`
	Size            []int                      `json:"size"`
	Emotions        map[string]string          `json:"emotions"`
	Motions         map[string]*manifestMotion `json:"motions"`
	EmotionTextMode string                     `json:"emotion_text_mode"`
	EmotionTextMap  map[string]string          `json:"emotion_text_map"`
	FillerLines     []string                   `json:"filler_lines"`
	FailureLines    []string                   `json:"failure_lines"`
	Lines           map[string]Lines           `json:"lines,omitempty"`
	Gaze            map[string]string          `json:"gaze"`
	Card            string                     `json:"card"`
	Speech          *Speech                    `json:"speech"`
	poseFields
	metaFields
}

type manifestMotion struct {
	Frames []string `json:"frames"`
	FPS    *float64 `json:"fps"`
	Loop   bool     `json:"loop"`
	// DurationsMS is each frame's time in milliseconds (optional).
	DurationsMS []int64 `json:"durations_ms"`
}

// idPattern is what pack, emotion and motion ids look like. Pack ids name
// folders, so they must be safe as a path element.
var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)

// ValidID reports whether id can name a pack (and its folder).
func ValidID(id string) bool { return idPattern.MatchString(id) }

// Load reads and validates the pack in fsys (character.json at its root).
// Errors say what is wrong: "load pack <id>: ...".
func Load(fsys fs.FS) (*Pack, error) {
	m, p, err := readPack(fsys)
	if err != nil {
		return nil, err
	}
	if err := p.loadImages(fsys, m); err != nil {
		return nil, fmt.Errorf("load pack %s: %w", p.ID, err)
	}
	return p, nil
}

// readPack reads fsys's character.json and validates it: the pack before
// its images (Load, LoadQuick).
func readPack(fsys fs.FS) (*manifest, *Pack, error) {
	m, err := readManifest(fsys)
	if err != nil {
		return nil, nil, fmt.Errorf("load pack: %w", err)
	}
	p, err := m.validate()
	if err != nil {
		return nil, nil, fmt.Errorf("load pack %s: %w", packLabel(m.ID), err)
	}
	return m, p, nil
}

// Refused is the error of a pack id refused for err, the default standing
// in: Select's, and the app's when a pack's rest fails to decode
// (Quick.Rest).
func Refused(id string, err error) error {
	return fmt.Errorf("character %q refused: %w; using the default character", id, err)
}

// packLabel is how an error names a pack whose id may be bad.
func packLabel(id string) string {
	if ValidID(id) {
		return id
	}
	return fmt.Sprintf("%q", id)
}

// LoadDir loads the pack in the folder dir, for example
// <config dir>/characters/<id>/.
func LoadDir(dir string) (*Pack, error) { return loadDir(dir, Load) }

// loadDir is LoadDir with load in place of Load.
func loadDir[T any](dir string, load func(fs.FS) (T, error)) (T, error) {
	var zero T
	st, err := os.Stat(dir)
	if err != nil {
		return zero, fmt.Errorf("load pack from %s: %w", dir, err)
	}
	if !st.IsDir() {
		return zero, fmt.Errorf("load pack from %s: not a folder", dir)
	}
	return load(os.DirFS(dir))
}

// Dir is the folder a user pack with this id is read from.
func Dir(configDir, id string) string {
	return filepath.Join(configDir, "characters", id)
}

// Select returns the pack to show for a preset's character id: the user
// pack in <configDir>/characters/<id>/ when it exists and is valid, else the
// default. When the default stands in for a pack that was asked for, the
// error says why (a missing folder, or why the pack was refused) so the app
// can tell the user; the returned pack is never nil.
//
// The id "" and DefaultID with no user folder select the default without an
// error.
func Select(configDir, id string) (*Pack, error) {
	return selectPack(configDir, id, Default)
}

// selectPack is Select with the default pack supplied by def.
func selectPack(configDir, id string, def func() *Pack) (*Pack, error) {
	return selectWith(configDir, id, Load, func(p *Pack) string { return p.ID }, def)
}

// selectWith is Select's rule over a way to load a pack (Load, LoadQuick),
// the id of what it loaded, and the default.
func selectWith[T any](configDir, id string, load func(fs.FS) (T, error), idOf func(T) string, def func() T) (T, error) {
	builtin := func() (T, bool) {
		fsys := assets.BuiltinCharacter(id)
		if fsys == nil || id == DefaultID {
			var zero T
			return zero, false
		}
		p, err := load(fsys)
		if err != nil {
			panic(fmt.Sprintf("embedded character %s is broken: %v", id, err))
		}
		return p, true
	}
	if id == "" {
		return def(), nil
	}
	if !ValidID(id) {
		return def(), fmt.Errorf("character %q: not a valid pack id; using the default character", id)
	}
	if configDir == "" {
		if id == DefaultID {
			return def(), nil
		}
		if b, ok := builtin(); ok {
			return b, nil
		}
		return def(), fmt.Errorf("character %q: no config folder to load it from; using the default character", id)
	}
	dir := Dir(configDir, id)
	if _, err := os.Stat(dir); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if id == DefaultID {
				return def(), nil
			}
			if b, ok := builtin(); ok {
				return b, nil
			}
			return def(), fmt.Errorf("character %q: no pack at %s; using the default character", id, dir)
		}
		return def(), fmt.Errorf("character %q: %w; using the default character", id, err)
	}
	p, err := loadDir(dir, load)
	if err != nil {
		return def(), Refused(id, err)
	}
	if got := idOf(p); got != id {
		return def(), fmt.Errorf("character %q refused: %s says its id is %q; using the default character", id, filepath.Join(dir, ManifestName), got)
	}
	return p, nil
}

// Default returns the embedded default pack (Yui). Each call loads a fresh
// copy, so callers may keep and change theirs. It panics only if the
// embedded pack is broken, which a test guards against.
func Default() *Pack {
	p, err := Load(assets.DefaultCharacter())
	if err != nil {
		panic(fmt.Sprintf("embedded default character is broken: %v", err))
	}
	return p
}

// Builtin loads the embedded pack id other than the default (Mint); ok is
// false when no built-in pack has that id. A user folder of the same id
// comes first (Select).
func Builtin(id string) (*Pack, bool) {
	fsys := assets.BuiltinCharacter(id)
	if fsys == nil || id == DefaultID {
		return nil, false
	}
	p, err := Load(fsys)
	if err != nil {
		panic(fmt.Sprintf("embedded character %s is broken: %v", id, err))
	}
	return p, true
}

// BuiltinIDs are the embedded packs' ids, the default first.
func BuiltinIDs() []string { return append([]string(nil), assets.BuiltinIDs...) }

// Vocabulary is what the pack renders: sorted emotion and motion ids and its
// emotion-text mode and map. The talk loops of talk_by_emotion are not
// motions a cue names: talk plays them.
func (p *Pack) Vocabulary() transport.Vocabulary {
	loops := p.talkLoops()
	motions := make([]string, 0, len(p.Motions))
	for _, id := range sortedKeys(p.Motions) {
		if !loops[id] {
			motions = append(motions, id)
		}
	}
	v := transport.Vocabulary{
		EmotionIDs:      sortedKeys(p.Emotions),
		MotionIDs:       motions,
		EmotionTextMode: p.EmotionTextMode,
		EmotionTextMap:  make(map[string]string, len(p.EmotionTextMap)),
	}
	for k, val := range p.EmotionTextMap {
		v.EmotionTextMap[k] = val
	}
	return v
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func readManifest(fsys fs.FS) (*manifest, error) {
	f, err := fsys.Open(ManifestName)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ManifestName, unwrapPath(err))
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxManifestBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", ManifestName, unwrapPath(err))
	}
	if len(data) > MaxManifestBytes {
		return nil, fmt.Errorf("%s is larger than %d bytes", ManifestName, MaxManifestBytes)
	}
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("%s is not UTF-8 text", ManifestName)
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := position(data, se.Offset)
			return nil, fmt.Errorf("%s is not valid JSON (line %d, column %d): %w", ManifestName, line, col, err)
		}
		return nil, fmt.Errorf("%s: %w", ManifestName, err)
	}
	return &m, nil
}

// position turns a byte offset into a 1-based line and column.
func position(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}

// unwrapPath drops the *fs.PathError wrapper whose path repeats what the
// message already names, keeping the cause.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
