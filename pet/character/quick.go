package character

import (
	"fmt"
	"image"
	"io/fs"
	"sync"

	"yui/assets"
)

// Quick is a pack loaded in two steps, for a pet's first frame: First is
// the whole pack, validated as Load validates it, with only its idle
// motion's first frame and its neutral face decoded; every other image
// shows the idle motion's first frame until Rest has decoded them all. Decoding the
// built-in pack's 37 images is the largest part of a pet's start before
// its first frame that a bare window does not pay (docs/performance.md).
type Quick struct {
	First *Pack

	once  sync.Once
	m     *manifest
	base  Pack // as validated, before its images
	files *imageFiles
	rest  *Pack
	err   error
}

// LoadQuick reads and validates the pack in fsys as Load does, and
// decodes only its first frame's images. What Load refuses, LoadQuick
// refuses with the same error, but for an image whose data is corrupt
// past a valid header: Rest finds that one.
func LoadQuick(fsys fs.FS) (*Quick, error) {
	m, p, err := readPack(fsys)
	if err != nil {
		return nil, err
	}
	q := &Quick{m: m, base: *p, files: readImages(fsys, m.imageNames())}
	// validate makes every pack have an idle motion with a frame.
	first := m.firstNames()
	q.files.decode(first)
	stand, _ := q.files.image(first[0]) // nil when it failed: assign says why
	if stand == nil {
		// The pack will be refused: decode the rest as well, so that it
		// is refused for Load's reason (the first failure in assign's
		// order), not for an image that was merely not decoded yet
		// (FuzzLoad's 3cdaf7118df88000).
		q.files.decode(m.imageNames())
	}
	q.First = q.base.fresh()
	if err := q.First.assign(m, q.files, stand); err != nil {
		return nil, fmt.Errorf("load pack %s: %w", p.ID, err)
	}
	return q, nil
}

// Rest returns the pack with every image decoded, decoding them on the
// first call (on all cores: call it off the UI goroutine); later calls
// return the same. Safe for concurrent use.
func (q *Quick) Rest() (*Pack, error) {
	q.once.Do(func() {
		q.files.decode(q.m.imageNames())
		p := q.base.fresh()
		if err := p.assign(q.m, q.files, nil); err != nil {
			q.err = fmt.Errorf("load pack %s: %w", p.ID, err)
			return
		}
		q.rest = p
	})
	return q.rest, q.err
}

// fresh is a copy of a validated pack with maps of its own for the
// images, which assign fills.
func (p *Pack) fresh() *Pack {
	c := *p
	c.Emotions = map[string]image.Image{}
	c.Motions = map[string]Motion{}
	c.Gaze, c.Mirror = nil, nil
	return &c
}

// firstNames are the images a pet's first frame draws: its idle motion's
// first frame and its neutral face. The idle motion's other frames wait
// for Rest like the rest of the pack: decoding them before the first frame
// (about 40 ms of CPU for the built-in pack's eight) took a core from the
// font scan the first frame waits for, while the idle motion changes
// frame at most twice a second (windows/petwindow/frames.go) and Rest
// comes a fraction of a second after the first frame.
func (m *manifest) firstNames() []string {
	var names []string
	if mo := m.Motions["idle"]; mo != nil && len(mo.Frames) > 0 {
		names = append(names, mo.Frames[0])
	}
	if n, ok := m.Emotions["neutral"]; ok {
		names = append(names, n)
	}
	return names
}

// SelectQuick is Select over LoadQuick: the pack to show for a preset's
// character id, its first frame decoded and the rest left for Rest.
func SelectQuick(configDir, id string) (*Quick, error) {
	return selectWith(configDir, id, LoadQuick, func(q *Quick) string { return q.First.ID }, DefaultQuick)
}

// DefaultQuick is Default over LoadQuick.
func DefaultQuick() *Quick {
	q, err := LoadQuick(assets.DefaultCharacter())
	if err != nil {
		panic(fmt.Sprintf("embedded default character is broken: %v", err))
	}
	return q
}
