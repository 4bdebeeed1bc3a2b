// Command yui starts Yui, the desktop companion.
//
//	yui [--config-dir DIR] [--demo] [--verbose]
//	    [--chat-api push|chat_completions|responses] [--chat-base-url URL] [--model M]
//	    [--audio-out FILE.wav]
//	    [--voice-in FILE.wav] [--stats-every DURATION] [--trace FILE]
//	yui voices [--engine system|openai|command|none]
//	yui devices
//	yui pack import DIR [--id ID] [--set NAME] [--config-dir DIR]
//	yui pack import FILE.vrm [--id ID] [--motion NAME=CLIP.vrma]... [--i-am-the-author] [--config-dir DIR]
//	yui event [--source NAME] [--preset ID] [--config-dir DIR] TEXT
//
// The chat API key of a one-run override comes from the YUI_KEY
// environment variable, never from a flag (flags show in process lists).
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime/trace"

	"early/localeenv"

	"yui/app"
	"yui/tools/desktop"
)

func main() {
	// Every package's init has run with the locale Fyne reads made quiet
	// (cmd/yui/localeenv): child processes get the user's own again.
	localeenv.Restore()
	if code, ok := runCommand(os.Args[1:]); ok {
		os.Exit(code)
	}
	var cfg app.Config
	flag.StringVar(&cfg.ConfigDir, "config-dir", "", "settings and logs `directory` (default: the OS config directory)")
	flag.BoolVar(&cfg.Demo, "demo", false, "run the push simulator on loopback and a demo pet connected to it")
	flag.BoolVar(&cfg.Verbose, "verbose", false, "mirror the log to stderr")
	flag.StringVar(&cfg.ChatAPI, "chat-api", "", "override the active preset's chat API for this run: push, chat_completions or responses")
	flag.StringVar(&cfg.ChatBaseURL, "chat-base-url", "", "override the active preset's chat base `URL` for this run")
	flag.StringVar(&cfg.Model, "model", "", "override the active preset's model for this run")
	flag.StringVar(&cfg.AudioOut, "audio-out", "", "also write every pet's speech, mixed, to this WAV `file`")
	flag.StringVar(&cfg.VoiceIn, "voice-in", "", "play a WAV `file` (any rate, then silence) as the main pet's microphone; the preset's voice mode applies")
	flag.StringVar(&cfg.VoiceDebug, "voice-debug", "", "write the main pet's raw microphone, echo reference and cleaned stream as WAV files to this `directory`")
	flag.DurationVar(&cfg.StatsEvery, "stats-every", 0, "log the goroutine count, heap, resident set and open files at this `interval` (e.g. 10s; 0: never)")
	traceFile := flag.String("trace", "", "write a Go execution trace of the whole run to this `file` (go tool trace reads it): which goroutines wake an idle pet, and why")
	flag.Usage = func() {
		out := flag.CommandLine.Output()
		fmt.Fprintf(out, "usage: yui [flags]\n       yui COMMAND [flags]\n\nStarts Yui, the desktop companion: one pet on the desktop for each enabled\npreset. The key of a one-run override is read from the YUI_KEY environment\nvariable.\n\n")
		printCommands(out)
		fmt.Fprintf(out, "\nflags:\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	cfg.Key = takeKey()
	release, err := desktop.CheckDisplay()
	if err != nil {
		// One line and exit code 2, as for a wrong command line: nothing
		// is wrong with Yui, the session lacks what it needs.
		fmt.Fprintln(os.Stderr, "yui:", err)
		os.Exit(2)
	}
	stopTrace, err := startTrace(*traceFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, "yui:", err)
		os.Exit(2)
	}
	err = app.Run(cfg)
	stopTrace()
	release() // the app's own connections kept the display from resetting
	if err != nil {
		fmt.Fprintln(os.Stderr, "yui:", err)
		if errors.Is(err, app.ErrAlreadyRunning) {
			return // the running Yui shows its pets: nothing failed
		}
		os.Exit(1)
	}
}

// keyEnv is the environment variable of a one-run key.
const keyEnv = "YUI_KEY"

// takeKey reads the one-run key and removes it from the environment, so
// that no program Yui starts (espeak-ng, the browser, a voice command)
// inherits it.
func takeKey() string {
	k := os.Getenv(keyEnv)
	os.Unsetenv(keyEnv)
	return k
}

// startTrace starts a Go execution trace into path ("" traces nothing)
// and returns what ends it and closes the file. docs/performance.md shows
// how the idle figures were taken apart with it.
func startTrace(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("trace: %w", err)
	}
	if err := trace.Start(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("trace %s: %w", path, err)
	}
	return func() {
		trace.Stop()
		if err := f.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "yui: trace:", err)
		}
	}, nil
}
