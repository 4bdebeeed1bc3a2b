package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"yui/app"
)

// eventUsage is yui event --help's text.
const eventUsage = `usage: yui event [--source NAME] [--preset ID] [--config-dir DIR] TEXT

Hands an event to the running Yui: the preset's character gets a turn
with trigger event from "<source>": "<text>" and says something about it,
or nothing, as she sees fit. Events wait while she cannot speak (at most
10), and each source may send 12 an hour.

A shell hook, for example:
  make && yui event --source build "done" || yui event --source build "failed"

Exit status: 0 when the running Yui took the event, 1 when no Yui is
running or it refused the event, 2 for a wrong command line.

`

// runEvent runs yui event and returns its exit code.
func runEvent(args []string, _, stderr io.Writer) int {
	fs := flag.NewFlagSet("yui event", flag.ContinueOnError)
	fs.SetOutput(stderr)
	source := fs.String("source", "cli", "the `name` of the program sending the event")
	preset := fs.String("preset", "", "the preset `id` to tell (default: the active preset)")
	dir := fs.String("config-dir", "", "the config `directory` of the running Yui (default: the OS config directory)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), eventUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	text := strings.TrimSpace(strings.Join(fs.Args(), " "))
	if text == "" {
		fs.Usage()
		return 2
	}
	if err := app.SendEvent(*dir, *preset, *source, text); err != nil {
		fmt.Fprintln(stderr, "yui event:", err)
		return 1
	}
	return 0
}
