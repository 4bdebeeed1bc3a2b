package request

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sync"
)

// MaxConversationBytes bounds the memory one transport saves: a dialect keeps
// its newest state within it.
const MaxConversationBytes = 2 << 20

// memoryVersion is the version of the saved memory's shape.
const memoryVersion = 1

// conversationFile is what a transport saves through transport.Conversation: one
// conversation per request API, so that switching a preset's chat_api
// and back keeps each. A Reset clears them all.
type conversationFile struct {
	Version       int                     `json:"version"`
	Conversations map[string]conversation `json:"conversations"`
}

// conversation is one dialect's saved state and the server it belongs to
// (a hash of the endpoint, which may carry a query the user did not mean
// to have written down).
type conversation struct {
	Server string          `json:"server"`
	State  json.RawMessage `json:"state"`
}

// serverHash names an endpoint without writing it down.
func serverHash(endpoint string) string {
	h := sha256.Sum256([]byte(endpoint))
	return hex.EncodeToString(h[:8])
}

// loadConversation restores the dialect's conversation from opts.Memory and
// starts the saver. It runs in New, before any turn.
func (e *Engine) loadConversation() {
	m := e.opts.Conversation
	if m == nil {
		return
	}
	e.memFile = conversationFile{Version: memoryVersion, Conversations: map[string]conversation{}}
	e.saver = newSaver(m, e.log)
	data, err := m.Load()
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return
	case err != nil:
		e.log.Warn("memory_unreadable", "err", err.Error())
		return
	case len(data) > 4*MaxConversationBytes:
		e.log.Warn("memory_unreadable", "err", fmt.Sprintf("%d bytes, over the bound", len(data)))
		return
	}
	var f conversationFile
	if err := json.Unmarshal(data, &f); err != nil || f.Version != memoryVersion {
		e.log.Warn("memory_unreadable", "err", fmt.Sprintf("not a version %d memory: %v", memoryVersion, err))
		return
	}
	for k, c := range f.Conversations {
		e.memFile.Conversations[k] = c
	}
	c, ok := f.Conversations[e.d.Name()]
	if !ok {
		return
	}
	if err := e.d.Restore(c.State, c.Server == serverHash(e.url)); err != nil {
		e.log.Warn("memory_unreadable", "err", err.Error())
		delete(e.memFile.Conversations, e.d.Name())
		return
	}
	e.log.Info("memory_restored", "bytes", len(c.State))
}

// saveConversation hands the dialect's conversation to the saver; reset clears
// every saved conversation instead. The snapshot is taken and queued
// under memMu so that saves go out in the order the state changed.
func (e *Engine) saveConversation(reset bool) {
	if e.saver == nil {
		return
	}
	e.memMu.Lock()
	defer e.memMu.Unlock()
	if reset {
		clear(e.memFile.Conversations)
	} else {
		state := e.d.Snapshot()
		if state == nil {
			delete(e.memFile.Conversations, e.d.Name())
		} else {
			e.memFile.Conversations[e.d.Name()] = conversation{Server: serverHash(e.url), State: state}
		}
	}
	data, err := json.Marshal(e.memFile)
	if err != nil {
		e.log.Error("memory_save", "err", err.Error())
		return
	}
	e.saver.put(data)
}

// saver writes the newest memory from a goroutine of its own: a write
// never holds up a turn or the caller of Reset, and a burst of changes
// is one write.
type saver struct {
	m    interface{ Save([]byte) error }
	log  interface{ Warn(string, ...any) }
	wake chan struct{}
	done chan struct{}

	mu      sync.Mutex
	pending []byte
	stopped bool
}

func newSaver(m interface{ Save([]byte) error }, log interface{ Warn(string, ...any) }) *saver {
	s := &saver{m: m, log: log, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go s.run()
	return s
}

// put replaces the data waiting to be written.
func (s *saver) put(data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return
	}
	s.pending = data
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *saver) run() {
	defer close(s.done)
	for range s.wake {
		s.mu.Lock()
		data := s.pending
		s.pending = nil
		s.mu.Unlock()
		if data != nil {
			if err := s.m.Save(data); err != nil {
				s.log.Warn("memory_save", "err", err.Error())
			}
		}
	}
}

// stop writes what is pending and returns once it is written.
func (s *saver) stop() {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		<-s.done
		return
	}
	s.stopped = true
	select {
	case s.wake <- struct{}{}:
	default:
	}
	close(s.wake)
	s.mu.Unlock()
	<-s.done
}
