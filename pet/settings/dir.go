package settings

import (
	"fmt"
	"os"
	"path/filepath"
)

// DefaultDir is Yui's config folder when none is given:
// os.UserConfigDir()/yui.
func DefaultDir() (string, error) {
	base, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("finding the config directory: %w", err)
	}
	return filepath.Join(base, "yui"), nil
}
