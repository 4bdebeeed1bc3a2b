package voice

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// TestMissingDeviceToldOnceEachWay: a named microphone that is missing is
// logged once and told to the pill once, however often capture starts,
// and its return likewise.
func TestMissingDeviceToldOnceEachWay(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	var told []bool
	var c deviceChoice
	for _, found := range []bool{true, false, false, false, true, true, false} {
		c.note("USB Mic", found, log, func(m bool) { told = append(told, m) })
	}
	if got := strings.Count(buf.String(), "voice_device_missing"); got != 2 {
		t.Errorf("voice_device_missing logged %d times, want 2:\n%s", got, buf.String())
	}
	if got := strings.Count(buf.String(), "voice_device_back"); got != 1 {
		t.Errorf("voice_device_back logged %d times, want 1:\n%s", got, buf.String())
	}
	if want := []bool{true, false, true}; len(told) != len(want) || told[0] != want[0] || told[1] != want[1] || told[2] != want[2] {
		t.Errorf("told %v, want %v", told, want)
	}
}

func TestNullDeviceIsNoDevice(t *testing.T) {
	if !isNullDevice("Discard all samples (playback) or generate zero samples (capture)") || isNullDevice("HDA Intel PCH, ALC892 Analog") {
		t.Fatal("isNullDevice")
	}
}
