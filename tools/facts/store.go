// Package facts is the long-term memory of the request transports: the
// facts the model keeps with the remember tool and drops with forget
// (docs/protocol/client-tools.md), kept per preset, put in every request's system
// prompt within a budget, and seen and edited by the user on the
// settings window's Memory page. It runs headless with an injected clock.
package facts

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"yui/transport/clock"
)

// Limits.
const (
	// MaxFacts is how many facts a preset keeps: past it the least
	// recently used go first.
	MaxFacts = 500
	// MaxFactLen is a fact's limit in code points.
	MaxFactLen = 300
	// maxFileBytes bounds a facts file or an import: 500 facts of 300
	// code points are well under it.
	maxFileBytes = 4 << 20
	// touchEvery is how stale a saved "last used" may be before using a
	// fact writes the file again: a request every few seconds does not
	// write it every time.
	touchEvery = 10 * time.Minute
)

// maxID bounds the ids a file may give: past it a fact gets a new one,
// so that the next id never overflows.
const maxID = 1 << 40

// fileVersion is the version of the facts file's shape.
const fileVersion = 1

// About says whom a fact is about.
type About string

// The values of remember's "about".
const (
	AboutUser  About = "user"
	AboutWorld About = "world"
	AboutUs    About = "us"
)

// ParseAbout reads an "about" value; "" is the user.
func ParseAbout(s string) (About, bool) {
	switch a := About(s); a {
	case "":
		return AboutUser, true
	case AboutUser, AboutWorld, AboutUs:
		return a, true
	}
	return "", false
}

// Fact is one kept fact.
type Fact struct {
	ID      int64     `json:"id"`
	Text    string    `json:"text"`
	About   About     `json:"about"`
	Created time.Time `json:"created"`
	// LastUsed is when the fact last went into a request or was
	// remembered again; zero when never.
	LastUsed time.Time `json:"last_used"`
	// Uses counts the times the model remembered the fact again.
	Uses int `json:"uses,omitempty"`
}

// recent is when the fact was last learnt or used: the LRU order.
func (f Fact) recent() time.Time {
	if f.LastUsed.After(f.Created) {
		return f.LastUsed
	}
	return f.Created
}

// file is the facts file's shape.
type file struct {
	Version int    `json:"version"`
	NextID  int64  `json:"next_id"`
	Facts   []Fact `json:"facts"`
}

// Files keeps one preset's facts file: <config dir>/memory/<preset
// id>.facts.json, written atomically, mode 0600. The app implements it.
type Files interface {
	// Load returns the file's bytes; an error wrapping fs.ErrNotExist when
	// there is none.
	Load() ([]byte, error)
	// Save replaces the file atomically.
	Save(data []byte) error
	// KeepAside moves an unreadable file out of the way, keeping it, and
	// returns where it went.
	KeepAside() (string, error)
}

// Errors of the store's edits.
var (
	ErrNoSuchMemory = errors.New("no such memory")
	ErrEmpty        = errors.New("a fact needs some text")
	ErrTooLong      = fmt.Errorf("a fact is at most %d characters", MaxFactLen)
	ErrAbout        = errors.New(`about is "user", "world" or "us"`)
)

// Store is one preset's facts. Its methods are safe for concurrent use;
// those that change facts write the file before they return, so call
// them off the UI goroutine. Reads never wait for a write.
type Store struct {
	files Files // nil keeps the facts for the run only (the demo pet)
	clk   clock.Clock
	log   *slog.Logger

	// saveMu orders writes: the snapshot is taken under it, so an older
	// state never overwrites a newer one.
	saveMu sync.Mutex

	mu      sync.Mutex
	facts   []Fact // in no particular order
	nextID  int64
	savedAt map[int64]time.Time // LastUsed as last written
	watch   map[int]func()
	watchN  int
}

// Open loads the facts of files. A file that cannot be read as facts is
// kept aside (logged as memory_facts_unreadable) and the store starts
// empty: nothing is lost and nothing fails.
func Open(files Files, clk clock.Clock, log *slog.Logger) *Store {
	if clk == nil {
		clk = clock.Real{}
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Store{files: files, clk: clk, log: log, nextID: 1, savedAt: map[int64]time.Time{}, watch: map[int]func(){}}
	if files == nil {
		return s
	}
	data, err := files.Load()
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return s
	case err != nil:
		log.Warn("memory_facts_unreadable", "err", err.Error())
		return s
	}
	facts, next, err := Decode(data)
	if err != nil {
		kept, rerr := files.KeepAside()
		if rerr != nil {
			log.Warn("memory_facts_unreadable", "err", err.Error(), "rename_err", rerr.Error())
		} else {
			log.Warn("memory_facts_unreadable", "err", err.Error(), "kept_as", kept)
		}
		return s
	}
	s.facts, s.nextID = facts, next
	for _, f := range facts {
		s.savedAt[f.ID] = f.LastUsed
	}
	log.Info("memory_facts_loaded", "facts", len(facts))
	return s
}

// evict keeps the MaxFacts most recently used facts.
func evict(facts []Fact) []Fact {
	if len(facts) <= MaxFacts {
		return facts
	}
	slices.SortStableFunc(facts, func(a, b Fact) int { return b.recent().Compare(a.recent()) })
	return facts[:MaxFacts]
}

// clean collapses runs of white space (new lines too) into one space: a
// fact is one line of the prompt.
func clean(s string) string { return strings.Join(strings.Fields(s), " ") }

// cut shortens s to MaxFactLen code points.
func cut(s string) string {
	if utf8.RuneCountInString(s) <= MaxFactLen {
		return s
	}
	return string([]rune(s)[:MaxFactLen])
}

// Normal is a fact's text for comparison: case folded, spaces collapsed.
func Normal(s string) string { return strings.ToLower(clean(s)) }

// checkText validates a fact's text and returns it cleaned.
func checkText(text string) (string, error) {
	t := clean(text)
	switch {
	case t == "":
		return "", ErrEmpty
	case utf8.RuneCountInString(t) > MaxFactLen:
		return "", ErrTooLong
	}
	return t, nil
}

// List returns the facts in prompt order: the most recently learnt or
// used first, then the ones remembered most often, the newest first.
func (s *Store) List() []Fact {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ordered()
}

func (s *Store) ordered() []Fact {
	out := slices.Clone(s.facts)
	slices.SortFunc(out, func(a, b Fact) int {
		if c := b.recent().Compare(a.recent()); c != 0 {
			return c
		}
		if a.Uses != b.Uses {
			return b.Uses - a.Uses
		}
		if c := b.Created.Compare(a.Created); c != 0 {
			return c
		}
		return int(b.ID - a.ID)
	})
	return out
}

// Len is how many facts are kept.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.facts)
}

// Watch calls fn (from the goroutine that made the change) after every
// change of the facts; the returned func stops it.
func (s *Store) Watch(fn func()) (stop func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.watchN++
	n := s.watchN
	s.watch[n] = fn
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.watch, n)
	}
}

func (s *Store) index(id int64) int {
	return slices.IndexFunc(s.facts, func(f Fact) bool { return f.ID == id })
}

// Remember keeps text as a fact, or, when a kept fact has the same
// normalised text, marks that one used and reports already.
func (s *Store) Remember(text string, about About) (id int64, already bool, err error) {
	t, err := checkText(text)
	if err != nil {
		return 0, false, err
	}
	if about, err = checkAbout(about); err != nil {
		return 0, false, err
	}
	now := s.clk.Now()
	s.mu.Lock()
	norm := Normal(t)
	if i := slices.IndexFunc(s.facts, func(f Fact) bool { return Normal(f.Text) == norm }); i >= 0 {
		s.facts[i].LastUsed = now
		s.facts[i].Uses++
		id = s.facts[i].ID
		s.mu.Unlock()
		return id, true, s.save("remember")
	}
	id = s.nextID
	s.nextID++
	s.facts = append(s.facts, Fact{ID: id, Text: t, About: about, Created: now})
	if len(s.facts) > MaxFacts {
		before := len(s.facts)
		s.facts = evict(s.facts)
		s.log.Info("memory_evicted", "facts", before-len(s.facts))
	}
	s.mu.Unlock()
	return id, false, s.save("remember")
}

func checkAbout(a About) (About, error) {
	v, ok := ParseAbout(string(a))
	if !ok {
		return "", ErrAbout
	}
	return v, nil
}

// Forget drops the fact with id.
func (s *Store) Forget(id int64) error {
	s.mu.Lock()
	i := s.index(id)
	if i < 0 {
		s.mu.Unlock()
		return ErrNoSuchMemory
	}
	s.facts = slices.Delete(s.facts, i, i+1)
	delete(s.savedAt, id)
	s.mu.Unlock()
	return s.save("forget")
}

// ForgetText drops the fact whose normalised text is text's, or else the
// one fact that contains it; it returns the fact's id.
func (s *Store) ForgetText(text string) (int64, error) {
	norm := Normal(text)
	if norm == "" {
		return 0, ErrNoSuchMemory
	}
	s.mu.Lock()
	i := slices.IndexFunc(s.facts, func(f Fact) bool { return Normal(f.Text) == norm })
	if i < 0 {
		for j, f := range s.facts {
			if strings.Contains(Normal(f.Text), norm) {
				if i >= 0 { // more than one: which one is not known
					i = -1
					break
				}
				i = j
			}
		}
	}
	if i < 0 {
		s.mu.Unlock()
		return 0, ErrNoSuchMemory
	}
	id := s.facts[i].ID
	s.mu.Unlock()
	return id, s.Forget(id)
}

// Edit replaces a fact's text and about (the Memory page).
func (s *Store) Edit(id int64, text string, about About) error {
	t, err := checkText(text)
	if err != nil {
		return err
	}
	if about, err = checkAbout(about); err != nil {
		return err
	}
	s.mu.Lock()
	i := s.index(id)
	if i < 0 {
		s.mu.Unlock()
		return ErrNoSuchMemory
	}
	s.facts[i].Text, s.facts[i].About = t, about
	s.mu.Unlock()
	return s.save("edit")
}

// Clear forgets every fact ("Forget everything").
func (s *Store) Clear() error {
	s.mu.Lock()
	n := len(s.facts)
	s.facts = nil
	clear(s.savedAt)
	s.mu.Unlock()
	s.log.Info("memory_cleared", "facts", n)
	return s.save("clear")
}

// used marks facts as used now; it reports whether the file is stale
// enough to be written.
func (s *Store) used(ids []int64) bool {
	now := s.clk.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	write := false
	for _, id := range ids {
		i := s.index(id)
		if i < 0 {
			continue
		}
		s.facts[i].LastUsed = now
		if now.Sub(s.savedAt[id]) >= touchEvery {
			write = true
		}
	}
	return write
}

// save writes the facts and tells the watchers. A failed write is logged
// and returned; the facts stay in memory and the next write carries them.
func (s *Store) save(op string) error {
	s.saveMu.Lock()
	s.mu.Lock()
	f := file{Version: fileVersion, NextID: s.nextID, Facts: s.ordered()}
	watchers := make([]func(), 0, len(s.watch))
	for _, w := range s.watch {
		watchers = append(watchers, w)
	}
	s.mu.Unlock()
	var err error
	if s.files != nil {
		var data []byte
		if data, err = json.MarshalIndent(f, "", " "); err == nil {
			err = s.files.Save(data)
		}
		if err != nil {
			err = fmt.Errorf("memory: saving facts: %w", err)
			s.log.Warn("memory_save_failed", "op", op, "err", err.Error())
		} else {
			s.mu.Lock()
			for _, x := range f.Facts {
				s.savedAt[x.ID] = x.LastUsed
			}
			s.mu.Unlock()
		}
	}
	s.saveMu.Unlock()
	for _, w := range watchers {
		w()
	}
	return err
}
