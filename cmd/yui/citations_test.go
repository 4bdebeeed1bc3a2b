package main

// The house rule this test holds: every file a comment or a page names is in
// the repository, and every relative link of the Markdown pages leads
// somewhere. The specification once lived outside the repository and the
// code cited it by bare names no reader could open; layout moves leave
// comments naming files that moved. Both rot silently, so a test reads them.

import (
	"bufio"
	"bytes"
	"fmt"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"unicode"
)

func TestCitationsExist(t *testing.T) {
	r := openRepo(t)
	for _, err := range r.brokenCitations() {
		t.Error(err)
	}
}

func TestMarkdownLinksResolve(t *testing.T) {
	r := openRepo(t)
	for _, err := range r.brokenLinks() {
		t.Error(err)
	}
}

// TestCheckersCatchBreakage feeds the checks a small repository with one
// broken thing of each kind, so a check that silently passes everything
// fails here.
func TestCheckersCatchBreakage(t *testing.T) {
	fsys := fstest.MapFS{
		"go.mod":                          {Data: []byte("module x\n")},
		"transport/queue.go":              {Data: []byte("package transport\n")},
		"docs/protocol/push-transport.md": {Data: []byte("# Push transport\n\n## Limits\n")},
		"pkg/a.go": {Data: []byte("package pkg\n\n" +
			"// Fine: b.go, transport/queue.go, docs/protocol/push-transport.md §3.\n" +
			"// Broken: gone.go and docs/protocol/client-tools.md.\n" +
			"// Old style: push-transport.md, no longer a repository path.\n" +
			"var s = \"missing.go in a string is no citation\"\n")},
		"pkg/b.go": {Data: []byte("package pkg\n")},
		"docs/page.md": {Data: []byte("# Page\n\n## Good part\n\n" +
			"[ok](protocol/push-transport.md#limits), [here](#good-part), [web](https://example.com/x.md)\n" +
			"[broken](nowhere.md), [bad anchor](protocol/push-transport.md#no-such-part)\n" +
			"```\nmissing-in-a-code-block.go\n```\n")},
	}
	r := newRepo(fsys, []string{"go.mod", "transport/queue.go", "docs/protocol/push-transport.md", "pkg/a.go", "pkg/b.go", "docs/page.md"})

	cites := strings.Join(errorStrings(r.brokenCitations()), "\n")
	for _, want := range []string{"pkg/a.go:4: gone.go", "pkg/a.go:4: docs/protocol/client-tools.md", "pkg/a.go:5: push-transport.md", "docs/page.md:6: nowhere.md"} {
		if !strings.Contains(cites, want) {
			t.Errorf("broken citations miss %q; got:\n%s", want, cites)
		}
	}
	for _, never := range []string{"b.go", "queue.go", "missing.go", "code-block", "example.com"} {
		if strings.Contains(cites, never) {
			t.Errorf("broken citations wrongly name %q:\n%s", never, cites)
		}
	}

	links := strings.Join(errorStrings(r.brokenLinks()), "\n")
	for _, want := range []string{"docs/page.md:6: nowhere.md", "docs/page.md:6: protocol/push-transport.md#no-such-part"} {
		if !strings.Contains(links, want) {
			t.Errorf("broken links miss %q; got:\n%s", want, links)
		}
	}
	if n := len(r.brokenLinks()); n != 2 {
		t.Errorf("broken links: %d, want 2:\n%s", n, links)
	}
}

func TestAnchorSlugs(t *testing.T) {
	for heading, want := range map[string]string{
		"What CI checks under Wine, and what only Windows shows":          "what-ci-checks-under-wine-and-what-only-windows-shows",
		"tool_call (backend → client) and tool_result (client → backend)": "tool_call-backend--client-and-tool_result-client--backend",
		"11. Life: turns Yui starts on her own":                           "11-life-turns-yui-starts-on-her-own",
		"`yui-sim check`":                                                 "yui-sim-check",
	} {
		if got := slug(heading); got != want {
			t.Errorf("slug(%q) = %q, want %q", heading, got, want)
		}
	}
}

// allowed are names that look like citations and are not files of the
// repository, each for a stated reason. Keep it short: a name belongs here
// only when it can never be a file the reader should find.
var allowed = map[string]string{
	"fyne_metadata_init.go": "written by fyne package into cmd/yui while it packages, and removed after",
}

// specNames are the specification files as the code cited them before they
// were in the repository. Bare, they are accepted only beside their copy
// (a page of docs/protocol naming its sibling); anywhere else the citation
// must be the repository path, docs/protocol/<name> or docs/product.md.
var specNames = map[string]bool{
	"push-transport.md": true, "client-context.md": true, "client-tools.md": true, "product.md": true,
}

// repo is the tracked tree the checks read, over an fs.FS so that the
// breakage test can run on an in-memory one.
type repo struct {
	fsys  fs.FS
	files []string       // tracked files, slash-separated, relative to the root
	base  map[string]int // how many tracked files have each base name
	has   map[string]bool
}

func newRepo(fsys fs.FS, files []string) *repo {
	r := &repo{fsys: fsys, files: files, base: map[string]int{}, has: map[string]bool{}}
	for _, f := range files {
		r.base[path.Base(f)]++
		r.has[f] = true
	}
	return r
}

// openRepo is the repository this test runs in: its tracked files, or,
// outside a git checkout, every file under the root but build output.
func openRepo(t *testing.T) *repo {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("repository root: %v", err)
	}
	files, err := trackedFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 100 {
		t.Fatalf("only %d files found under %s: the checks would pass on nothing", len(files), root)
	}
	return newRepo(os.DirFS(root), files)
}

func trackedFiles(root string) ([]string, error) {
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err == nil {
		var files []string
		for _, f := range strings.Split(string(out), "\x00") {
			if f != "" {
				files = append(files, f)
			}
		}
		return files, nil
	}
	var files []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == ".git" || rel == "bin" || rel == "dist" {
				return filepath.SkipDir
			}
			return nil
		}
		files = append(files, rel)
		return nil
	})
	return files, err
}

// exists reports whether p, relative to the root, is a file or folder of
// the tree. A path that climbs out of the root is not.
func (r *repo) exists(p string) bool {
	p = path.Clean(p)
	if p == ".." || strings.HasPrefix(p, "../") || path.IsAbs(p) {
		return false
	}
	if r.has[p] {
		return true
	}
	_, err := fs.Stat(r.fsys, p)
	return err == nil
}

// kind says how a file's citations are found, "" for a file not read.
func kind(file string) string {
	switch {
	case strings.HasSuffix(file, ".go"):
		return "go"
	case strings.HasSuffix(file, ".md"):
		return "md"
	case file == "Makefile" || strings.HasPrefix(file, ".ci/"):
		return "hash"
	}
	return ""
}

// brokenCitations reads every Go comment, Makefile and CI script comment and
// Markdown page (outside code blocks) for the file names it cites.
func (r *repo) brokenCitations() []error {
	var errs []error
	for _, file := range r.files {
		k := kind(file)
		if k == "" {
			continue
		}
		src, err := fs.ReadFile(r.fsys, file)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, c := range citations(k, src) {
			if !r.resolves(file, c.name) {
				errs = append(errs, fmt.Errorf("%s:%d: %s is cited but is not in the repository", file, c.line, c.name))
			}
		}
	}
	return errs
}

type cite struct {
	line int
	name string
}

func citations(kind string, src []byte) []cite {
	switch kind {
	case "go":
		return goCitations(src)
	case "hash":
		return hashCitations(src)
	case "md":
		return markdownCitations(src)
	}
	return nil
}

// citeRE finds a file name ending in .go or .md. What comes before a match
// is checked by namesIn: URLs, globs and template text are not citations.
var citeRE = regexp.MustCompile(`[A-Za-z0-9_.][A-Za-z0-9_./-]*\.(?:go|md)\b`)

// namesIn returns the citations of one piece of text, numbered from line.
func namesIn(text string, line int) []cite {
	var cs []cite
	for i, l := range strings.Split(text, "\n") {
		for _, m := range citeRE.FindAllStringIndex(l, -1) {
			name := l[m[0]:m[1]]
			before := ""
			if m[0] > 0 {
				before = l[:m[0]]
			}
			if strings.HasSuffix(before, "/") || strings.HasSuffix(before, "*") || strings.HasSuffix(before, "$") ||
				strings.HasSuffix(before, "<") || strings.HasSuffix(before, "{") || strings.HasSuffix(before, "%") {
				continue // the tail of a URL or an absolute path, a glob, a template
			}
			if _, ok := allowed[path.Base(name)]; ok {
				continue
			}
			cs = append(cs, cite{line + i, name})
		}
	}
	return cs
}

// goCitations reads the comments of a Go file: strings and identifiers name
// no files a reader is sent to.
func goCitations(src []byte) []cite {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, src, func(token.Position, string) {}, scanner.ScanComments)
	var cs []cite
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return cs
		}
		if tok == token.COMMENT {
			cs = append(cs, namesIn(lit, fset.Position(pos).Line)...)
		}
	}
}

// hashCitations reads the # comments of a Makefile or shell script.
func hashCitations(src []byte) []cite {
	var cs []cite
	sc := bufio.NewScanner(bytes.NewReader(src))
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if i := strings.Index(l, "#"); i >= 0 && (i == 0 || l[i-1] == ' ' || l[i-1] == '\t') {
			cs = append(cs, namesIn(l[i:], n)...)
		}
	}
	return cs
}

// markdownCitations reads a page's prose. Code blocks quote program output
// and commands, and a link's label repeats its target, which brokenLinks
// checks; so both are left out, the target kept.
func markdownCitations(src []byte) []cite {
	var cs []cite
	for n, l := range proseLines(src) {
		if l == "" {
			continue
		}
		l = linkRE.ReplaceAllString(l, " $2 ")
		cs = append(cs, namesIn(l, n+1)...)
	}
	return cs
}

// proseLines returns a page's lines with those inside fenced code blocks
// blanked, so line numbers stay true.
func proseLines(src []byte) []string {
	lines := strings.Split(string(src), "\n")
	fence := ""
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if fence == "" && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")) {
			fence = t[:3]
			lines[i] = ""
			continue
		}
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			lines[i] = ""
		}
	}
	return lines
}

// resolves reports whether a name cited in file is a file of the tree: a
// path from the root or from the citing file's folder, the tail of a
// tracked path (request/facts.go), or a bare name in the citing folder or,
// failing that, anywhere in the tree (a comment may name a file of the
// package it talks about). A bare specification name resolves only beside
// its copy.
func (r *repo) resolves(file, name string) bool {
	dir := path.Dir(file)
	if r.exists(path.Join(dir, name)) {
		return true
	}
	if !strings.Contains(name, "/") {
		return !specNames[name] && r.base[name] > 0
	}
	if r.exists(name) {
		return true
	}
	if dependencyPath(name) {
		return true
	}
	for _, f := range r.files {
		if strings.HasSuffix(f, "/"+name) {
			return true
		}
	}
	return false
}

// dependencyPath says whether name is a file of another module, named by
// its import path (fyne.io/fyne/v2/lang/lang.go): its first element is a
// host name, which no folder of this repository is. Such a citation points
// the reader at the dependency's source, read where go.mod pins it.
func dependencyPath(name string) bool {
	first, _, ok := strings.Cut(name, "/")
	return ok && strings.Contains(strings.Trim(first, "."), ".")
}

// linkRE is an inline Markdown link or image: [label](target "title").
var linkRE = regexp.MustCompile(`(!?\[[^\]]*\])\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// brokenLinks checks every relative link of every Markdown page: the file
// it names exists, and so does the heading its #anchor names.
func (r *repo) brokenLinks() []error {
	var errs []error
	for _, file := range r.files {
		if !strings.HasSuffix(file, ".md") {
			continue
		}
		src, err := fs.ReadFile(r.fsys, file)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for n, l := range proseLines(src) {
			for _, m := range linkRE.FindAllStringSubmatch(l, -1) {
				if err := r.checkLink(file, m[2]); err != nil {
					errs = append(errs, fmt.Errorf("%s:%d: %s: %w", file, n+1, m[2], err))
				}
			}
		}
	}
	return errs
}

func (r *repo) checkLink(file, target string) error {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return nil // external: not this repository's to keep
	}
	p, anchor, _ := strings.Cut(target, "#")
	if p == "" {
		p = file
	} else {
		p = path.Join(path.Dir(file), p)
		if !r.exists(p) {
			return fmt.Errorf("no such file")
		}
	}
	if anchor == "" || !strings.HasSuffix(p, ".md") {
		return nil
	}
	src, err := fs.ReadFile(r.fsys, p)
	if err != nil {
		return err
	}
	if !anchors(src)[anchor] {
		return fmt.Errorf("no heading with anchor #%s", anchor)
	}
	return nil
}

// anchors are the ids GitHub gives a page's headings: the slug, and for a
// repeated one the slug and -1, -2, ...
func anchors(src []byte) map[string]bool {
	ids := map[string]bool{}
	seen := map[string]int{}
	for _, l := range proseLines(src) {
		if !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(l, "#"))
		if h == "" || !strings.HasPrefix(strings.TrimLeft(l, "#"), " ") {
			continue
		}
		s := slug(h)
		if n := seen[s]; n > 0 {
			ids[fmt.Sprintf("%s-%d", s, n)] = true
		} else {
			ids[s] = true
		}
		seen[s]++
	}
	return ids
}

// slug is GitHub's heading anchor: lower case, letters, digits, spaces,
// hyphens and underscores kept, every space a hyphen.
func slug(h string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(h) {
		switch {
		case c == ' ':
			b.WriteByte('-')
		case c == '-' || c == '_' || unicode.IsLetter(c) || unicode.IsDigit(c):
			b.WriteRune(c)
		}
	}
	return b.String()
}

func errorStrings(errs []error) []string {
	s := make([]string, len(errs))
	for i, e := range errs {
		s[i] = e.Error()
	}
	return s
}

// TestDependencyPaths: a file of another module is told from a path of
// this repository by its host name.
func TestDependencyPaths(t *testing.T) {
	for name, want := range map[string]bool{
		"fyne.io/fyne/v2/lang/lang.go":         true,
		"github.com/gorilla/websocket/conn.go": true,
		"transport/queue.go":                   false,
		"docs/protocol/push-transport.md":      false,
		"queue.go":                             false,
		"../shared/spec/push-transport.md":     false,
	} {
		if got := dependencyPath(name); got != want {
			t.Errorf("dependencyPath(%q) = %v, want %v", name, got, want)
		}
	}
}
