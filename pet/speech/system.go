package speech

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"yui/pet/audio"
	"yui/transport/textcut"
)

// System is the "system" engine's synth: the OS's own voice, run as a
// process per sentence — espeak-ng on Linux (streamed from its standard
// output), say on macOS, SAPI through PowerShell's System.Speech on
// Windows. Text goes in on standard input, never as an argument, so a
// sentence that starts with "-" is read, not taken for an option.
type System struct {
	// Program is the program run; FindSystem fills it.
	Program string
	// Voice is the voice name ("" for the default).
	Voice string
	// Rate is the speed factor, 0.25–4; 1 (or 0) is normal.
	Rate float64
	// kind selects the command line.
	kind string
}

// System program kinds.
const (
	kindEspeak = "espeak-ng"
	kindSay    = "say"
	kindSAPI   = "sapi"
)

// FindSystem returns the system synth of this OS, or false when its
// program is not installed.
func FindSystem(voice string, rate float64) (*System, bool) {
	var kind, prog string
	switch runtime.GOOS {
	case "windows":
		kind, prog = kindSAPI, "powershell.exe"
	case "darwin":
		kind, prog = kindSay, "say"
	default:
		kind, prog = kindEspeak, "espeak-ng"
	}
	path, err := exec.LookPath(prog)
	if err != nil {
		return nil, false
	}
	return &System{Program: path, Voice: voice, Rate: rate, kind: kind}, true
}

// Name is the program's kind: "espeak-ng", "say" or "sapi".
func (s *System) Name() string { return s.kind }

// rate is the speed factor within bounds.
func (s *System) rate() float64 {
	if s.Rate <= 0 || math.IsNaN(s.Rate) {
		return 1
	}
	return max(0.25, min(4, s.Rate))
}

// Open runs the program for text.
func (s *System) Open(ctx context.Context, text string) (io.ReadCloser, audio.Format, error) {
	switch s.kind {
	case kindSay:
		return s.openSay(ctx, text)
	case kindSAPI:
		cmd := exec.CommandContext(ctx, s.Program, "-NoProfile", "-NonInteractive", "-Command", sapiScript)
		// SAPI's rate runs from -10 to 10, about a third to three times.
		r := int(math.Round(10 * math.Log(s.rate()) / math.Log(3)))
		cmd.Env = append(os.Environ(), "YUI_VOICE="+s.Voice, "YUI_RATE="+strconv.Itoa(max(-10, min(10, r))))
		return startProcess(cmd, text)
	}
	// espeak-ng speaks 175 words a minute by default, 80 to 450.
	wpm := max(80, min(450, int(math.Round(175*s.rate()))))
	args := []string{"--stdout", "-s", strconv.Itoa(wpm)}
	if s.Voice != "" {
		args = append(args, "-v", s.Voice)
	}
	return startProcess(exec.CommandContext(ctx, s.Program, args...), text)
}

// sapiScript speaks standard input into a WAV on standard output.
const sapiScript = `$ErrorActionPreference = 'Stop'
[Console]::InputEncoding = [Text.Encoding]::UTF8
Add-Type -AssemblyName System.Speech
$s = New-Object System.Speech.Synthesis.SpeechSynthesizer
# A voice this Windows lacks (a character's suggested one) leaves the default.
if ($env:YUI_VOICE) { try { $s.SelectVoice($env:YUI_VOICE) } catch { [Console]::Error.WriteLine("voice not installed: " + $env:YUI_VOICE) } }
$s.Rate = [int]$env:YUI_RATE
$m = New-Object System.IO.MemoryStream
$s.SetOutputToWaveStream($m)
$s.Speak([Console]::In.ReadToEnd())
$o = [Console]::OpenStandardOutput()
$m.WriteTo($o)
$o.Flush()`

// openSay runs say into a temporary WAV (say writes no audio to a pipe)
// and returns the file.
func (s *System) openSay(ctx context.Context, text string) (io.ReadCloser, audio.Format, error) {
	dir, err := os.MkdirTemp("", "yui-say-")
	if err != nil {
		return nil, audio.Format{}, err
	}
	out := filepath.Join(dir, "say.wav")
	args := []string{"--file-format=WAVE", "--data-format=LEI16@22050", "-o", out, "-f", "-",
		"-r", strconv.Itoa(int(math.Round(175 * s.rate())))}
	if s.Voice != "" {
		args = append(args, "-v", s.Voice)
	}
	cmd := exec.CommandContext(ctx, s.Program, args...)
	cmd.Stdin = strings.NewReader(text)
	var stderr bytes.Buffer
	cmd.Stderr = &limitedTail{b: &stderr, max: stderrTail}
	if err := cmd.Run(); err != nil {
		os.RemoveAll(dir)
		return nil, audio.Format{}, processError(err, stderr.String())
	}
	f, err := os.Open(out)
	if err != nil {
		os.RemoveAll(dir)
		return nil, audio.Format{}, err
	}
	return &removeOnClose{File: f, dir: dir}, audio.Format{}, nil
}

type removeOnClose struct {
	*os.File
	dir string
}

func (r *removeOnClose) Close() error {
	err := r.File.Close()
	os.RemoveAll(r.dir)
	return err
}

// startProcess starts cmd with text on its standard input and returns its
// standard output; closing it waits for the process and reports a failed
// exit with what the program wrote to standard error.
func startProcess(cmd *exec.Cmd, text string) (io.ReadCloser, audio.Format, error) {
	cmd.Stdin = strings.NewReader(text)
	var stderr bytes.Buffer
	cmd.Stderr = &limitedTail{b: &stderr, max: stderrTail}
	cmd.WaitDelay = time.Second
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, audio.Format{}, err
	}
	if err := cmd.Start(); err != nil {
		return nil, audio.Format{}, err
	}
	return &process{ReadCloser: out, cmd: cmd, stderr: &stderr}, audio.Format{}, nil
}

// process is a running synthesiser's standard output.
type process struct {
	io.ReadCloser
	cmd    *exec.Cmd
	stderr *bytes.Buffer
	waited bool
	err    error
}

func (p *process) Close() error {
	if p.waited {
		return p.err
	}
	p.waited = true
	// Reading stops here: a process still writing gets a broken pipe.
	p.ReadCloser.Close()
	if err := p.cmd.Wait(); err != nil {
		p.err = processError(err, p.stderr.String())
	}
	return p.err
}

// processError describes a failed synthesiser run with the last line the
// program wrote to standard error: a program's own reason comes last, after
// any progress or log lines.
func processError(err error, stderr string) error {
	if line := strings.TrimSpace(stderr); line != "" {
		if i := strings.LastIndexByte(line, '\n'); i >= 0 {
			line = strings.TrimSpace(line[i+1:])
		}
		return fmt.Errorf("%w: %s", err, textcut.Cut(textcut.Fold(line), 200))
	}
	return err
}

// stderrTail is how much of a synthesiser's standard error is kept.
const stderrTail = 4096

// limitedTail keeps the last max bytes written to it: a chatty program's
// log must not grow without bound.
type limitedTail struct {
	b   *bytes.Buffer
	max int
}

func (l *limitedTail) Write(p []byte) (int, error) {
	l.b.Write(p)
	if over := l.b.Len() - l.max; over > 0 {
		l.b.Next(over)
	}
	return len(p), nil
}
