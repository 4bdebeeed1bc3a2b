//go:build e2e

package room

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// pulse is a PulseAudio server the test owns: a null sink "speaker" the
// pet's output plays into and a source "mic" (the monitor of a second null
// sink, "micsink", remapped) the pet records from. Both run at the voice
// input's format, 16 kHz mono, so the room's samples pass untouched.
type pulse struct {
	// Env is the environment of a program on this server only: its socket,
	// a runtime folder, and a HOME whose .asoundrc sends ALSA's default
	// device (oto's) to it.
	Env    []string
	server string
}

// startPulse starts the server in user mode with no configuration of its
// own (-n): only the modules the rig needs, and no idle exit or suspend,
// so the monitor records the sink's silence as time passes.
func startPulse(t testing.TB) *pulse {
	t.Helper()
	for _, bin := range []string{"pulseaudio", "parec", "pacat", "pactl"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Fatalf("%s is missing (.ci/deps.sh test installs pulseaudio and pulseaudio-utils)", bin)
		}
	}
	dir := t.TempDir()
	sock := filepath.Join(dir, "native")
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	// The ALSA pulse plugin (libasound2-plugins) reads the server from
	// PULSE_SERVER; this file makes it the default for this HOME only.
	asound := "pcm.!default { type pulse }\nctl.!default { type pulse }\n"
	if err := os.WriteFile(filepath.Join(home, ".asoundrc"), []byte(asound), 0o600); err != nil {
		t.Fatal(err)
	}
	p := &pulse{server: "unix:" + sock}
	p.Env = append(os.Environ(), "XDG_RUNTIME_DIR="+dir, "HOME="+home, "PULSE_SERVER="+p.server)
	harness.Start(t, p.Env, "pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1",
		"--use-pid-file=no", "--log-target=stderr",
		"-L", "module-native-protocol-unix socket="+sock+" auth-anonymous=1",
		"-L", "module-null-sink sink_name=speaker rate=16000 channels=1",
		"-L", "module-null-sink sink_name=micsink rate=16000 channels=1",
		"-L", "module-remap-source master=micsink.monitor source_name=mic")
	harness.WaitFor(t, 20*time.Second, "pulseaudio to answer", func() bool {
		return p.command("pactl", "info").Run() == nil
	})
	for _, args := range [][]string{{"set-default-sink", "speaker"}, {"set-default-source", "mic"}} {
		if out, err := p.command("pactl", args...).CombinedOutput(); err != nil {
			t.Fatalf("pactl %v: %v\n%s", args, err, out)
		}
	}
	return p
}

// command is a program run against this server.
func (p *pulse) command(name string, args ...string) *exec.Cmd {
	c := exec.Command(name, args...)
	c.Env = p.Env
	return c
}
