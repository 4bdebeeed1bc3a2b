package desktop

import (
	"errors"
	"strings"
	"testing"
)

func TestNeedDisplay(t *testing.T) {
	if err := needDisplay(":0", "wayland-0"); err != nil {
		t.Fatalf("DISPLAY set: %v", err)
	}
	for _, c := range []struct{ display, wayland, want string }{
		{"", "wayland-0", "WAYLAND_DISPLAY=wayland-0) has no XWayland"},
		{"", "", "DISPLAY is not set; start Yui inside a graphical session"},
	} {
		err := needDisplay(c.display, c.wayland)
		if !errors.Is(err, ErrNoDisplay) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("needDisplay(%q, %q) = %v, want one line with %q", c.display, c.wayland, err, c.want)
		}
	}
}
