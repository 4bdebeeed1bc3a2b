// Package packcmd is the `yui pack` command: character packs from the
// command line.
//
//	yui pack import DIR [--id ID] [--set NAME] [--config-dir DIR]
//
// import reads a Shimeji or Shimeji-ee set from DIR, writes it as a pack
// to <config dir>/characters/<id>/ and prints the pack's id.
package packcmd

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"yui/pet/character/shimeji"
	"yui/pet/settings"
)

const usage = `usage: yui pack import DIR [--id ID] [--set NAME] [--config-dir DIR]

Imports a Shimeji or Shimeji-ee character set: DIR holds its images (directly,
in img/ or in img/<name>/) and its conf/actions.xml. Prints the new pack's id.
`

// Run runs `yui pack ARGS` and returns the exit code: 0 done, 1 failed,
// 2 a usage error.
func Run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && isHelp(args[0]) {
		fmt.Fprint(stderr, usage)
		return 0
	}
	if len(args) == 0 || args[0] != "import" {
		fmt.Fprint(stderr, usage)
		return 2
	}
	fs := flag.NewFlagSet("yui pack import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults() }
	var o shimeji.Options
	fs.StringVar(&o.ID, "id", "", "the pack's `id` (default: made from the set's name)")
	fs.StringVar(&o.Set, "set", "", "the image set under img/ to import (default: the first by name)")
	fs.StringVar(&o.ConfigDir, "config-dir", "", "Yui's config `directory` (default: the OS config directory)")
	// Flags may come before or after DIR.
	var pos []string
	rest := args[1:]
	for {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(pos) != 1 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	o.Dir = pos[0]
	if o.ConfigDir == "" {
		d, err := settings.DefaultDir()
		if err != nil {
			fmt.Fprintln(stderr, "yui pack import:", err)
			return 1
		}
		o.ConfigDir = d
	}
	r, err := shimeji.Import(o)
	if err != nil {
		fmt.Fprintln(stderr, "yui pack:", err)
		return 1
	}
	fmt.Fprintln(stdout, r.ID)
	return 0
}

// isHelp says whether arg asks for the usage, as the flag package reads it.
func isHelp(arg string) bool {
	switch arg {
	case "-h", "-help", "--help", "help":
		return true
	}
	return false
}
