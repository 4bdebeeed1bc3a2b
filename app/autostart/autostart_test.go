package autostart

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestXDGEntryAppearsAndGoes(t *testing.T) {
	x := XDG{Dir: filepath.Join(t.TempDir(), "autostart")}
	if on, err := x.Enabled(); err != nil || on {
		t.Fatalf("before: %v %v", on, err)
	}
	if err := x.Disable(); err != nil {
		t.Fatalf("disabling nothing: %v", err)
	}
	if err := Set(x, true, "/opt/My Apps/yui", []string{"--config-dir", "/home/a/100%"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(x.Dir, "yui.desktop"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"[Desktop Entry]\n", "Type=Application\n", `Exec="/opt/My Apps/yui" --config-dir /home/a/100%%` + "\n"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("entry lacks %q:\n%s", want, b)
		}
	}
	if on, err := x.Enabled(); err != nil || !on {
		t.Fatalf("after Enable: %v %v", on, err)
	}
	if err := Set(x, false, "", nil); err != nil {
		t.Fatal(err)
	}
	if on, err := x.Enabled(); err != nil || on {
		t.Fatalf("after Disable: %v %v", on, err)
	}
}

func TestXDGDirFollowsXDGConfigHome(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", "/tmp/cfg")
	if d, err := XDGDir(); err != nil || d != "/tmp/cfg/autostart" {
		t.Fatalf("XDGDir = %q, %v", d, err)
	}
	t.Setenv("XDG_CONFIG_HOME", "relative") // not absolute: ignored, as the spec says
	t.Setenv("HOME", "/home/u")
	if d, err := XDGDir(); err != nil || d != "/home/u/.config/autostart" {
		t.Fatalf("XDGDir = %q, %v", d, err)
	}
}

func TestExecQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/usr/bin/yui": "/usr/bin/yui", "a b": `"a b"`, `a"b`: `"a\"b"`, "$HOME": `"\$HOME"`, "": `""`, `c:\x`: `"c:\\x"`,
	} {
		if got := execQuote(in); got != want {
			t.Errorf("execQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestLaunchAgent(t *testing.T) {
	l := LaunchAgent{Dir: t.TempDir()}
	if err := l.Enable("/Applications/Yui.app/Contents/MacOS/yui", []string{"a&b"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(l.Dir, "io.github.yui.plist"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "<string>/Applications/Yui.app/Contents/MacOS/yui</string>") ||
		!strings.Contains(string(b), "<string>a&amp;b</string>") || !strings.Contains(string(b), "<key>RunAtLoad</key>") {
		t.Fatalf("plist:\n%s", b)
	}
	if err := l.Disable(); err != nil {
		t.Fatal(err)
	}
	if on, _ := l.Enabled(); on {
		t.Fatal("still there after Disable")
	}
}
