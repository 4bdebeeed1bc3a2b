package i18n

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// showCalls put their arguments on screen: a widget's text, a note, a
// dialog's message.
var showCalls = map[string]bool{
	"SetText": true, "NewLabel": true, "NewLabelWithStyle": true, "SetNote": true, "setNotice": true,
	"SetNotice": true, "SetPlaceHolder": true, "ShowInformation": true, "NewConfirm": true, "NewInformation": true,
	"setError": true, "setEmpty": true, "helpText": true, "wrapLabel": true, "NewRichTextWithText": true,
}

// isHelper reports whether call is i18n.Error, the one way an error's
// text reaches a window (errors.go).
func isHelper(call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == "i18n" && sel.Sel.Name == "Error"
}

// errorText reports whether e holds x.Error() outside the helper.
func errorText(e ast.Node) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		if isHelper(c) {
			return false
		}
		if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Error" && len(c.Args) == 0 {
			found = true
		}
		return !found
	})
	return found
}

// isLangCall reports whether e is a lang.L, X, N or XN call.
func isLangCall(e ast.Expr) bool {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == "lang"
}

// errorEscapes lists where an error's English text reaches the user
// without i18n.Error: shown by a widget or dialog (X.SetText(err.Error())),
// joined to a translation (lang.L("Failed: ") + err.Error()) or given to
// one as its data, or an error handed to dialog.ShowError as it is.
func errorEscapes(fset *token.FileSet, f *ast.File) []string {
	var out []string
	bad := func(n ast.Node, what string) {
		out = append(out, fset.Position(n.Pos()).String()+": "+what)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op == token.ADD && (isLangCall(n.X) && errorText(n.Y) || isLangCall(n.Y) && errorText(n.X)) {
				bad(n, "a translation joined to an error's text")
				return false
			}
		case *ast.CallExpr:
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			switch {
			case isLangCall(n) && len(n.Args) > 1 && errorText(n.Args[len(n.Args)-1]):
				bad(n, "an error's text as a translation's data")
			case showCalls[sel.Sel.Name] && errorText(n):
				bad(n, "an error's text shown by "+sel.Sel.Name)
			case sel.Sel.Name == "ShowError" && len(n.Args) > 0 && !viaHelper(n.Args[0]):
				bad(n, "an error shown by dialog.ShowError untranslated")
			default:
				return true
			}
			return false
		}
		return true
	})
	return out
}

// viaHelper reports whether e holds an i18n.Error call.
func viaHelper(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && isHelper(c) {
			found = true
		}
		return !found
	})
	return found
}

// TestErrorEscapeCheckCatchesAnError: the check fails on each way an
// error's English reaches a widget and passes it through i18n.Error.
func TestErrorEscapeCheckCatchesAnError(t *testing.T) {
	const src = `package p
func f() {
	s.saved.SetText(err.Error())
	widget.NewLabel(err.Error())
	l.SetText(lang.L("Not saved: ") + err.Error())
	l.SetText(lang.L("Not saved: {{.R}}", map[string]any{"R": err.Error()}))
	dialog.ShowError(err, win)
	l.SetText(i18n.Error(err))
	l.SetText(lang.L("Not saved: {{.R}}", map[string]any{"R": i18n.Error(err)}))
	dialog.ShowError(errors.New(i18n.Error(err)), win)
	log.Warn("x", "err", err.Error())
}`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "snippet.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := errorEscapes(fset, f)
	if len(got) != 5 {
		t.Fatalf("errorEscapes = %d:\n%s\nwant the first five lines", len(got), strings.Join(got, "\n"))
	}
	for i, g := range got {
		if want := ":" + string(rune('3'+i)) + ":"; !strings.Contains(g, want) {
			t.Errorf("escape %d at %q, want line %d", i, g, 3+i)
		}
	}
}
