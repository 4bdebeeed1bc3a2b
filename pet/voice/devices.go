package voice

// #include <stdlib.h>
import "C"

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"unsafe"

	"github.com/gen2brain/malgo"
)

// Device is one audio device as the system names it.
type Device struct {
	Name    string
	Default bool // the system's default device of its kind
}

// Devices are the machine's audio devices.
type Devices struct {
	Inputs, Outputs []Device
}

// ErrNoAudioSystem is the error of ListDevices when no audio system
// answers (a machine without sound hardware or sound server).
var ErrNoAudioSystem = errors.New("no audio system answers on this machine")

// ListDevices lists the capture and playback devices through miniaudio.
// It may block for a moment on the audio system: call it off the UI
// goroutine.
func ListDevices() (Devices, error) {
	mctx, err := malgo.InitContext(backends, malgo.ContextConfig{}, nil)
	if err != nil {
		return Devices{}, fmt.Errorf("%w: %v", ErrNoAudioSystem, err)
	}
	defer func() {
		_ = mctx.Uninit()
		mctx.Free()
	}()
	var d Devices
	for _, k := range []struct {
		kind malgo.DeviceType
		into *[]Device
	}{{malgo.Capture, &d.Inputs}, {malgo.Playback, &d.Outputs}} {
		infos, err := mctx.Devices(k.kind)
		if err != nil {
			return Devices{}, fmt.Errorf("listing audio devices: %w", err)
		}
		for _, in := range infos {
			if isNullDevice(in.Name()) {
				continue
			}
			*k.into = append(*k.into, Device{Name: in.Name(), Default: in.IsDefault != 0})
		}
	}
	return d, nil
}

// isNullDevice tells ALSA's null device, which discards what it plays and
// records silence: a machine whose only device it is has no audio device.
func isNullDevice(name string) bool {
	return strings.HasPrefix(name, "Discard all samples")
}

// findDevice returns the id of the capture device named name.
func findDevice(mctx malgo.Context, name string) (malgo.DeviceID, bool) {
	infos, err := mctx.Devices(malgo.Capture)
	if err != nil {
		return malgo.DeviceID{}, false
	}
	for _, in := range infos {
		if in.Name() == name {
			return in.ID, true
		}
	}
	return malgo.DeviceID{}, false
}

// deviceChoice remembers whether a named microphone was missing at the
// last start, so that its absence and its return are told once each.
type deviceChoice struct {
	mu      sync.Mutex
	missing bool
}

// resolve finds the named device for a capture about to start: its id in
// C memory (free it with freeID) or nil for the default device. A missing
// device falls back to the default, logged once (voice_device_missing)
// until it returns (voice_device_back); onMissing, when set, is told each
// change.
func (c *deviceChoice) resolve(mctx malgo.Context, name string, log *slog.Logger, onMissing func(bool)) unsafe.Pointer {
	if name == "" {
		return nil
	}
	id, ok := findDevice(mctx, name)
	c.note(name, ok, log, onMissing)
	if !ok {
		return nil
	}
	return id.Pointer()
}

// note records whether the named device was found, and tells a change.
func (c *deviceChoice) note(name string, found bool, log *slog.Logger, onMissing func(bool)) {
	c.mu.Lock()
	changed := c.missing == found
	c.missing = !found
	c.mu.Unlock()
	if !changed {
		return
	}
	if log != nil {
		if found {
			log.Info("voice_device_back", "device", name)
		} else {
			log.Warn("voice_device_missing", "device", name, "using", "default")
		}
	}
	if onMissing != nil {
		onMissing(!found)
	}
}

func freeID(p unsafe.Pointer) {
	if p != nil {
		C.free(p)
	}
}
