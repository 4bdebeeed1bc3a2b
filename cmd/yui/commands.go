package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"yui/app"
	"yui/app/packcmd"
)

// command is one of yui's subcommands: `yui NAME ARGS`. Each prints its
// own usage for --help (exit 0) and on a wrong command line (exit 2).
type command struct {
	name    string
	summary string // one line, for `yui --help`
	run     func(args []string, stdout, stderr io.Writer) int
}

// commands are yui's subcommands in the order `yui --help` lists them.
// A new subcommand is one entry here.
var commands = []command{
	{"pack", "import a Shimeji or Shimeji-ee character set, or a VRM avatar, as a pack", runPack},
	{"voices", "list the voices of a speech engine", runVoices},
	{"devices", "list the audio inputs and outputs", runDevices},
	{"servers", "list the model, speech and transcription servers on this machine", runServers},
	{"event", "hand the running Yui an event to react to (a build, a script)", runEvent},
	{"desktop", "set up what the desktop needs for Yui to see its windows (GNOME's extension)", runDesktop},
}

// findCommand returns the subcommand named name.
func findCommand(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// printCommands writes the subcommand list of `yui --help`.
func printCommands(w io.Writer) {
	fmt.Fprintf(w, "commands:\n")
	width := 0
	for _, c := range commands {
		width = max(width, len(c.name))
	}
	for _, c := range commands {
		fmt.Fprintf(w, "  yui %-*s  %s\n", width, c.name, c.summary)
	}
	fmt.Fprintf(w, "\n'yui COMMAND --help' tells more of each.\n")
}

// parseFlags parses a subcommand's flags; usage is its usage line and
// text. It returns the exit code to end with and false when the command
// line was --help (0) or wrong (2).
func parseFlags(fs *flag.FlagSet, usage string, args []string, stderr io.Writer) (int, bool) {
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		if hasFlags(fs) {
			fmt.Fprintln(stderr, "\nflags:")
			fs.PrintDefaults()
		}
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, false
		}
		return 2, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected %q\n", fs.Name(), strings.Join(fs.Args(), " "))
		fs.Usage()
		return 2, false
	}
	return 0, true
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

func runPack(args []string, stdout, stderr io.Writer) int {
	return packcmd.Run(args, stdout, stderr)
}

const voicesUsage = `usage: yui voices [--engine system|openai|gpt-sovits|piper|alltalk|command|none] [--base-url URL]

Lists the voices a speech engine offers, one a line (id, language, name):
the system engine's (espeak-ng on Linux, SAPI on Windows) by default. With
--engine openai and --base-url, a server that lists its own voices
(Kokoro-FastAPI: yui voices --engine openai --base-url
http://127.0.0.1:8880/v1) gives those; others give the usual names.
`

func runVoices(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("yui voices", flag.ContinueOnError)
	engine := fs.String("engine", "system", "the speech `engine` whose voices to list: system, openai, gpt-sovits, piper, command or none")
	base := fs.String("base-url", "", "the openai engine's server `URL`, asked for its own voices (Kokoro-FastAPI lists them)")
	if code, ok := parseFlags(fs, voicesUsage, args, stderr); !ok {
		return code
	}
	return report(stderr, app.PrintVoices(context.Background(), stdout, *engine, *base))
}

const devicesUsage = `usage: yui devices

Lists the audio inputs (microphones) and outputs (speakers) by the names
the Voice and Speech tabs offer.
`

func runDevices(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("yui devices", flag.ContinueOnError)
	if code, ok := parseFlags(fs, devicesUsage, args, stderr); !ok {
		return code
	}
	return report(stderr, app.PrintDevices(stdout))
}

const desktopUsage = `usage: yui desktop setup [--remove] [--gnome] [--into DIR [--shell N]]

Sets up what this desktop session needs for Yui to see its windows, and
prints what it did. On GNOME (Wayland) it installs Yui's GNOME Shell
extension for you (in your data folder's gnome-shell/extensions) and
enables it, whether GNOME Shell runs now or not; GNOME Shell runs a newly
installed extension from your next login. On KDE Plasma and X11 nothing
needs installing. Running it again changes nothing; --remove undoes it.
--into DIR writes the extension's files into DIR (a package's
/usr/share/gnome-shell/extensions) for GNOME Shell N, and enables nothing.
`

func runDesktop(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "setup" {
		if len(args) > 0 && (args[0] == "--help" || args[0] == "-h") {
			fmt.Fprint(stderr, desktopUsage)
			return 0
		}
		fmt.Fprint(stderr, desktopUsage)
		return 2
	}
	fs := flag.NewFlagSet("yui desktop setup", flag.ContinueOnError)
	remove := fs.Bool("remove", false, "undo the setup: disable and delete Yui's GNOME Shell extension")
	force := fs.Bool("gnome", false, "install GNOME's extension whatever the session (from a console, before logging in to GNOME)")
	into := fs.String("into", "", "write the GNOME Shell extension's files into `DIR`/<uuid> for every user (a package's), enabling nothing")
	shell := fs.Int("shell", 0, "with --into: the GNOME Shell major `version` to write for (0: the installed one's)")
	if code, ok := parseFlags(fs, desktopUsage, args[1:], stderr); !ok {
		return code
	}
	if *into != "" {
		return report(stderr, app.WriteGnomeExtension(context.Background(), stdout, *into, *shell))
	}
	return report(stderr, app.DesktopSetup(context.Background(), stdout, *remove, *force))
}

// report prints a subcommand's error and returns its exit code.
func report(stderr io.Writer, err error) int {
	if err != nil {
		fmt.Fprintln(stderr, "yui:", err)
		return 1
	}
	return 0
}

// runCommand runs os.Args' subcommand, if it names one.
func runCommand(args []string) (code int, ok bool) {
	if len(args) == 0 {
		return 0, false
	}
	c, ok := findCommand(args[0])
	if !ok {
		return 0, false
	}
	return c.run(args[1:], os.Stdout, os.Stderr), true
}
