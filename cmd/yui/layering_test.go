package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The dependency rule of docs/architecture.md and docs/product.md §1:
//
//	cmd → app → windows → (pet, tools, transport)
//
// pet and tools may import transport, transport imports none of the
// others, and nothing imports upward. assets (the embedded files) is a
// leaf that every layer but transport may read. Tests are held to it as
// well: a test may reach down, never up.

// module is the module path of go.mod.
const module = "yui"

// mayImport says which top-level folders the code of each may import,
// besides itself.
var mayImport = map[string][]string{
	"cmd":       {"app", "windows", "pet", "tools", "transport", "assets"},
	"app":       {"windows", "pet", "tools", "transport", "assets"},
	"windows":   {"pet", "tools", "transport", "assets"},
	"pet":       {"transport", "assets"},
	"tools":     {"transport", "assets"},
	"transport": {},
	"assets":    {},
}

// topFolder is the top-level folder of a package of the module, "" for a
// package outside it.
func topFolder(pkg string) string {
	rest, ok := strings.CutPrefix(pkg, module+"/")
	if !ok {
		return ""
	}
	top, _, _ := strings.Cut(rest, "/")
	return top
}

// arrowsAgainstRule returns, sorted, every import of the graph (package →
// the packages it imports) that the rule forbids, as "from -> to", and
// every package of the module in a top-level folder the rule does not
// know.
func arrowsAgainstRule(graph map[string][]string) []string {
	var bad []string
	for from, imports := range graph {
		top := topFolder(from)
		if top == "" {
			continue
		}
		allowed, known := mayImport[top]
		if !known {
			bad = append(bad, from+": top-level folder "+top+" is not in the rule")
			continue
		}
		for _, to := range imports {
			t := topFolder(to)
			if t == "" || t == top || slices.Contains(allowed, t) {
				continue
			}
			bad = append(bad, from+" -> "+to)
		}
	}
	slices.Sort(bad)
	return slices.Compact(bad)
}

// listedPackage is the part of `go list -json` these tests read.
type listedPackage struct {
	ImportPath   string
	Dir          string
	GoFiles      []string
	Imports      []string
	TestImports  []string
	XTestImports []string
	Deps         []string
}

// goList runs `go list -json` with args and decodes its stream.
func goList(t *testing.T, args ...string) []listedPackage {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	cmd := exec.Command("go", append([]string{"list", "-json"}, args...)...)
	cmd.Dir = "../.."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// importGraph is every package of the module with what its code and
// its tests import, for the given build tags.
func importGraph(t *testing.T, tags string) map[string][]string {
	graph := map[string][]string{}
	for _, p := range goList(t, "-tags", tags, "./...") {
		imports := slices.Concat(p.Imports, p.TestImports, p.XTestImports)
		graph[p.ImportPath] = imports
	}
	return graph
}

// TestDependencyRule reads the import graph of the whole module, the
// end-to-end tests' build tag included, and fails on an arrow against the
// rule.
func TestDependencyRule(t *testing.T) {
	for _, tags := range []string{"", "e2e"} {
		graph := importGraph(t, tags)
		if len(graph) < 20 {
			t.Fatalf("go list found only %d packages", len(graph))
		}
		if bad := arrowsAgainstRule(graph); len(bad) > 0 {
			t.Errorf("tags %q: imports against the dependency rule (docs/architecture.md):\n  %s", tags, strings.Join(bad, "\n  "))
		}
	}
}

// TestDependencyRuleCatchesBrokenArrows: the check fails on each kind of
// arrow the rule forbids, and passes the ones it allows.
func TestDependencyRuleCatchesBrokenArrows(t *testing.T) {
	graph := map[string][]string{
		"yui/cmd/yui":          {"yui/app", "fmt"},
		"yui/app":              {"yui/windows/petwindow", "yui/pet", "yui/tools/look", "yui/transport"},
		"yui/windows":          {"yui/app/settings"},         // up: windows → app
		"yui/pet/speech":       {"yui/tools/desktop"},        // sideways: pet → tools
		"yui/tools/look":       {"yui/transport", "yui/pet"}, // sideways: tools → pet
		"yui/transport/push":   {"yui/pet/settings"},         // transport imports none of the others
		"yui/transport/clock":  {"yui/assets"},               // not even assets
		"yui/pet/character":    {"yui/assets", "yui/pet/x"},  // allowed
		"yui/windows/native":   {"yui/tools/xconn"},          // allowed
		"yui/internal/helpers": {"yui/transport"},            // a folder the rule does not know
		"golang.org/x/sys":     {"yui/app"},                  // outside the module: not read
	}
	want := []string{
		"yui/internal/helpers: top-level folder internal is not in the rule",
		"yui/pet/speech -> yui/tools/desktop",
		"yui/tools/look -> yui/pet",
		"yui/transport/clock -> yui/assets",
		"yui/transport/push -> yui/pet/settings",
		"yui/windows -> yui/app/settings",
	}
	if got := arrowsAgainstRule(graph); !slices.Equal(got, want) {
		t.Errorf("arrowsAgainstRule =\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// testCode returns the packages of a program's dependencies (each with
// its imports) that are test code of the module: a package whose name
// ends in "test" (the fakes beside the packages they fake) or one that
// imports package testing. Packages outside the module are not judged:
// some import testing for helpers of their own.
func testCode(deps map[string][]string) []string {
	var bad []string
	for pkg, imports := range deps {
		if topFolder(pkg) == "" {
			continue
		}
		last := pkg[strings.LastIndex(pkg, "/")+1:]
		if strings.HasSuffix(last, "test") || slices.Contains(imports, "testing") {
			bad = append(bad, pkg)
		}
	}
	slices.Sort(bad)
	return bad
}

// TestShippedBinariesHoldNoTestCode: the programs that ship link no test
// fake and no package of the module that imports testing (`go list -deps
// ./cmd/yui`).
func TestShippedBinariesHoldNoTestCode(t *testing.T) {
	for _, prog := range []string{"./cmd/yui", "./cmd/yui-sim"} {
		deps := map[string][]string{}
		for _, p := range goList(t, "-deps", prog) {
			deps[p.ImportPath] = p.Imports
		}
		if len(deps) < 10 {
			t.Fatalf("go list -deps %s: only %d packages", prog, len(deps))
		}
		if bad := testCode(deps); len(bad) > 0 {
			t.Errorf("%s links test code: %s", prog, strings.Join(bad, ", "))
		}
	}
	got := testCode(map[string][]string{
		"fmt":                               nil,
		"yui/transport/request/requesttest": {"net/http"},
		"yui/transport/pushsim":             {"net/http"},
		"yui/tools/look":                    {"testing"},
		"github.com/jezek/xgb":              {"testing"},
	})
	if want := []string{"yui/tools/look", "yui/transport/request/requesttest"}; !slices.Equal(got, want) {
		t.Errorf("testCode = %v, want %v", got, want)
	}
}

// fakeTypes returns the types named Fake… or Stub… that a file declares.
func fakeTypes(f *ast.File) []string {
	var names []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, sp := range g.Specs {
			if n := sp.(*ast.TypeSpec).Name.Name; strings.HasPrefix(n, "Fake") || strings.HasPrefix(n, "Stub") {
				names = append(names, n)
			}
		}
	}
	return names
}

// TestShippedPackagesDeclareNoFakes: a test fake lives in a sibling
// package that never ships (tools/desktop/desktoptest,
// transport/clock/clocktest), so no package the programs link declares a
// type named Fake… or Stub… outside its test files.
func TestShippedPackagesDeclareNoFakes(t *testing.T) {
	seen := map[string]bool{}
	for _, prog := range []string{"./cmd/yui", "./cmd/yui-sim"} {
		for _, p := range goList(t, "-deps", prog) {
			if seen[p.ImportPath] || topFolder(p.ImportPath) == "" {
				continue
			}
			seen[p.ImportPath] = true
			for _, name := range p.GoFiles {
				path := filepath.Join(p.Dir, name)
				f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
				if err != nil {
					t.Fatal(err)
				}
				for _, n := range fakeTypes(f) {
					t.Errorf("%s/%s declares %s: move it to a sibling …test package", p.ImportPath, name, n)
				}
			}
		}
	}
	if len(seen) < 10 {
		t.Fatalf("only %d packages of the module linked", len(seen))
	}
	src := "package x\ntype (\n\tFakeDesktop struct{}\n\tReal int\n)\ntype StubClock int\nfunc Fake() {}\n"
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := fakeTypes(f); !slices.Equal(got, []string{"FakeDesktop", "StubClock"}) {
		t.Errorf("fakeTypes = %v", got)
	}
}
