package app

import (
	"os"
	"path/filepath"

	"yui/app/autostart"
)

// setAutostart writes or removes the start-at-login entry for this
// program (with its --config-dir, when one was given) and logs what it did.
func (y *yui) setAutostart(on bool) {
	e, err := autostart.Open()
	if err == nil {
		var exe string
		if exe, err = os.Executable(); err == nil {
			var args []string
			if y.cfg.ConfigDir != "" {
				dir, _ := filepath.Abs(y.configDir)
				args = []string{"--config-dir", dir}
			}
			err = autostart.Set(e, on, exe, args)
		}
	}
	if err != nil {
		y.log.Warn("autostart_failed", "on", on, "err", err.Error())
		return
	}
	y.log.Info("autostart", "on", on)
}
