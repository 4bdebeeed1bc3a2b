package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The sizes of docs/architecture.md's "Rooms" section (issue 55): a room
// every change passes through stays small enough to be read at once. The
// limits count shipped code only — no tests, no generated files, no
// …test fake packages.
const (
	maxMethods        = 50  // methods declared on one named type
	maxInterface      = 10  // methods of one interface, embedded ones counted
	maxFuncFields     = 4   // function-typed fields of one struct
	maxFuncLines      = 120 // lines of one function
	longFuncLines     = 80  // a function past this is "long" …
	maxLongFuncs      = 10  // … and at most this many may be
	roomsModuleFolder = "../.."
)

// exportedPackage is the part of `go list -export -json` the room test
// reads.
type exportedPackage struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Export     string
	Standard   bool
}

// roomPackages lists the module's shipped packages with the export data of
// every package they depend on.
func roomPackages(t *testing.T) (module []exportedPackage, export map[string]string) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	cmd := exec.Command("go", "list", "-export", "-deps", "-json", "./...")
	cmd.Dir = roomsModuleFolder
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export: %v\n%s", err, stderr.String())
	}
	export = map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p exportedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		export[p.ImportPath] = p.Export
		if topFolder(p.ImportPath) != "" && !isFakePackage(p.ImportPath) {
			module = append(module, p)
		}
	}
	return module, export
}

// isFakePackage says whether a package is a sibling fake package that
// never ships (…test) or a test-only program.
func isFakePackage(path string) bool {
	base := filepath.Base(path)
	return strings.HasSuffix(base, "test") || strings.Contains(path, "/e2e") || strings.Contains(path, "/internal/testprog")
}

// isGenerated says whether a file carries Go's generated-code mark.
func isGenerated(f *ast.File) bool {
	for _, c := range f.Comments {
		for _, l := range c.List {
			if strings.HasPrefix(l.Text, "// Code generated ") && strings.HasSuffix(l.Text, " DO NOT EDIT.") {
				return true
			}
		}
	}
	return false
}

// roomReport is what the room test measures.
type roomReport struct {
	bigTypes, bigInterfaces, funcFieldStructs, tooLong, long []string
}

func measureRooms(t *testing.T) roomReport {
	pkgs, export := roomPackages(t)
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := export[path]
		if !ok || file == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
	var r roomReport
	for _, p := range pkgs {
		var files []*ast.File
		for _, name := range p.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			if !isGenerated(f) {
				files = append(files, f)
			}
		}
		conf := types.Config{Importer: imp.(types.ImporterFrom), Error: func(error) {}}
		pkg, _ := conf.Check(p.ImportPath, fset, files, nil)
		if pkg == nil {
			t.Fatalf("type-check %s failed", p.ImportPath)
		}
		short := strings.TrimPrefix(p.ImportPath, module+"/")
		scope := pkg.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok {
				continue
			}
			named, ok := tn.Type().(*types.Named)
			if !ok {
				continue
			}
			if n := named.NumMethods(); n > maxMethods {
				r.bigTypes = append(r.bigTypes, fmt.Sprintf("%s.%s: %d methods", short, name, n))
			}
			switch u := named.Underlying().(type) {
			case *types.Interface:
				if n := u.NumMethods(); n > maxInterface {
					r.bigInterfaces = append(r.bigInterfaces, fmt.Sprintf("%s.%s: %d methods", short, name, n))
				}
			case *types.Struct:
				funcs := 0
				for i := range u.NumFields() {
					if _, ok := u.Field(i).Type().Underlying().(*types.Signature); ok {
						funcs++
					}
				}
				if funcs > maxFuncFields {
					r.funcFieldStructs = append(r.funcFieldStructs, fmt.Sprintf("%s.%s: %d function fields", short, name, funcs))
				}
			}
		}
		for _, f := range files {
			ast.Inspect(f, func(n ast.Node) bool {
				var body *ast.BlockStmt
				var name string
				switch fn := n.(type) {
				case *ast.FuncDecl:
					body, name = fn.Body, fn.Name.Name
					if fn.Recv != nil && len(fn.Recv.List) == 1 {
						name = recvName(fn.Recv.List[0].Type) + "." + name
					}
				default:
					return true
				}
				if body == nil {
					return false
				}
				lines := fset.Position(n.End()).Line - fset.Position(n.Pos()).Line + 1
				where := fmt.Sprintf("%s.%s: %d lines", short, name, lines)
				if lines > maxFuncLines {
					r.tooLong = append(r.tooLong, where)
				}
				if lines > longFuncLines {
					r.long = append(r.long, where)
				}
				return false
			})
		}
	}
	return r
}

// recvName is the type name of a method's receiver.
func recvName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return recvName(x.X)
	case *ast.IndexExpr:
		return recvName(x.X)
	case *ast.IndexListExpr:
		return recvName(x.X)
	case *ast.Ident:
		return x.Name
	}
	return "?"
}

// TestRoomsStaySmall holds issue 55's sizes for the shipped code.
func TestRoomsStaySmall(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the whole module")
	}
	r := measureRooms(t)
	report := func(what string, list []string) {
		if len(list) > 0 {
			slices.Sort(list)
			t.Errorf("%s:\n\t%s", what, strings.Join(list, "\n\t"))
		}
	}
	report(fmt.Sprintf("named types with more than %d methods", maxMethods), r.bigTypes)
	report(fmt.Sprintf("interfaces with more than %d methods", maxInterface), r.bigInterfaces)
	report(fmt.Sprintf("structs with more than %d function-typed fields", maxFuncFields), r.funcFieldStructs)
	report(fmt.Sprintf("functions over %d lines", maxFuncLines), r.tooLong)
	if len(r.long) > maxLongFuncs {
		report(fmt.Sprintf("%d functions over %d lines, at most %d may be", len(r.long), longFuncLines, maxLongFuncs), r.long)
	}
}
