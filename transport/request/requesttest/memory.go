package requesttest

import (
	"io/fs"
	"sync"
)

// Memory is a transport.Memory held in memory: what a run of the app
// would keep in its memory file.
type Memory struct {
	mu   sync.Mutex
	data []byte
}

// NewMemory returns a Memory holding data; nil is none saved yet.
func NewMemory(data []byte) *Memory { return &Memory{data: data} }

func (m *Memory) Load() ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.data == nil {
		return nil, fs.ErrNotExist
	}
	return m.data, nil
}

func (m *Memory) Save(b []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.data = append([]byte(nil), b...)
	return nil
}

// String is what was saved last.
func (m *Memory) String() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return string(m.data)
}
