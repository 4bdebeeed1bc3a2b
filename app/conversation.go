package app

import (
	"fmt"
	"os"
	"path/filepath"

	"yui/pet/settings"
)

// conversationFile keeps the conversation a preset's request transport holds
// (transport.Conversation) beside the settings: <config dir>/memory/<preset
// id>.json, written atomically, mode 0600. It holds no key.
type conversationFile struct {
	dir, id string
}

func (m conversationFile) path() string { return filepath.Join(m.dir, "memory", m.id+".json") }

func (m conversationFile) Load() ([]byte, error) { return os.ReadFile(m.path()) }

func (m conversationFile) Save(data []byte) error {
	if err := os.MkdirAll(filepath.Dir(m.path()), 0o700); err != nil {
		return fmt.Errorf("memory %s: %w", m.id, err)
	}
	if err := settings.WriteFileAtomic(m.path(), data, 0o600); err != nil {
		return fmt.Errorf("memory %s: %w", m.id, err)
	}
	return nil
}
