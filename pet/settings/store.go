package settings

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"yui/transport/clock"
	"yui/transport/outbox"
)

// FileName is the settings file's name inside the store directory.
const FileName = "settings.json"

// Options are the store's dependencies. The zero value uses crypto/rand,
// the wall clock and no change callback.
type Options struct {
	// Rand supplies preset ids and chat_ids.
	Rand io.Reader
	// Now names set-aside files.
	Now func() time.Time
	// Clock times the delayed writes of state files (StateDelay); nil is
	// the wall clock.
	Clock clock.Clock
	// WriteFile writes a file atomically; nil is WriteFileAtomic. Tests
	// slow it down.
	WriteFile func(path string, data []byte, perm os.FileMode) error
	// Log receives the failures of delayed writes; nil discards them.
	Log *slog.Logger
}

// Notice is what Open tells the user about the file it found.
type Notice struct {
	// Message is one line for the user, in English (the log's; the
	// windows say it in the user's language from the fields below).
	Message string
	// KeptAs is the path the unusable file was moved to, "" when none was.
	KeptAs string
	// Err is why the file could not be used, nil when only repairs were made.
	Err error
	// Repairs lists the fixes made to a usable file (see Settings.Repair).
	Repairs []Fix
	// Refused lists the presets and global fields of a usable file that
	// were invalid and left out; KeptAs is then the original file's copy.
	Refused []Refusal
	// Notes are what reading the state files found wrong, in English.
	Notes []string
}

// Store is the settings store. It is safe for concurrent use.
type Store struct {
	dir  string
	rand io.Reader
	subs outbox.Fanout[Change] // put under writeMu, so in save order

	writeMu sync.Mutex   // serializes Update: change, save, notify
	mu      sync.RWMutex // guards cur, saved and refused
	cur     Settings
	saved   []byte // the settings file as last written
	refused []Refusal
	// first is set when Open found no settings file: a first start.
	first bool
	kept  string // where Open kept a file of an older version

	clock     clock.Clock
	log       atomic.Pointer[slog.Logger]
	writeFile func(path string, data []byte, perm os.FileMode) error
	keys      keys
	flushMu   sync.Mutex // serializes FlushState
	stateMu   sync.Mutex // guards dirty, timer and closed
	dirty     map[string]bool
	timer     clock.Timer
	closed    bool
}

// Open opens the store in dir (created with mode 0700 when missing):
// dir/settings.json. A missing file means a first start: the defaults are
// saved at once, so the first preset's chat_id is fixed at installation.
//
// A file that cannot be read, parsed or validated is renamed to
// settings.json.corrupt-<unix time>; a file written by a newer Yui is
// renamed to settings.json.newer-<unix time> (this version cannot know what
// its fields mean, and writing over it would lose them). Either way the
// store starts with the defaults and the returned Notice says what
// happened. The notice also lists repairs made to a usable file. Open fails
// only when the directory or the defaults cannot be written, or an
// unusable file cannot be moved aside: it never writes over one.
func Open(dir string, opts Options) (*Store, *Notice, error) {
	s := &Store{dir: dir, rand: opts.Rand, clock: opts.Clock, writeFile: opts.WriteFile,
		dirty: map[string]bool{}}
	s.keys.held, s.keys.unread, s.keys.why = map[string]string{}, map[secret]string{}, "no keyring in use"
	s.SetLog(opts.Log)
	if s.rand == nil {
		s.rand = rand.Reader
	}
	if s.clock == nil {
		s.clock = clock.Real{}
	}
	if s.writeFile == nil {
		s.writeFile = WriteFileAtomic
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("settings: creating %s: %w", dir, err)
	}
	path := s.Path()
	data, err := os.ReadFile(path)
	if err == nil {
		tighten(path)
	}
	if errors.Is(err, fs.ErrNotExist) {
		if err := s.startDefault(); err != nil {
			return nil, nil, err
		}
		s.first = true
		return s, nil, nil
	}
	var d Decoded
	if err == nil {
		d, err = Decode(data, s.rand)
	} else {
		err = fmt.Errorf("settings: reading %s: %w", path, err)
	}
	if err == nil {
		return s.openDecoded(d, data, now)
	}

	suffix, msg := ".corrupt-", "The settings file could not be read (%v). It was kept as %s and Yui started with default settings."
	var newer *NewerVersionError
	if errors.As(err, &newer) {
		suffix = ".newer-"
		msg = "The settings file was written by a newer version of Yui (%v). It was kept as %s and Yui started with default settings."
	}
	kept := fmt.Sprintf("%s%s%d", path, suffix, now().Unix())
	if err := os.Rename(path, kept); err != nil {
		return nil, nil, fmt.Errorf("settings: keeping unusable file aside: %w", err)
	}
	if err := s.startDefault(); err != nil {
		return nil, nil, err
	}
	return s, &Notice{Message: fmt.Sprintf(msg, err, filepath.Base(kept)), KeptAs: kept, Err: err}, nil
}

// tighten makes a settings file that others may read (copied in, or
// written by hand) the user's own again: mode 0600, as every save leaves
// it. Windows has no such modes; a failure leaves the file as it was.
func tighten(path string) {
	if runtime.GOOS == "windows" {
		return
	}
	if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
		os.Chmod(path, 0o600)
	}
}

// openDecoded makes a decoded file current. A file with refused values is
// first copied aside whole as settings.json.invalid-<unix time>, so that
// nothing the user wrote is lost when the cleaned settings are saved.
//
// A file of an older version is copied aside as settings.json.v<N>-<unix
// time>; what it held that the app learned (version 1: positions, relation,
// delegation history) is written to the state files before the settings
// file is rewritten without it. A current file's learned state is read
// from the state files.
func (s *Store) openDecoded(d Decoded, data []byte, now func() time.Time) (*Store, *Notice, error) {
	var notes []string
	s.takeRefs(&d.Settings)
	if d.From < CurrentVersion {
		if err := s.migrate(d, data, now); err != nil {
			return nil, nil, err
		}
	} else {
		notes = s.readState(&d.Settings, now)
		s.saved = data
	}
	s.cur = d.Settings
	s.refused = d.Refused
	if len(d.Repairs) == 0 && len(d.Refused) == 0 && len(notes) == 0 {
		if d.From < CurrentVersion {
			return s, nil, s.save(d.Settings)
		}
		return s, nil, nil
	}
	n := &Notice{Repairs: d.Repairs, Refused: d.Refused, Notes: notes}
	msgs := notes
	if len(d.Refused) > 0 {
		kept := fmt.Sprintf("%s.invalid-%d", s.Path(), now().Unix())
		if err := WriteFileAtomic(kept, data, 0o600); err != nil {
			return nil, nil, fmt.Errorf("settings: keeping the original file aside: %w", err)
		}
		n.KeptAs = kept
		var what []string
		for _, r := range d.Refused {
			what = append(what, r.String())
		}
		msgs = append(msgs, fmt.Sprintf("Some settings were refused and left out (the original file was kept as %s): %s.",
			filepath.Base(kept), strings.Join(what, "; ")))
	}
	if len(d.Repairs) > 0 {
		fixed := make([]string, len(d.Repairs))
		for i, f := range d.Repairs {
			fixed[i] = f.String()
		}
		msgs = append(msgs, "Some settings were repaired: "+strings.Join(fixed, "; ")+".")
	}
	n.Message = strings.Join(msgs, " ")
	if len(d.Repairs) > 0 || len(d.Refused) > 0 || d.From < CurrentVersion {
		if err := s.save(d.Settings); err != nil {
			return nil, nil, err
		}
	}
	return s, n, nil
}

// migrate keeps an older file aside and writes the state it held.
func (s *Store) migrate(d Decoded, data []byte, now func() time.Time) error {
	kept := fmt.Sprintf("%s.v%d-%d", s.Path(), d.From, now().Unix())
	if err := WriteFileAtomic(kept, withoutKeys(data), 0o600); err != nil {
		return fmt.Errorf("settings: keeping the version %d file aside: %w", d.From, err)
	}
	s.kept = kept
	for _, p := range d.Settings.Presets {
		if err := s.writeState(d.Settings, p.ID); err != nil {
			return err
		}
	}
	return nil
}

// SetLog sets where the failures of delayed writes are logged (the log
// opens after the store, whose settings give its level); nil discards them.
func (s *Store) SetLog(l *slog.Logger) {
	if l == nil {
		l = slog.New(slog.DiscardHandler)
	}
	s.log.Store(l)
}

// Migrated returns where Open kept a settings file of an older version
// before moving it to this one; "" when it did not.
func (s *Store) Migrated() string { return s.kept }

// Refused returns what Open refused in the file it found, for the settings
// window; nil when nothing was.
func (s *Store) Refused() []Refusal {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.refused)
}

func (s *Store) startDefault() error {
	d, err := Default(s.rand)
	if err != nil {
		return err
	}
	if err := s.save(d); err != nil {
		return err
	}
	s.cur = d
	return nil
}

// FirstStart reports whether Open found no settings file: Yui runs for
// the first time on this config directory (a file kept aside as corrupt
// is not a first start: the user had settings).
func (s *Store) FirstStart() bool { return s.first }

// Dir returns the store directory.
func (s *Store) Dir() string { return s.dir }

// Path returns the settings file path.
func (s *Store) Path() string { return filepath.Join(s.dir, FileName) }

// Get returns a copy of the current settings.
func (s *Store) Get() Settings {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.cur.Clone()
}

// Preset returns a copy of the preset with the given id.
func (s *Store) Preset(id string) (Preset, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	p, ok := s.cur.Preset(id)
	if !ok {
		return Preset{}, false
	}
	return p.Clone(), true
}

// Update applies fn to a copy of the settings, repairs what Repair fixes
// (new presets may leave id and chat_id empty), validates, saves, and only
// then makes the copy current. An error from fn is returned as it is; an
// invalid result is a *ValidationError and changes nothing.
func (s *Store) Update(fn func(*Settings) error) error {
	err := s.update(fn)
	s.subs.Flush()
	return err
}

func (s *Store) update(fn func(*Settings) error) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	prev := s.Get()
	next := prev.Clone()
	if err := fn(&next); err != nil {
		return err
	}
	next.Version = CurrentVersion
	if _, err := next.Repair(s.rand); err != nil {
		return err
	}
	if err := next.Validate(); err != nil {
		return err
	}
	// What the user set is saved now (the caller learns of a failure);
	// what the app learned is written a little later, off this goroutine.
	if err := s.save(next); err != nil {
		return err
	}
	s.mu.Lock()
	s.cur = next
	s.mu.Unlock()
	s.markState(learnedChanged(prev, next))
	if c := newChange(prev, next); len(c.Presets) > 0 || c.Global {
		s.subs.Put(c)
	}
	return nil
}

// save writes st to the settings file atomically with mode 0600, unless
// the file already holds just that.
func (s *Store) save(st Settings) error {
	data, err := Encode(s.fileForm(st))
	if err != nil {
		return err
	}
	s.keys.mu.Lock()
	moveKeys := s.keys.dirty
	s.keys.mu.Unlock()
	if moveKeys { // the keyring takes the new key later, off this goroutine
		s.stateMu.Lock()
		s.arm()
		s.stateMu.Unlock()
	}
	s.mu.RLock()
	same := bytes.Equal(data, s.saved)
	s.mu.RUnlock()
	if same {
		return nil
	}
	if err := s.writeFile(s.Path(), data, 0o600); err != nil {
		return fmt.Errorf("settings: saving: %w", err)
	}
	s.mu.Lock()
	s.saved = data
	s.mu.Unlock()
	return nil
}

// Encode returns the file form of st: indented JSON with a final newline.
func Encode(st Settings) ([]byte, error) {
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("settings: encoding: %w", err)
	}
	return append(data, '\n'), nil
}

// AddPreset adds a preset with the defaults and the given name, a new id
// and chat_id, and returns it.
func (s *Store) AddPreset(name string) (Preset, error) {
	p, err := NewPreset(s.rand, name)
	if err != nil {
		return Preset{}, err
	}
	err = s.Update(func(st *Settings) error {
		st.Presets = append(st.Presets, p)
		return nil
	})
	if err != nil {
		return Preset{}, err
	}
	return p, nil
}

// DuplicatePreset adds a copy of preset id named "<name> copy", with a new
// id and chat_id (a new conversation), and returns it. The copy keeps the
// key, positions and relation; it starts with no delegation history.
func (s *Store) DuplicatePreset(id string) (Preset, error) {
	var dup Preset
	err := s.Update(func(st *Settings) error {
		p, ok := st.Preset(id)
		if !ok {
			return fmt.Errorf("settings: duplicating preset %s: %w", id, ErrNoPreset)
		}
		dup = p.Clone()
		var err error
		if dup.ID, err = NewPresetID(s.rand); err != nil {
			return err
		}
		if dup.ChatID, err = NewChatID(s.rand); err != nil {
			return err
		}
		dup.Name = p.Name + " copy"
		st.Presets = append(st.Presets, dup)
		return nil
	})
	if err != nil {
		return Preset{}, err
	}
	return dup.Clone(), nil
}

// ErrNoPreset is the error of an unknown preset id.
var ErrNoPreset = errors.New("no such preset")

// ErrLastPreset is the error of deleting the only preset.
var ErrLastPreset = errors.New("the last preset cannot be deleted")

// DeletePreset removes preset id and its delegation history. The last
// preset cannot be deleted. When it was active, the first remaining preset
// becomes active.
func (s *Store) DeletePreset(id string) error {
	return s.Update(func(st *Settings) error {
		i := slices.IndexFunc(st.Presets, func(p Preset) bool { return p.ID == id })
		if i < 0 {
			return fmt.Errorf("settings: deleting preset %s: %w", id, ErrNoPreset)
		}
		if len(st.Presets) == 1 {
			return fmt.Errorf("settings: deleting preset %s: %w", id, ErrLastPreset)
		}
		st.Presets = slices.Delete(st.Presets, i, i+1)
		delete(st.DelegationHistory, id)
		if st.ActivePreset == id {
			st.ActivePreset = st.Presets[0].ID
		}
		return nil
	})
}

// SetActive makes preset id the active one.
func (s *Store) SetActive(id string) error {
	return s.Update(func(st *Settings) error {
		if _, ok := st.Preset(id); !ok {
			return fmt.Errorf("settings: activating preset %s: %w", id, ErrNoPreset)
		}
		st.ActivePreset = id
		return nil
	})
}

// UpdatePreset applies fn to a copy of preset id, then saves as Update does.
// fn cannot change the preset's id.
func (s *Store) UpdatePreset(id string, fn func(*Preset) error) error {
	return s.Update(func(st *Settings) error {
		p, ok := st.Preset(id)
		if !ok {
			return fmt.Errorf("settings: updating preset %s: %w", id, ErrNoPreset)
		}
		if err := fn(p); err != nil {
			return err
		}
		p.ID = id
		return nil
	})
}

// ParseLogLevel parses a log_level setting.
func ParseLogLevel(s string) (slog.Level, error) {
	switch s {
	case "debug":
		return slog.LevelDebug, nil
	case "info":
		return slog.LevelInfo, nil
	case "warn":
		return slog.LevelWarn, nil
	case "error":
		return slog.LevelError, nil
	}
	return 0, fmt.Errorf("settings: unknown log level %q", s)
}
