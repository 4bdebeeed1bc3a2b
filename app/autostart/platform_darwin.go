//go:build darwin

package autostart

import (
	"fmt"
	"os"
	"path/filepath"
)

// Open returns this platform's entry: a LaunchAgent.
func Open() (Entry, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil, fmt.Errorf("autostart: no home folder: %w", err)
	}
	return LaunchAgent{Dir: filepath.Join(home, "Library", "LaunchAgents")}, nil
}
