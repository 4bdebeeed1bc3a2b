// Package shimeji imports Shimeji and Shimeji-ee character sets as
// character packs: it reads a set's configuration (Shimeji-ee's English
// element names or the original's Japanese ones, UTF-8 or Shift_JIS),
// maps its actions onto the pack's motions (docs/character/README.md),
// puts every pose on one canvas with its anchor on the pack's feet point,
// and writes <config dir>/characters/<id>/ in one rename. A bad set is
// refused with the reason before anything is written.
package shimeji

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Options say what to import and where to.
type Options struct {
	// Dir is the set's folder.
	Dir string
	// ConfigDir is Yui's config folder; the pack goes to
	// <ConfigDir>/characters/<id>/.
	ConfigDir string
	// ID is the pack's id; "" makes one from the set's name that no
	// installed pack has.
	ID string
	// Set picks one of several image sets under img/ (Shimeji-ee); ""
	// is the first by name.
	Set string
}

// Result is the imported pack.
type Result struct {
	ID, Name string
	// Dir is the pack's folder.
	Dir string
}

// Import reads the set o.Dir names and writes it as a pack.
func Import(o Options) (Result, error) {
	if o.ConfigDir == "" {
		return Result{}, errors.New("import: no config folder")
	}
	if o.ID != "" && !validID(o.ID) {
		return Result{}, fmt.Errorf("import: id %q must be 1 to 64 letters, digits, \"-\" or \"_\", starting with a letter or digit", o.ID)
	}
	l, err := locate(o.Dir, o.Set)
	if err != nil {
		return Result{}, fmt.Errorf("import %s: %w", o.Dir, err)
	}
	b, err := build(l)
	if err != nil {
		return Result{}, fmt.Errorf("import %s: %w", o.Dir, err)
	}
	id := o.ID
	if id == "" {
		id = freeID(o.ConfigDir, idFrom(l.name))
	}
	dir, err := b.write(o.ConfigDir, id)
	if err != nil {
		return Result{}, fmt.Errorf("import %s: %w", o.Dir, err)
	}
	return Result{ID: id, Name: b.name, Dir: dir}, nil
}

// layout is where a set's parts are.
type layout struct {
	name      string // the set's name: its image folder's, or the set folder's
	images    string // folder of the pose images
	actions   string // actions.xml or 動作.xml
	behaviors string // behaviors.xml or 行動.xml; "" when missing
}

// locate finds the images and the configuration: images directly in dir,
// in dir/img/ (the original Shimeji) or in dir/img/<name>/ (Shimeji-ee);
// configuration in <images>/conf/, dir/conf/ or a conf/ one or two levels
// up from the images.
func locate(dir, set string) (layout, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return layout{}, fmt.Errorf("set folder: %w", unwrap(err))
	}
	if !st.IsDir() {
		return layout{}, errors.New("not a folder")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return layout{}, err
	}
	l := layout{name: filepath.Base(abs)}
	imgDir := filepath.Join(abs, "img")
	switch {
	case set != "":
		sets := subsets(imgDir)
		if !contains(sets, set) {
			if len(sets) == 0 {
				return layout{}, fmt.Errorf("no image sets in %s, so no set %q", imgDir, set)
			}
			return layout{}, fmt.Errorf("no image set %q in %s (there are: %s)", set, imgDir, strings.Join(sets, ", "))
		}
		l.images, l.name = filepath.Join(imgDir, set), set
	case hasPNG(abs):
		l.images = abs
	case hasPNG(imgDir):
		l.images = imgDir
	default:
		sets := subsets(imgDir)
		if len(sets) == 0 {
			return layout{}, errors.New("no images: no PNG files in the folder, in img/ or in img/<name>/")
		}
		l.images, l.name = filepath.Join(imgDir, sets[0]), sets[0]
	}
	for _, c := range []string{filepath.Join(l.images, "conf"), filepath.Join(abs, "conf"), filepath.Join(l.images, "..", "conf"), filepath.Join(l.images, "..", "..", "conf")} {
		if a := findFile(c, "actions.xml", "動作.xml"); a != "" {
			l.actions = a
			l.behaviors = findFile(c, "behaviors.xml", "行動.xml")
			break
		}
	}
	if l.actions == "" {
		return layout{}, errors.New("no configuration: no conf/actions.xml (or conf/動作.xml) by the images or the set folder")
	}
	return l, nil
}

// subsets lists dir's sub-folders that hold PNG files, sorted.
func subsets(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() && hasPNG(filepath.Join(dir, e.Name())) {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// hasPNG reports whether dir holds a .png file.
func hasPNG(dir string) bool {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if !e.IsDir() && strings.EqualFold(filepath.Ext(e.Name()), ".png") {
			return true
		}
	}
	return false
}

// findFile returns the first of names in dir, matched without case.
func findFile(dir string, names ...string) string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, n := range names {
		for _, e := range ents {
			if !e.IsDir() && strings.EqualFold(e.Name(), n) {
				return filepath.Join(dir, e.Name())
			}
		}
	}
	return ""
}

var (
	idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)
	notID     = regexp.MustCompile(`[^a-z0-9_-]+`)
)

func validID(id string) bool { return idPattern.MatchString(id) }

// idFrom makes a pack id of a set's name: "Shimeji" → "shimeji"; a name
// with no Latin letters or digits gives "shimeji".
func idFrom(name string) string {
	id := strings.Trim(notID.ReplaceAllString(strings.ToLower(name), "-"), "-_")
	if len(id) > 56 {
		id = strings.TrimRight(id[:56], "-_")
	}
	if !validID(id) {
		return "shimeji"
	}
	return id
}

// freeID returns id, or id-2, id-3 … when a pack of that id is installed.
func freeID(configDir, id string) string {
	for n := 1; ; n++ {
		c := id
		if n > 1 {
			c = fmt.Sprintf("%s-%d", id, n)
		}
		if _, err := os.Lstat(filepath.Join(configDir, "characters", c)); errors.Is(err, fs.ErrNotExist) || n > 999 {
			return c
		}
	}
}

// unwrap drops a *fs.PathError whose path the message names already.
func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
