package settingswindow

import (
	"strings"

	"fyne.io/fyne/v2/lang"

	"yui/tools/look"
)

// screenLooker is the app where it knows how screen looks are taken on
// this desktop (app/desktop_session.go): the XDG desktop portal on
// Wayland, which may be missing, and whether the active window can be
// known for the private-window rule.
type screenLooker interface {
	ScreenStatus() look.ScreenStatus
}

// showLookNote fills the note under the screen-look choice. UI thread.
func (g *globalSection) showLookNote() {
	sl, ok := g.w.b.Presets.(screenLooker)
	if !ok {
		return
	}
	text := lookNote(sl.ScreenStatus())
	g.lookNote.SetText(text)
	if text == "" {
		g.lookNote.Hide()
	} else {
		g.lookNote.Show()
	}
}

// lookNote is what the App tab says of st; "" on X11 and Windows while
// all is well.
func lookNote(st look.ScreenStatus) string {
	var parts []string
	if st.Way == look.WayPortal {
		parts = append(parts, lang.L("On this Wayland desktop screenshots go through the desktop's screenshot portal, which asks once for your consent."))
	}
	if st.Problem != "" {
		parts = append(parts, lang.L("The last screenshot failed: {{.Problem}}", map[string]any{"Problem": st.Problem}))
	}
	if st.Way != "" && !st.PrivateRule {
		parts = append(parts, lang.L("The active window cannot be known on this desktop: the private-window rule cannot be applied, and screenshots are taken only while screen looks are allowed."))
	}
	return strings.Join(parts, " ")
}
