package widgets

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// runes is a width model for the tests: a line holds n characters.
func runes(n int) func(string) bool {
	return func(s string) bool { return utf8.RuneCountInString(s) <= n }
}

func TestWrap(t *testing.T) {
	for _, c := range []struct {
		name  string
		text  string
		width int
		want  []string
	}{
		{"latin at spaces", "the quick brown fox", 10, []string{"the quick", "brown fox"}},
		{"a long word is cut", "abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"newline", "ab\ncd", 10, []string{"ab", "cd"}},
		{"empty", "", 5, []string{""}},
		{"japanese between any two", "きょうはいいてんき", 4, []string{"きょうは", "いいてん", "き"}},
		{"no 。 at a line start", "あいうえ。かき", 4, []string{"あいう", "え。かき"}},
		{"no 、 at a line start", "あいうえ、かき", 4, []string{"あいう", "え、かき"}},
		{"no small kana at a line start", "あいうっぷ", 3, []string{"あい", "うっぷ"}},
		{"no ー at a line start", "あいコーヒー", 3, []string{"あい", "コー", "ヒー"}},
		{"no 」 or ！ at a line start", "あいう」！え", 3, []string{"あい", "う」！", "え"}},
		{"no 「 at a line end", "あい「うえ」", 3, []string{"あい", "「う", "え」"}},
		{"no （ at a line end", "あい（う）", 3, []string{"あい", "（う）"}},
		{"chinese", "你好，今天天气真好。", 4, []string{"你好，今", "天天气真", "好。"}},
		{"chinese ，at a line start", "你好今天，天气", 4, []string{"你好今", "天，天气"}},
		{"latin inside japanese", "Yuiはげんきです", 5, []string{"Yuiはげ", "んきです"}},
		{"korean at spaces", "오늘 날씨가 정말 좋네요", 7, []string{"오늘 날씨가", "정말 좋네요"}},
		{"a long run of closing marks is cut", "ーーーーー", 2, []string{"ーー", "ーー", "ー"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Wrap(c.text, runes(c.width))
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("Wrap(%q, %d) = %q, want %q", c.text, c.width, got, c.want)
			}
		})
	}
}

// TestWrapKeepsKinsoku: over a long Japanese text at many widths, no
// line starts with a closing mark or ends with an opening one, none is
// too wide, and no character is lost.
func TestWrapKeepsKinsoku(t *testing.T) {
	const text = "「こんにちは！」と彼女は言った。今日は、とてもいい天気ですね。（散歩に行きませんか？）ちょっとコーヒーでも。"
	for w := 3; w <= 20; w++ {
		lines := Wrap(text, runes(w))
		if strings.Join(lines, "") != text {
			t.Fatalf("width %d loses text: %q", w, lines)
		}
		for i, l := range lines {
			r := []rune(l)
			if utf8.RuneCountInString(l) > w {
				t.Errorf("width %d: line %q too wide", w, l)
			}
			if i > 0 && strings.ContainsRune(noLineStart, r[0]) {
				t.Errorf("width %d: line %q starts with a closing mark", w, l)
			}
			if i < len(lines)-1 && strings.ContainsRune(noLineEnd, r[len(r)-1]) {
				t.Errorf("width %d: line %q ends with an opening bracket", w, l)
			}
		}
	}
}
