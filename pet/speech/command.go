package speech

import (
	"context"
	"errors"
	"io"
	"os/exec"
	"path/filepath"

	"yui/pet/audio"
)

// Command is the "command" engine's synth: any program that reads text and
// writes audio, such as Piper or espeak-ng --stdout. It runs once per
// sentence, without a shell, with the sentence on its standard input, and
// its standard output is played as it streams: a WAV, or raw 16-bit
// little-endian mono PCM at Rate samples a second when Rate is set.
// Stopping speech kills it; a failed exit fails the sentence with the last
// line the program wrote to standard error.
type Command struct {
	// Args are the program and its arguments (split as the voice command
	// is: pet/cmdline).
	Args []string
	// Rate is the sample rate of raw PCM output; 0 reads a WAV.
	Rate int
}

// Name is the program's file name ("piper").
func (c *Command) Name() string {
	if len(c.Args) == 0 {
		return "command"
	}
	return filepath.Base(c.Args[0])
}

// Open starts the program for text.
func (c *Command) Open(ctx context.Context, text string) (io.ReadCloser, audio.Format, error) {
	if len(c.Args) == 0 {
		return nil, audio.Format{}, errors.New("the speech command is empty")
	}
	body, _, err := startProcess(exec.CommandContext(ctx, c.Args[0], c.Args[1:]...), text)
	if err != nil || c.Rate <= 0 {
		return body, audio.Format{}, err
	}
	return body, audio.Format{Rate: c.Rate, Channels: 1}, nil
}
