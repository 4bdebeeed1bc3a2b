package requesttest

import (
	"io/fs"
	"sync"
)

// Conversation is a transport.Conversation held in memory: what a run of the app
// would keep in its memory file.
type Conversation struct {
	mu   sync.Mutex
	data []byte
}

// NewConversation returns a Memory holding data; nil is none saved yet.
func NewConversation(data []byte) *Conversation { return &Conversation{data: data} }

func (m *Conversation) Load() ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.data == nil {
		return nil, fs.ErrNotExist
	}
	return m.data, nil
}

func (m *Conversation) Save(b []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.data = append([]byte(nil), b...)
	return nil
}

// String is what was saved last.
func (m *Conversation) String() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return string(m.data)
}
