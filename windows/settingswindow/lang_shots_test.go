package settingswindow

import (
	"context"
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/test"

	"yui/pet/settings"
	"yui/windows/i18n"
	"yui/windows/widgets"
)

// texts are the strings of every canvas.Text drawn under o.
func texts(o fyne.CanvasObject) []string {
	var out []string
	switch v := o.(type) {
	case *canvas.Text:
		if strings.TrimSpace(v.Text) != "" {
			out = append(out, v.Text)
		}
	case *fyne.Container:
		for _, c := range v.Objects {
			out = append(out, texts(c)...)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(v).Objects() {
			out = append(out, texts(c)...)
		}
	}
	return out
}

// TestSettingsInCJK opens the settings window and the welcome page in
// Japanese, Korean and Simplified Chinese with the system CJK font the app
// would find (fonts-noto-cjk): each tab shows its language, and the font
// has a glyph for every rune drawn, so nothing renders as a box. The
// screenshots go to the test's folder, or with YUI_UPDATE_DOCS=1 the
// Japanese settings to docs/screenshots/settings-ja.png.
func TestSettingsInCJK(t *testing.T) {
	for _, c := range []struct {
		l        settings.Language
		tab, app string // the first tab's and the App tab's titles
	}{
		{settings.LanguageJapanese, "プリセット", "アプリ"},
		{settings.LanguageKorean, "프리셋", "앱"},
		{settings.LanguageChinese, "预设", "应用"},
	} {
		t.Run(string(c.l), func(t *testing.T) {
			f, err := i18n.FindFont(context.Background(), c.l)
			if errors.Is(err, i18n.ErrNoFont) {
				t.Skipf("no CJK font (%s): %v", i18n.FontPackage, err)
			}
			if err != nil {
				t.Fatal(err)
			}
			i18n.Use(c.l)
			defer i18n.Use(settings.LanguageEnglish)
			h := openSettings(t, nil, "")
			fyne.CurrentApp().Settings().SetTheme(widgets.ThemeWithFont(f.Resource))
			h.sw.win.Resize(fyne.NewSize(settingsWidth, settingsHeight))
			if got := h.sw.tabs.Items[0].Text; got != c.tab {
				t.Errorf("first tab %q, want %q", got, c.tab)
			}
			// Each tab's content is walked without selecting it: selecting
			// the Speech or Voice tab starts a voice listing or the level
			// meter in the background, which would draw while the walk reads.
			h.sw.jobs.Wait() // what opening started (the speakers' list)
			for _, it := range h.sw.tabs.Items {
				drawn := texts(it.Content)
				for _, s := range drawn {
					if m := f.Missing(s); len(m) > 0 {
						t.Errorf("tab %q: %q lacks glyphs %q in %s", it.Text, s, string(m), f.Path)
					}
				}
				if m := f.Missing(it.Text); len(m) > 0 {
					t.Errorf("tab title %q lacks glyphs %q", it.Text, string(m))
				}
			}
			if !strings.Contains(strings.Join(texts(h.sw.tabs.Items[appTab(h, c.app)].Content), "\n"), lang.L("Language")) {
				t.Errorf("the App tab draws no %q", lang.L("Language"))
			}
			relayout(h.sw.win.Content())
			writePNG(t, h.sw.win.Canvas(), string(c.l)+"-settings.png")
			if c.l == settings.LanguageJapanese && os.Getenv("YUI_UPDATE_DOCS") != "" {
				relayout(h.sw.win.Content())
				writePNGTo(t, h.sw.win.Canvas(), filepath.Join("..", "..", "docs", "screenshots", "settings-ja.png"))
			}
			h.sw.ShowWelcome()
			relayout(h.sw.win.Content())
			for _, s := range texts(h.sw.win.Content()) {
				if m := f.Missing(s); len(m) > 0 {
					t.Errorf("welcome: %q lacks glyphs %q", s, string(m))
				}
			}
			writePNG(t, h.sw.win.Canvas(), string(c.l)+"-welcome.png")
		})
	}
}

// appTab is the index of the tab titled title.
func appTab(h *settingsHarness, title string) int {
	for i, it := range h.sw.tabs.Items {
		if it.Text == title {
			return i
		}
	}
	h.t.Fatalf("no tab %q", title)
	return 0
}

func writePNG(t *testing.T, c fyne.Canvas, name string) {
	dir := os.Getenv("YUI_SHOTS_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	writePNGTo(t, c, filepath.Join(dir, name))
}

func writePNGTo(t *testing.T, c fyne.Canvas, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, c.Capture()); err != nil {
		t.Fatal(err)
	}
}
