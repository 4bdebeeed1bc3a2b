package voice

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"yui/pet/cmdline"
	"yui/transport/textcut"
)

// Command is the "command" engine: a program that reads a WAV and prints
// text. The utterance is written to a temporary file whose path is
// appended as the last argument; the program's standard output, with its
// whitespace runs (line breaks included) made single spaces and trimmed,
// is the text. A non-zero exit or an empty output fails with the reason
// (the last line the program wrote to standard error, when it wrote one).
type Command struct {
	Args []string // program and its arguments
}

// NewCommand splits line as a POSIX shell would (quotes, backslashes; no
// variables, globs or pipes: nothing runs through a shell) into a Command.
func NewCommand(line string) (*Command, error) {
	args, err := cmdline.Split(line)
	if err != nil {
		return nil, fmt.Errorf("voice command: %w", err)
	}
	if len(args) == 0 {
		return nil, errors.New("voice command is empty")
	}
	return &Command{Args: args}, nil
}

// Transcribe runs the program on wav.
func (c *Command) Transcribe(ctx context.Context, wav []byte) (string, error) {
	f, err := os.CreateTemp("", "yui-utterance-*.wav")
	if err != nil {
		return "", fmt.Errorf("voice command: %w", err)
	}
	defer os.Remove(f.Name())
	_, err = f.Write(wav)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("voice command: writing the utterance: %w", err)
	}
	args := append(c.Args[1:len(c.Args):len(c.Args)], f.Name())
	cmd := exec.CommandContext(ctx, c.Args[0], args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &limitedTail{max: 4096, b: &stderr}
	runErr := cmd.Run()
	name := c.Args[0]
	if runErr != nil {
		if last := lastLine(stderr.String()); last != "" {
			return "", fmt.Errorf("%s: %v: %s", name, runErr, last)
		}
		return "", fmt.Errorf("%s: %w", name, runErr)
	}
	text := strings.Join(strings.Fields(stdout.String()), " ")
	if text == "" {
		return "", fmt.Errorf("%s printed no text", name)
	}
	return text, nil
}

// lastLine is the last non-blank line of s, on one line and cut short.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return textcut.OneLine(lines[len(lines)-1], 160)
}

// limitedTail keeps only the last max bytes written: a chatty program's
// log must not grow without bound.
type limitedTail struct {
	max int
	b   *bytes.Buffer
}

func (w *limitedTail) Write(p []byte) (int, error) {
	w.b.Write(p)
	if over := w.b.Len() - w.max; over > 0 {
		w.b.Next(over)
	}
	return len(p), nil
}
