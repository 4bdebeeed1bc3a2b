package settingswindow

import (
	"strings"
	"testing"

	"yui/tools/look"
)

// The App tab's note under the screen-look choice: nothing on X11 while
// all is well; the portal, a failure and the private rule on Wayland.
func TestLookNote(t *testing.T) {
	for _, tc := range []struct {
		st   look.ScreenStatus
		want []string
	}{
		{look.ScreenStatus{}, nil},
		{look.ScreenStatus{Way: look.WayDisplay, PrivateRule: true}, nil},
		{look.ScreenStatus{Way: look.WayPortal, PrivateRule: true}, []string{"screenshot portal"}},
		{look.ScreenStatus{Way: look.WayPortal, Problem: "no screenshot portal on the session bus"},
			[]string{"screenshot portal", "failed: no screenshot portal", "private-window rule cannot be applied"}},
	} {
		got := lookNote(tc.st)
		if (got == "") != (len(tc.want) == 0) {
			t.Errorf("%+v: %q", tc.st, got)
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%+v: %q lacks %q", tc.st, got, w)
			}
		}
	}
}
