package voice

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/gen2brain/malgo"
)

// Mic is a microphone, through miniaudio (malgo): the device named Device,
// or the system's default one when Device is empty or not there (see
// deviceChoice). A Mic may be started again after it stopped; use it by
// pointer.
type Mic struct {
	// Device is the capture device's name as ListDevices gives it; "" is
	// the default device.
	Device string
	// Log receives voice_device_missing and voice_device_back; nil logs nothing.
	Log *slog.Logger
	// OnMissing, when set, is told when the named device goes missing
	// (true: the default device is used instead) and when it is back.
	OnMissing func(missing bool)

	choice deviceChoice
}

// backends are miniaudio's real backends: its null backend, which it
// falls back to last, would "capture" silence from a machine with no
// microphone instead of telling so.
var backends = []malgo.Backend{
	malgo.BackendWasapi, malgo.BackendDsound, malgo.BackendWinmm,
	malgo.BackendCoreaudio, malgo.BackendSndio, malgo.BackendAudio4, malgo.BackendOss,
	malgo.BackendPulseaudio, malgo.BackendAlsa, malgo.BackendJack,
}

// Start opens the capture device in format f and delivers its
// blocks until ctx ends or the device stops.
func (m *Mic) Start(ctx context.Context, f Format, onFrame func(pcm []int16)) error {
	mctx, err := malgo.InitContext(backends, malgo.ContextConfig{}, nil)
	if err != nil {
		return fmt.Errorf("microphone: %w", err)
	}
	defer func() {
		_ = mctx.Uninit()
		mctx.Free()
	}()
	cfg := malgo.DefaultDeviceConfig(malgo.Capture)
	id := m.choice.resolve(mctx.Context, m.Device, m.Log, m.OnMissing)
	defer freeID(id)
	cfg.Capture.DeviceID = id
	cfg.Capture.Format = malgo.FormatS16
	cfg.Capture.Channels = uint32(max(f.Channels, 1))
	cfg.SampleRate = uint32(f.SampleRate)
	var (
		buf     []int16
		stopped = make(chan struct{})
		once    sync.Once
	)
	dev, err := malgo.InitDevice(mctx.Context, cfg, malgo.DeviceCallbacks{
		Data: func(_, in []byte, _ uint32) {
			n := len(in) / 2
			if cap(buf) < n {
				buf = make([]int16, n)
			}
			buf = buf[:n]
			for i := range buf {
				buf[i] = int16(binary.LittleEndian.Uint16(in[2*i:]))
			}
			onFrame(buf)
		},
		Stop: func() { once.Do(func() { close(stopped) }) },
	})
	if err != nil {
		return fmt.Errorf("microphone: %w", err)
	}
	defer dev.Uninit()
	if err := dev.Start(); err != nil {
		return fmt.Errorf("microphone: %w", err)
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-stopped:
		return errors.New("microphone: the device stopped")
	}
}
