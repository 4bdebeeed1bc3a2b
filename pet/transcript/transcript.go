// Package transcript is a preset's conversation as the client saw it: user
// turns, replies with their cues, tool statuses, errors, reasoning and
// resets, in order. It is append-only: an entry, once added, changes only
// by growing (a reply's next sentence, reasoning still streaming, a tool
// going from running to done), and subscribers are told of each addition
// and each growth, never handed the whole history again.
//
// The pet controller writes it; the message window reads and subscribes.
// It keeps at most Options.Max entries and saves them, bounded, to one
// JSON file beside the settings so that the history survives a restart.
package transcript

import (
	"encoding/json"
	"errors"
	"io/fs"
	"log/slog"
	"slices"
	"sync"
	"time"

	"yui/transport"
	"yui/transport/clock"
	"yui/transport/outbox"
	"yui/transport/textcut"
)

// Kind says what an entry is.
type Kind string

const (
	// KindUser is a turn the user or the app started: Trigger says which
	// ("user message", "user voice", "poke", "greeting", "check-in",
	// "addressed by Mika"), Text what was typed or said.
	KindUser Kind = "user"
	// KindReply is the pet's reply to one turn: its sentences in Text,
	// the cues that came with them in Cues.
	KindReply Kind = "reply"
	// KindTool is a backend tool's status: Tool names it, State is
	// "running", "done" or "failed".
	KindTool Kind = "tool"
	// KindError is a failed turn's line for the user.
	KindError Kind = "error"
	// KindReasoning is the backend's reasoning for a turn; Streaming
	// while more may come.
	KindReasoning Kind = "reasoning"
	// KindReset marks the start of a new conversation.
	KindReset Kind = "reset"
)

// Entry is one line of the conversation.
type Entry struct {
	// Seq numbers entries from 1 in the order they were added; it is
	// stable across restarts.
	Seq    int64     `json:"seq"`
	Time   time.Time `json:"time"`
	Kind   Kind      `json:"kind"`
	TurnID string    `json:"turn_id,omitempty"`
	// Trigger is a user entry's trigger.
	Trigger string `json:"trigger,omitempty"`
	// Text is what was said, the error line, or the reasoning.
	Text string `json:"text,omitempty"`
	// Cues are a reply's cues, in order.
	Cues []transport.Cue `json:"cues,omitempty"`
	// Tool and State are a tool entry's tool id and state.
	Tool  string `json:"tool,omitempty"`
	State string `json:"state,omitempty"`
	// MS is how long a finished tool call took, in milliseconds.
	MS int64 `json:"ms,omitempty"`
	// Streaming is true while reasoning may still grow.
	Streaming bool `json:"streaming,omitempty"`
}

func (e Entry) clone() Entry {
	e.Cues = slices.Clone(e.Cues)
	return e
}

// Op says what happened to an entry.
type Op int

const (
	// Added: a new entry at the end.
	Added Op = iota
	// Grown: an entry already shown changed (same Seq).
	Grown
	// Cleared: the history was emptied (Clear); Entry is zero.
	Cleared
)

// Change is what subscribers are told.
type Change struct {
	Op    Op
	Entry Entry
}

// Options configure a Log.
type Options struct {
	// Storage keeps the history across restarts; nil keeps it in memory.
	Storage Storage
	// Max bounds the entries kept; 0 means DefaultMax.
	Max int
	// Clock stamps entries and paces saving; nil is the wall clock.
	Clock clock.Clock
	// SaveDelay gathers changes into one write; 0 means 2 s.
	SaveDelay time.Duration
	Logger    *slog.Logger
}

// Storage keeps a saved history (the app's is a file beside the settings).
type Storage interface {
	// Load returns the saved history; an error wrapping fs.ErrNotExist
	// when there is none.
	Load() ([]byte, error)
	// Save replaces the saved history atomically.
	Save(data []byte) error
	// KeepAside moves an unreadable history out of the way, keeping it
	// for the user, and says where.
	KeepAside() (string, error)
}

// DefaultMax is how many entries a history keeps by default.
const DefaultMax = 500

// MaxText bounds an entry's text, in code points; a longer text is cut,
// ending in "…". MaxTotalText bounds the text of the whole history, in
// bytes: past it the oldest entries go, as they do past Options.Max. A
// reply or reasoning grows with every frame of its turn, and a backend may
// send frames without end: the history in memory and on disk stays
// bounded whatever it sends, while a reply far longer than any real one
// is still kept whole.
const (
	MaxText      = 1 << 20
	MaxTotalText = 16 << 20
)

// Log is one preset's transcript. It is safe for concurrent use.
type Log struct {
	store Storage
	max   int
	clock clock.Clock
	delay time.Duration
	log   *slog.Logger
	subs  outbox.Fanout[Change] // put under mu, so in order

	mu      sync.Mutex
	entries []Entry
	size    int // bytes of text in entries
	seq     int64
	dirty   bool
	saveTmr clock.Timer
	closed  bool
}

// Open returns the log, loading the history opts.Storage saved. A history
// that cannot be read is kept aside and logged; the log then starts empty.
func Open(opts Options) *Log {
	l := &Log{store: opts.Storage, max: opts.Max, clock: opts.Clock, delay: opts.SaveDelay, log: opts.Logger}
	if l.max <= 0 {
		l.max = DefaultMax
	}
	if l.clock == nil {
		l.clock = clock.Real{}
	}
	if l.delay <= 0 {
		l.delay = 2 * time.Second
	}
	if l.log == nil {
		l.log = slog.New(slog.DiscardHandler)
	}
	if l.store != nil {
		l.load()
	}
	return l
}

type file struct {
	Version int     `json:"version"`
	Entries []Entry `json:"entries"`
}

func (l *Log) load() {
	data, err := l.store.Load()
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	var f file
	if err == nil {
		err = json.Unmarshal(data, &f)
	}
	if err != nil {
		kept, rerr := l.store.KeepAside()
		if rerr != nil {
			l.log.Warn("history_unreadable", "err", err.Error(), "rename_err", rerr.Error())
			return
		}
		l.log.Warn("history_unreadable", "err", err.Error(), "kept_as", kept)
		return
	}
	for _, e := range f.Entries {
		if e.Kind == "" || e.Seq <= l.seq {
			continue // out of order or blank: a hand edit; skip it
		}
		e.Streaming = false // a restart ended it
		e.Text = textcut.Cut(e.Text, MaxText)
		l.entries = append(l.entries, e)
		l.size += len(e.Text)
		l.seq = e.Seq
	}
	l.trimLocked()
}

// Entries returns a copy of the history, oldest first.
func (l *Log) Entries() []Entry {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Entry, len(l.entries))
	for i, e := range l.entries {
		out[i] = e.clone()
	}
	return out
}

// Subscribe calls fn with each change from now on, in order, never two at
// a time, outside the log's lock. It returns the history up to that point
// (so nothing falls between reading and subscribing) and a cancel. An
// Added change racing the call may also be in history: skip an Added
// entry whose Seq is not past the last one seen.
func (l *Log) Subscribe(fn func(Change)) (history []Entry, cancel func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	cancel = l.subs.Subscribe(fn)
	history = make([]Entry, len(l.entries))
	for i, e := range l.entries {
		history[i] = e.clone()
	}
	return history, cancel
}

// Add appends e (its Seq and, when zero, Time are set) and returns it.
func (l *Log) Add(e Entry) Entry {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return e
	}
	l.seq++
	e.Seq = l.seq
	if e.Time.IsZero() {
		e.Time = l.clock.Now()
	}
	e.Text = textcut.Cut(e.Text, MaxText)
	e = e.clone()
	l.entries = append(l.entries, e)
	l.size += len(e.Text)
	l.trimLocked()
	l.subs.Put(Change{Op: Added, Entry: e.clone()})
	l.markDirtyLocked()
	l.mu.Unlock()
	l.subs.Flush()
	return e
}

// Grow changes entry seq through fn (which must not change its Seq or
// Kind) and tells subscribers. It reports false when the entry is gone
// (trimmed, or cleared).
func (l *Log) Grow(seq int64, fn func(*Entry)) bool {
	l.mu.Lock()
	i := l.indexLocked(seq)
	if i < 0 || l.closed {
		l.mu.Unlock()
		return false
	}
	e := &l.entries[i]
	kind := e.Kind
	before := len(e.Text)
	fn(e)
	e.Seq, e.Kind = seq, kind
	e.Text = textcut.Cut(e.Text, MaxText)
	l.size += len(e.Text) - before
	l.subs.Put(Change{Op: Grown, Entry: e.clone()})
	l.trimLocked()
	l.markDirtyLocked()
	l.mu.Unlock()
	l.subs.Flush()
	return true
}

// Last returns the newest entry of kind k for turn turnID, searching back
// at most a turn's worth of entries.
func (l *Log) Last(k Kind, turnID string) (Entry, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := len(l.entries) - 1; i >= 0 && i >= len(l.entries)-64; i-- {
		if e := l.entries[i]; e.Kind == k && e.TurnID == turnID {
			return e.clone(), true
		}
	}
	return Entry{}, false
}

// trimLocked drops the oldest entries past the entry count and the total
// text bound; the newest entry always stays.
func (l *Log) trimLocked() {
	n := 0
	for n < len(l.entries)-1 && (len(l.entries)-n > l.max || l.size > MaxTotalText) {
		l.size -= len(l.entries[n].Text)
		n++
	}
	if n > 0 {
		l.entries = slices.Delete(l.entries, 0, n)
	}
}

func (l *Log) indexLocked(seq int64) int {
	i, ok := slices.BinarySearchFunc(l.entries, seq, func(e Entry, s int64) int {
		switch {
		case e.Seq < s:
			return -1
		case e.Seq > s:
			return 1
		}
		return 0
	})
	if !ok {
		return -1
	}
	return i
}

// Clear empties the history (and its file).
func (l *Log) Clear() {
	l.mu.Lock()
	l.entries = nil
	l.size = 0
	l.subs.Put(Change{Op: Cleared})
	l.markDirtyLocked()
	l.mu.Unlock()
	l.subs.Flush()
}

func (l *Log) markDirtyLocked() {
	if l.store == nil || l.closed {
		return
	}
	l.dirty = true
	if l.saveTmr == nil {
		l.saveTmr = l.clock.AfterFunc(l.delay, l.saveNow)
	}
}

// saveNow writes the history if it changed. Writing happens outside the
// lock: a slow disk never holds up the conversation.
func (l *Log) saveNow() {
	l.mu.Lock()
	l.saveTmr = nil
	if !l.dirty {
		l.mu.Unlock()
		return
	}
	l.dirty = false
	f := file{Version: 1, Entries: make([]Entry, len(l.entries))}
	copy(f.Entries, l.entries)
	data, err := json.Marshal(f)
	l.mu.Unlock()
	if err == nil {
		err = l.store.Save(data)
	}
	if err != nil {
		l.log.Warn("history_save_failed", "err", err.Error())
	}
}

// Close saves what is not saved yet; later changes are dropped.
func (l *Log) Close() error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil
	}
	if l.saveTmr != nil {
		l.saveTmr.Stop()
		l.saveTmr = nil
	}
	l.mu.Unlock()
	l.saveNow()
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
	return nil
}
