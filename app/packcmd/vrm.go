package packcmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"yui/pet/character"
	"yui/pet/character/shimeji"
	"yui/pet/character/vrm"
	"yui/pet/character/vrmpack"
)

// vrmFlags are the flags only a VRM import takes.
type vrmFlags struct {
	motions motionFlag
	author  bool
}

// motionFlag is the repeatable --motion NAME=CLIP.vrma.
type motionFlag map[string]string

func (m *motionFlag) String() string { return "" }

func (m *motionFlag) Set(s string) error {
	name, file, ok := strings.Cut(s, "=")
	switch {
	case !ok || file == "":
		return fmt.Errorf("want NAME=CLIP.vrma, got %q", s)
	case !character.ValidID(name):
		return fmt.Errorf("motion name %q must be 1 to 64 letters, digits, \"-\" or \"_\"", name)
	}
	if *m == nil {
		*m = motionFlag{}
	}
	if _, dup := (*m)[name]; dup {
		return fmt.Errorf("motion %q is given twice", name)
	}
	(*m)[name] = file
	return nil
}

// importVRM imports the model o.Dir names, printing its stages to stderr
// and the new id to stdout.
func importVRM(ctx context.Context, o shimeji.Options, v vrmFlags, in Input, stdout, stderr io.Writer) int {
	p := &progress{w: stderr}
	id, err := vrmpack.Import(ctx, vrmpack.Options{
		File:     o.Dir,
		ID:       o.ID,
		Motions:  v.motions,
		Dir:      filepath.Join(o.ConfigDir, "characters"),
		Progress: p.report,
		ConfirmAuthor: func(m vrm.Meta) bool {
			return v.author || askAuthor(m, in, stderr)
		},
	})
	switch {
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(stderr, "yui pack: import cancelled; nothing was written")
		return 1
	case errors.Is(err, vrmpack.ErrNotAuthor) && !in.Terminal && !v.author:
		fmt.Fprintf(stderr, "yui pack: %v; run it again with --i-am-the-author if you are\n", err)
		return 1
	case err != nil:
		fmt.Fprintln(stderr, "yui pack:", oneLine(err.Error()))
		return 1
	}
	fmt.Fprintln(stdout, id)
	return 0
}

// askAuthor asks the person at the terminal whether they are the model's
// author; with no terminal there is no one to ask, and the answer is no.
func askAuthor(m vrm.Meta, in Input, w io.Writer) bool {
	if !in.Terminal || in.R == nil {
		return false
	}
	who := m.Author
	if who == "" {
		who = "its author"
	}
	fmt.Fprintf(w, "The licence of %q allows only its author (%s) to use it. Are you the author? [y/N] ", m.Title, who)
	line, _ := bufio.NewReader(in.R).ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	return false
}

// progress prints an import's stages, one line per stage and every tenth
// of the frames drawn.
type progress struct {
	w     io.Writer
	stage vrmpack.Stage
	shown int
}

func (p *progress) report(s vrmpack.Stage, done, total int) {
	if s != p.stage {
		p.stage, p.shown = s, -1
		if s != vrmpack.StageRendering {
			fmt.Fprintf(p.w, "%s…\n", s)
		}
	}
	if s != vrmpack.StageRendering || total <= 0 {
		return
	}
	if step := max(1, total/10); done == total || done/step != p.shown/step || p.shown < 0 {
		if done != p.shown {
			fmt.Fprintf(p.w, "rendering %d of %d frames\n", done, total)
			p.shown = done
		}
	}
}

// oneLine keeps an error to its first line.
func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
