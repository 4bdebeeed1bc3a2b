package app

import (
	"fmt"
	"os"
	"path/filepath"

	"yui/pet/settings"
)

// memoryFile keeps the conversation a preset's request transport holds
// (transport.Memory) beside the settings: <config dir>/memory/<preset
// id>.json, written atomically, mode 0600. It holds no key.
type memoryFile struct {
	dir, id string
}

func (m memoryFile) path() string { return filepath.Join(m.dir, "memory", m.id+".json") }

func (m memoryFile) Load() ([]byte, error) { return os.ReadFile(m.path()) }

func (m memoryFile) Save(data []byte) error {
	if err := os.MkdirAll(filepath.Dir(m.path()), 0o700); err != nil {
		return fmt.Errorf("memory %s: %w", m.id, err)
	}
	if err := settings.WriteFileAtomic(m.path(), data, 0o600); err != nil {
		return fmt.Errorf("memory %s: %w", m.id, err)
	}
	return nil
}
