// Package packcmd is the `yui pack` command: character packs from the
// command line.
//
//	yui pack import DIR [--id ID] [--set NAME] [--config-dir DIR]
//	yui pack import FILE.vrm [--id ID] [--motion NAME=CLIP.vrma]... [--i-am-the-author] [--config-dir DIR]
//
// import reads a Shimeji or Shimeji-ee set from DIR, or a VRM avatar from
// FILE.vrm (vrm.go), writes it as a pack to <config dir>/characters/<id>/
// and prints the pack's id.
package packcmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"yui/pet/character/shimeji"
	"yui/pet/settings"
)

const usage = `usage: yui pack import DIR [--id ID] [--set NAME] [--config-dir DIR]
       yui pack import FILE.vrm [--id ID] [--motion NAME=CLIP.vrma]... [--i-am-the-author] [--config-dir DIR]

Imports a Shimeji or Shimeji-ee character set: DIR holds its images (directly,
in img/ or in img/<name>/) and its conf/actions.xml.

Imports a VRM avatar (VRM 0.x or 1.0, as VRoid Studio exports it): the model
is posed and drawn once into an ordinary pack (emotions, a talk loop per
emotion, gaze, walk, sit, fall, drag, thinking), printing each stage. Each
--motion bakes a VRM Animation clip into a motion named NAME. A model whose
licence allows only its author asks whether you are (--i-am-the-author
answers yes). Interrupting the import leaves nothing behind.

Prints the new pack's id.
`

// Input is where the command asks a question: the user's terminal, or
// nothing to ask.
type Input struct {
	R io.Reader
	// Terminal says R is a person at a terminal.
	Terminal bool
}

// Run runs `yui pack ARGS` and returns the exit code: 0 done, 1 failed,
// 2 a usage error. An interrupt cancels an import.
func Run(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	in := Input{R: os.Stdin}
	if st, err := os.Stdin.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
		in.Terminal = true
	}
	return RunContext(ctx, args, in, stdout, stderr)
}

// RunContext is Run with its context and input.
func RunContext(ctx context.Context, args []string, in Input, stdout, stderr io.Writer) int {
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
	var v vrmFlags
	fs.StringVar(&o.ID, "id", "", "the pack's `id` (default: made from the set's or the model's name)")
	fs.StringVar(&o.Set, "set", "", "the image set under img/ to import (default: the first by name)")
	fs.StringVar(&o.ConfigDir, "config-dir", "", "Yui's config `directory` (default: the OS config directory)")
	fs.Var(&v.motions, "motion", "a VRM Animation clip to bake, `NAME=CLIP.vrma` (repeatable; VRM only)")
	fs.BoolVar(&v.author, "i-am-the-author", false, "confirm that you are the author of a model only its author may use (VRM only)")
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
	isVRM := isModel(o.Dir)
	if !isVRM && (len(v.motions) > 0 || v.author) {
		fmt.Fprintln(stderr, "yui pack import: --motion and --i-am-the-author are for a .vrm model")
		return 2
	}
	if isVRM && o.Set != "" {
		fmt.Fprintln(stderr, "yui pack import: --set is for a Shimeji set's folder, not a .vrm model")
		return 2
	}
	if o.ConfigDir == "" {
		d, err := settings.DefaultDir()
		if err != nil {
			fmt.Fprintln(stderr, "yui pack import:", err)
			return 1
		}
		o.ConfigDir = d
	}
	if isVRM {
		return importVRM(ctx, o, v, in, stdout, stderr)
	}
	r, err := shimeji.Import(o)
	if err != nil {
		fmt.Fprintln(stderr, "yui pack:", err)
		return 1
	}
	fmt.Fprintln(stdout, r.ID)
	return 0
}

// isModel reports whether path names a model file rather than a set's
// folder: a .vrm (or .glb) name, or any file that is not a folder.
func isModel(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".vrm", ".glb":
		return true
	}
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}

func isHelp(arg string) bool {
	switch arg {
	case "-h", "-help", "--help", "help":
		return true
	}
	return false
}
