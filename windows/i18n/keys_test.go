package i18n

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"yui/pet/settings"
)

// langCalls are the lang.L, X, N and XN calls of a file.
func langCalls(f *ast.File) []*ast.CallExpr {
	var out []*ast.CallExpr
	ast.Inspect(f, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "lang" && len(c.Args) > 0 {
					out = append(out, c)
				}
			}
		}
		return true
	})
	return out
}

// constArg is the name of a lang call's key when it is a constant (or a
// package's: petwindow.DoNotDisturbLabel), "" otherwise.
func constArg(c *ast.CallExpr) string {
	switch a := c.Args[0].(type) {
	case *ast.Ident:
		return a.Name
	case *ast.SelectorExpr:
		return a.Sel.Name
	}
	return ""
}

// literal is the value of a string literal or a sum of them; ok is false
// for anything else.
func literal(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		s, err := strconv.Unquote(e.Value)
		return s, err == nil && e.Kind == token.STRING
	case *ast.BinaryExpr:
		x, ok1 := literal(e.X)
		y, ok2 := literal(e.Y)
		return x + y, ok1 && ok2 && e.Op == token.ADD
	case *ast.ParenExpr:
		return literal(e.X)
	}
	return "", false
}

// optionLabels are the labels of settingswindow's option literals
// ({value, label}), which a choice translates (settingswindow/choice.go);
// a label equal to its value shows as it is.
func optionLabels(f *ast.File) []string {
	var out []string
	add := func(c *ast.CompositeLit) {
		if len(c.Elts) != 2 {
			return
		}
		label, ok := literal(c.Elts[1])
		if value, _ := literal(c.Elts[0]); ok && label != value {
			out = append(out, label)
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		c, ok := n.(*ast.CompositeLit)
		if !ok || !isOptions(c.Type) {
			return true
		}
		if _, list := c.Type.(*ast.ArrayType); !list {
			add(c)
			return true
		}
		for _, e := range c.Elts {
			if inner, ok := e.(*ast.CompositeLit); ok {
				add(inner)
			}
		}
		return true
	})
	return out
}

// usedKeys are the keys the code translates: the literal first arguments
// of lang calls and the constants those calls name, in the Go files under
// dirs (tests aside), with whether each is a plural (lang.N, XN).
func usedKeys(t *testing.T, dirs ...string) map[string]bool {
	keys := map[string]bool{}
	consts := map[string]string{}
	var named []string
	fset := token.NewFileSet()
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			for _, o := range optionLabels(f) {
				keys[o] = keys[o] || false
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if v, ok := n.(*ast.ValueSpec); ok && len(v.Names) == 1 && len(v.Values) == 1 {
					if s, ok := literal(v.Values[0]); ok {
						consts[v.Names[0].Name] = s
					}
				}
				return true
			})
			for _, c := range langCalls(f) {
				key := c.Args[0]
				sel := c.Fun.(*ast.SelectorExpr).Sel.Name
				plural := sel == "N" || sel == "XN"
				if s, ok := literal(key); ok {
					keys[s] = keys[s] || plural
				} else if id := constArg(c); id != "" {
					named = append(named, id)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range named {
		if s, ok := consts[id]; ok {
			keys[s] = keys[s] || false
		}
	}
	return keys
}

// TestEveryKeyInEveryLanguage: every key the windows, the tray and the app
// translate is in every language file, a plural with its forms; the
// failure lists what each file lacks, ready to paste.
func TestEveryKeyInEveryLanguage(t *testing.T) {
	root := filepath.Join("..", "..")
	used := usedKeys(t, filepath.Join(root, "windows"), filepath.Join(root, "app"), filepath.Join(root, "pet"))
	for _, l := range settings.ShippedLanguages() {
		msgs, err := Messages(l)
		if err != nil {
			t.Fatal(err)
		}
		missing := map[string]any{}
		for key, plural := range used {
			if plural {
				if _, ok := msgs[key+"#other"]; !ok {
					missing[key] = map[string]string{"one": key, "other": key}
				}
				continue
			}
			if _, ok := msgs[key]; !ok {
				missing[key] = key
			}
		}
		if len(missing) > 0 {
			b, _ := json.MarshalIndent(missing, "  ", "  ")
			t.Errorf("assets/lang/%s.json lacks %d keys:\n  %s", l, len(missing), b)
		}
		if _, ok := msgs[codeKey]; !ok || msgs[codeKey] != string(l) {
			t.Errorf("assets/lang/%s.json: %s is %q, want %q", l, codeKey, msgs[codeKey], l)
		}
	}
}

// TestLanguageFilesAgree: the other languages have exactly English's
// keys, so a key renamed in one file is not left behind in another.
func TestLanguageFilesAgree(t *testing.T) {
	en, err := Keys(settings.LanguageEnglish)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range settings.ShippedLanguages()[1:] {
		keys, err := Keys(l)
		if err != nil {
			t.Fatal(err)
		}
		var extra []string
		for _, k := range keys {
			if !slices.Contains(en, k) {
				extra = append(extra, k)
			}
		}
		if len(extra) > 0 {
			t.Errorf("assets/lang/%s.json has keys en.json lacks: %q", l, extra)
		}
	}
}
