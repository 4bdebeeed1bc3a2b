// Command yui starts Yui, the desktop companion.
//
//	yui [--config-dir DIR] [--demo] [--verbose]
//	    [--chat-api push|chat_completions|responses] [--chat-base-url URL] [--model M]
//	    [--audio-out FILE.wav]
//	    [--voice-in FILE.wav] [--stats-every DURATION]
//	yui voices [--engine system|openai|command|none]
//	yui devices
//	yui pack import DIR [--id ID] [--set NAME] [--config-dir DIR]
//
// The chat API key of a one-run override comes from the YUI_KEY
// environment variable, never from a flag (flags show in process lists).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"

	"early/localeenv"

	"yui/app"
	"yui/app/packcmd"
	"yui/tools/desktop"
)

func main() {
	// Every package's init has run with the locale Fyne reads made quiet
	// (cmd/yui/localeenv): child processes get the user's own again.
	localeenv.Restore()
	if len(os.Args) > 1 {
		if code, ok := subcommand(os.Args[1], os.Args[2:]); ok {
			os.Exit(code)
		}
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
	flag.DurationVar(&cfg.StatsEvery, "stats-every", 0, "log the goroutine count, heap, resident set and open files at this `interval` (e.g. 10s; 0: never)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: yui [flags]\n\nThe key of a one-run override is read from the YUI_KEY environment variable.\n\n")
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
	err = app.Run(cfg)
	release() // the app's own connections kept the display from resetting
	if err != nil {
		fmt.Fprintln(os.Stderr, "yui:", err)
		if errors.Is(err, app.ErrAlreadyRunning) {
			return // the running Yui shows its pets: nothing failed
		}
		os.Exit(1)
	}
}

// subcommand runs yui's subcommands (voices, devices) and returns the
// exit code; ok is false when name is none of them.
func subcommand(name string, args []string) (code int, ok bool) {
	switch name {
	case "voices":
		fs := flag.NewFlagSet("yui voices", flag.ContinueOnError)
		engine := fs.String("engine", "system", "the speech `engine` whose voices to list: system, openai, command or none")
		if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
			return 2, true
		}
		return report(app.PrintVoices(context.Background(), os.Stdout, *engine)), true
	case "pack":
		return packcmd.Run(args, os.Stdout, os.Stderr), true
	case "devices":
		if len(args) > 0 {
			fmt.Fprintln(os.Stderr, "usage: yui devices")
			return 2, true
		}
		return report(app.PrintDevices(os.Stdout)), true
	}
	return 0, false
}

// report prints a subcommand's error and returns its exit code.
func report(err error) int {
	if err != nil {
		fmt.Fprintln(os.Stderr, "yui:", err)
		return 1
	}
	return 0
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
