package i18n

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// allowed are literals that read as text but are names or symbols, the
// same in every language.
var allowed = map[string]bool{
	"Yui": true, "Mint": true, "Ctrl+Alt+Y": true, "OK": true, "Ollama": true, "OpenAI": true,
	"LM Studio": true, "llama.cpp": true, "MCP": true, "JSON": true, "PNG": true, "JPEG": true,
	"relationLevel()": true, "Ag": true, "ABCDEFGHIJKLMNOPQRSTUVWXYZ": true, ".PNG": true, ".JPG": true, ".JPEG": true,
	"Azure OpenAI": true, "DeepSeek": true, "Mistral": true, "Groq": true, "xAI": true, "OpenRouter": true,
	"https://YOUR-RESOURCE.openai.azure.com/openai/v1": true, "piper --model en_US-lessac-medium.onnx --output-raw": true, "15:04": true, "| |": true, " · ": true,
	// A tool's duration, " · %d ms" with its verb taken out: ms is the SI
	// symbol, written so in every shipped language.
	" ·  ms": true,
}

// charClasses are constants of characters, not text: the classes of
// line breaking (widgets/wrap.go).
var charClasses = map[string]bool{"noLineStart": true, "noLineEnd": true}

var (
	verbs   = regexp.MustCompile(`%[-+# 0]*[0-9]*(\.[0-9]+)?[a-zA-Z]`)
	allCaps = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)            // an environment variable
	svgPath = regexp.MustCompile(`^M[0-9.]+[ ,][0-9.]+[A-Za-z]`) // an icon's path data
)

// isText reports whether a string literal's value is text a user reads:
// it has a letter and is neither a name (lowercase letters, digits and
// _ . - / : + = ? & # %, such as a record name, a field, a MIME type or a
// URL), nor a format verb alone, nor on the allow-list.
func isText(s string) bool {
	s = verbs.ReplaceAllString(s, "")
	if allowed[s] || !strings.ContainsFunc(s, isLetter) || allCaps.MatchString(s) || strings.HasPrefix(s, "<svg") ||
		svgPath.MatchString(s) {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune("_.-/:+=?&#%@[]{}*", r)) {
			return true
		}
	}
	return false
}

func isLetter(r rune) bool { return unicode.IsLetter(r) }

// translatedCall reports whether call is a translation (lang.L, X, N,
// XN), a log record (slog and *slog.Logger methods) or an error value:
// texts inside those are keys, English for the log, or wrapped errors.
func translatedCall(call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	if id, ok := sel.X.(*ast.Ident); ok {
		switch id.Name + "." + sel.Sel.Name {
		case "lang.L", "lang.X", "lang.N", "lang.XN", "lang.Localize", "lang.LocalizeKey",
			"fmt.Errorf", "errors.New", "regexp.MustCompile", "slog.String", "slog.Any", "slog.Info", "slog.Warn", "slog.Error", "slog.Debug":
			return true
		}
	}
	switch sel.Sel.Name {
	case "Info", "Warn", "Error", "Debug", "Log", "With":
		return true // a logger's record; its name and attributes stay English
	}
	return false
}

// isOptions reports whether t is settingswindow's option or []option.
func isOptions(t ast.Expr) bool {
	if a, ok := t.(*ast.ArrayType); ok {
		t = a.Elt
	}
	id, ok := t.(*ast.Ident)
	return ok && id.Name == "option"
}

// escapes lists the text literals of a file that reach the user without
// translation, as "file:line: text".
func escapes(fset *token.FileSet, f *ast.File) []string {
	return escapesIn(fset, f, nil)
}

// escapesIn is escapes where the constants named in viaLang (the
// arguments of lang.L calls across the package) are translated where they
// are used, so their literals are keys.
func escapesIn(fset *token.FileSet, f *ast.File, viaLang map[string]bool) []string {
	var out []string
	var walk func(n ast.Node) bool
	walk = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ImportSpec, *ast.Field:
			return false // import paths, struct tags
		case *ast.ValueSpec:
			if len(n.Names) == 1 && (viaLang[n.Names[0].Name] || charClasses[n.Names[0].Name]) {
				return false
			}
		case *ast.CallExpr:
			if translatedCall(n) {
				return false
			}
		case *ast.CompositeLit:
			if isOptions(n.Type) {
				return false // a choice shows its labels through lang.L (settingswindow/choice.go)
			}
		case *ast.BasicLit:
			if n.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(n.Value)
			if err == nil && isText(s) {
				out = append(out, fset.Position(n.Pos()).String()+": "+strconv.Quote(s))
			}
		}
		return true
	}
	ast.Inspect(f, walk)
	return out
}

// TestNoTextEscapesTranslation walks windows/ and the tray (app/systray.go,
// app/tray.go): every literal that reads as text goes through lang, and
// every error's text through i18n.Error (errescape_test.go).
func TestNoTextEscapesTranslation(t *testing.T) {
	root := filepath.Join("..", "..")
	var files []string
	err := filepath.WalkDir(filepath.Join(root, "windows"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "internal" || d.Name() == "native" || d.Name() == "i18n") {
			return filepath.SkipDir // previews and fakes for tests; the X11/Win32 shims show no text; font names
		}
		if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, filepath.Join(root, "app", "systray.go"), filepath.Join(root, "app", "tray.go"))
	fset := token.NewFileSet()
	parsed := make([]*ast.File, len(files))
	viaLang := map[string]bool{}
	for i, p := range files {
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		parsed[i] = f
		for _, c := range langCalls(f) {
			if id := constArg(c); id != "" {
				viaLang[id] = true
			}
		}
	}
	var bad []string
	for _, f := range parsed {
		bad = append(bad, escapesIn(fset, f, viaLang)...)
		bad = append(bad, errorEscapes(fset, f)...)
	}
	if len(bad) > 0 {
		t.Errorf("%d texts reach the user untranslated (wrap them in lang.L or an error in i18n.Error, or allow a name in escape_test.go):\n%s",
			len(bad), strings.Join(bad, "\n"))
	}
}

// TestEscapeCheckCatchesALiteral: the check fails on a label's literal
// and passes the same text through lang.L, a log record's and a name.
func TestEscapeCheckCatchesALiteral(t *testing.T) {
	const src = `package p
func f() {
	widget.NewLabel("Open the log folder")
	widget.NewLabel(lang.L("Open the log folder"))
	log.Info("log_open", "path", p)
	l.SetText("Yui")
	b.SetText(fmt.Sprintf("Reconnecting in %d s", n))
}`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "snippet.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := escapes(fset, f)
	if len(got) != 2 || !strings.Contains(got[0], "Open the log folder") || !strings.Contains(got[1], "Reconnecting") {
		t.Fatalf("escapes = %q, want the bare label and the Sprintf", got)
	}
}
