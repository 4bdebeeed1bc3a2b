package textcut

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCut(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"", 5, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "ab…"},
		{"héllo wörld", 6, "héllo…"},
		{"日本語テキスト", 4, "日本語…"},
		{"abc", 1, "…"},
		{"abc", 0, ""},
		{"abc", -1, ""},
		{"a\nb", 10, "a\nb"}, // Cut does not fold
	} {
		if got := Cut(c.in, c.max); got != c.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}

func TestPrefix(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "abc"},
		{"héllo wörld", 5, "héllo"},
		{"abc", 0, ""},
		{"abc", -2, ""},
		{"", 3, ""},
	} {
		if got := Prefix(c.in, c.max); got != c.want {
			t.Errorf("Prefix(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}

func TestMark(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		mark string
		want string
	}{
		{"abc", 3, "…", "abc"},
		{"abcd", 3, "…", "abc…"},
		{"äöüß", 2, " (cut)", "äö (cut)"},
		{"äö", 2, " (cut)", "äö"},
	} {
		if got := Mark(c.in, c.n, c.mark); got != c.want {
			t.Errorf("Mark(%q, %d, %q) = %q, want %q", c.in, c.n, c.mark, got, c.want)
		}
	}
}

func TestOneLine(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"a\nb\r\n  c", 0, "a b c"},
		{"  x  ", 10, "x"},
		{"héllo wörld", 5, "héllo"},
		{"abc", 3, "abc"},
		{"a\t\tb", -1, "a b"},
	} {
		if got := OneLine(c.in, c.max); got != c.want {
			t.Errorf("OneLine(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}

func FuzzCut(f *testing.F) {
	f.Add("héllo wörld", 5)
	f.Add("\xff\xfe", 1)
	f.Fuzz(func(t *testing.T, s string, max int) {
		max %= 1000
		got := Cut(s, max)
		if max <= 0 {
			if got != "" {
				t.Fatalf("Cut(%q, %d) = %q, want empty", s, max, got)
			}
			return
		}
		if utf8.RuneCountInString(got) > max {
			t.Fatalf("Cut(%q, %d) = %q: longer than max", s, max, got)
		}
		if got != s && !strings.HasSuffix(got, Ellipsis) {
			t.Fatalf("Cut(%q, %d) = %q: cut without the ellipsis", s, max, got)
		}
	})
}
