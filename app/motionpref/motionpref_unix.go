//go:build !windows

package motionpref

import (
	"context"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// Reduced reports whether the user asked for reduced motion; false when
// the desktop does not say.
func Reduced() bool {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if runtime.GOOS == "darwin" {
		out, err := exec.CommandContext(ctx, "defaults", "read", "com.apple.universalaccess", "reduceMotion").Output()
		return err == nil && strings.TrimSpace(string(out)) == "1"
	}
	out, err := exec.CommandContext(ctx, "gsettings", "get", "org.gnome.desktop.interface", "enable-animations").Output()
	return err == nil && parseGSettingsBool(string(out)) == "false"
}
