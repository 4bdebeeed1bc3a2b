package petwindow

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
	"fyne.io/fyne/v2/test"

	"yui/pet/settings"
	"yui/windows/i18n"
	"yui/windows/widgets"
)

// TestBubbleDrawsACJKReply: a reply in Japanese, Korean or Chinese (no
// spaces to break at) wraps inside the bubble's width, and the theme's
// system font (the one the app finds at start-up) has every rune the
// bubble draws: no boxes. The bubble draws with canvas.Text, so the
// theme's font is its font.
func TestBubbleDrawsACJKReply(t *testing.T) {
	for l, reply := range map[settings.Language]string{
		settings.LanguageJapanese: "こんにちは！今日はとてもいい天気ですね。お散歩に行きませんか？帰りにお茶でも飲みましょう。",
		settings.LanguageKorean:   "안녕하세요! 오늘 날씨가 정말 좋네요. 같이 산책하러 갈래요? 돌아오는 길에 차도 마셔요.",
		settings.LanguageChinese:  "你好！今天天气真好。我们一起去散步吧？回来的路上再喝杯茶。",
	} {
		t.Run(string(l), func(t *testing.T) {
			f, err := i18n.FindFont(context.Background(), l)
			if errors.Is(err, i18n.ErrNoFont) {
				t.Skipf("no CJK font (%s)", i18n.FontPackage)
			}
			if err != nil {
				t.Fatal(err)
			}
			a := test.NewTempApp(t)
			a.Settings().SetTheme(widgets.ThemeWithFont(f.Resource))
			b := newBubble(240)
			b.Text = reply
			w := test.NewTempWindow(t, b)
			w.Resize(b.MinSize())
			lines := b.lines()
			if len(lines) < 2 {
				t.Fatalf("a long reply on %d line(s): %q", len(lines), lines)
			}
			if got := strings.Join(lines, ""); strings.ReplaceAll(got, " ", "") != strings.ReplaceAll(reply, " ", "") {
				t.Errorf("wrapped lines lose text: %q", lines)
			}
			for i, line := range lines[1:] {
				if strings.ContainsAny(string([]rune(line)[:1]), "、。，！？") {
					t.Errorf("line %d starts with a closing mark (kinsoku, widgets.Wrap): %q", i+1, lines)
				}
			}
			var drawn []string
			for _, o := range test.WidgetRenderer(b).Objects() {
				if tx, ok := o.(*canvas.Text); ok && tx.Text != "" {
					drawn = append(drawn, tx.Text)
					if fyne.MeasureText(tx.Text, tx.TextSize, tx.TextStyle).Width > b.MaxWidth {
						t.Errorf("line %q wider than the bubble", tx.Text)
					}
				}
			}
			if len(drawn) == 0 {
				t.Fatal("the bubble draws no text")
			}
			for _, s := range drawn {
				if m := f.Missing(s); len(m) > 0 {
					t.Errorf("%q lacks glyphs %q", s, string(m))
				}
			}
			if dir := os.Getenv("YUI_SHOTS_DIR"); dir != "" {
				out, err := os.Create(filepath.Join(dir, "bubble-"+string(l)+".png"))
				if err != nil {
					t.Fatal(err)
				}
				defer out.Close()
				if err := png.Encode(out, w.Canvas().Capture()); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
