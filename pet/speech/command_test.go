package speech

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"yui/pet/audio"
)

// TestMain lets the test binary stand in for a speech program: with
// YUI_FAKE_SYNTH set it reads a sentence on standard input and acts as
// told instead of running the tests.
func TestMain(m *testing.M) {
	if mode := os.Getenv("YUI_FAKE_SYNTH"); mode != "" {
		os.Exit(fakeSynth(mode))
	}
	os.Exit(m.Run())
}

// fakeSynth: "raw" writes one second of a 22,050 Hz tone; "fail" logs two
// lines to standard error and exits 2; "hang" writes 0.1 s and waits
// forever. Each saves the sentence it read to $YUI_FAKE_SYNTH_TEXT.
func fakeSynth(mode string) int {
	text, _ := io.ReadAll(os.Stdin)
	if p := os.Getenv("YUI_FAKE_SYNTH_TEXT"); p != "" {
		os.WriteFile(p, text, 0o600)
	}
	tone := func(n int) []byte {
		var b []byte
		for i := range n {
			b = binary.LittleEndian.AppendUint16(b, uint16(int16(8000*math.Sin(float64(i)*2*math.Pi*300/22050))))
		}
		return b
	}
	switch mode {
	case "raw":
		os.Stdout.Write(tone(22050))
	case "fail":
		fmt.Fprintln(os.Stderr, "loading voice model")
		fmt.Fprintln(os.Stderr, "error: en_US-lessac-medium.onnx: no such file")
		return 2
	case "hang":
		os.Stdout.Write(tone(2205))
		select {}
	}
	return 0
}

// fakeCommand is the test binary as a command engine in mode.
func fakeCommand(t *testing.T, mode string, rate int) (*Command, string) {
	t.Helper()
	textFile := filepath.Join(t.TempDir(), "text")
	t.Setenv("YUI_FAKE_SYNTH", mode)
	t.Setenv("YUI_FAKE_SYNTH_TEXT", textFile)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return &Command{Args: []string{exe, "-test.run=^$"}, Rate: rate}, textFile
}

// play prepares text on e and plays it to its end, reading the mixer.
func play(t *testing.T, e *Audio, m *audio.Mixer, text string) (*audio.Stream, error) {
	t.Helper()
	clip, _ := e.Prepare(context.Background(), text)
	done := make(chan error, 1)
	clip.(Starter).Start(func(err error) { done <- err })
	pump(t, m, "the clip's end", func() bool { return len(done) > 0 })
	return clip.(*audioClip).Stream(), <-done
}

func TestCommandEngineReadsRawPCMFromStandardOutput(t *testing.T) {
	c, textFile := fakeCommand(t, "raw", 22050)
	m := audio.NewMixer()
	e := NewAudio(c, m.NewPlayer())
	defer e.Close()
	st, err := play(t, e, m, "--voice evil: a sentence that looks like an option")
	if err != nil {
		t.Fatalf("done(%v)", err)
	}
	// One second at 22,050 Hz, resampled to the mixer's rate.
	if secs := float64(st.Written()) / audio.Rate; secs < 0.95 || secs > 1.05 {
		t.Fatalf("%.3f s of audio, want 1 s", secs)
	}
	if got, _ := os.ReadFile(textFile); string(got) != "--voice evil: a sentence that looks like an option" {
		t.Fatalf("the program read %q on standard input", got)
	}
	if c.Name() != filepath.Base(c.Args[0]) {
		t.Fatalf("name %q", c.Name())
	}
}

func TestCommandEngineFailureIsItsLastStderrLine(t *testing.T) {
	c, _ := fakeCommand(t, "fail", 22050)
	m := audio.NewMixer()
	e := NewAudio(c, m.NewPlayer())
	defer e.Close()
	_, err := play(t, e, m, "Hello.")
	if err == nil || !strings.HasSuffix(err.Error(), "exit status 2: error: en_US-lessac-medium.onnx: no such file") {
		t.Fatalf("done(%v), want the exit status and the last stderr line", err)
	}
}

func TestCommandEngineStopKillsTheProgram(t *testing.T) {
	c, _ := fakeCommand(t, "hang", 22050)
	m := audio.NewMixer()
	p := m.NewPlayer()
	e := NewAudio(c, p)
	ctx, cancel := context.WithCancel(context.Background())
	clip, _ := e.Prepare(ctx, "A sentence that never ends.")
	st := clip.(*audioClip).Stream()
	stop := clip.(Starter).Start(func(err error) { t.Errorf("done(%v) after stop", err) })
	// Playback starts with the first samples while the program still runs.
	pump(t, m, "the first audio", func() bool { return p.Handed() > 0 })
	stop()
	cancel()
	stoppedAt := time.Now()
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(stoppedAt); d > 2*time.Second {
		t.Fatalf("the program took %v to end after the stop", d)
	}
	if !errors.Is(st.Err(), context.Canceled) {
		t.Fatalf("stream ended with %v, want cancelled", st.Err())
	}
}

func TestCommandEngineEmptyCommandFails(t *testing.T) {
	m := audio.NewMixer()
	e := NewAudio(&Command{}, m.NewPlayer())
	defer e.Close()
	if _, err := play(t, e, m, "Hi."); err == nil {
		t.Fatal("an empty command played")
	}
}

// TestCommandEngineRunsEspeakNG is the README's example: espeak-ng
// --stdout, a WAV on standard output.
func TestCommandEngineRunsEspeakNG(t *testing.T) {
	path, err := exec.LookPath("espeak-ng")
	if err != nil {
		t.Fatal("no espeak-ng: install it (.ci/deps.sh test)")
	}
	m := audio.NewMixer()
	e := NewAudio(&Command{Args: []string{path, "--stdout"}}, m.NewPlayer())
	defer e.Close()
	st, err := play(t, e, m, "Hello there. This is espeak-ng run as a command.")
	if err != nil {
		t.Fatalf("done(%v)", err)
	}
	if secs := float64(st.Written()) / audio.Rate; secs < 1.5 || secs > 10 {
		t.Fatalf("%.2f s of audio", secs)
	}
}
