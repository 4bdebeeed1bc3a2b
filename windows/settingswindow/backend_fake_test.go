package settingswindow

import (
	"testing"

	"yui/windows/internal/fakeapp"
)

// The app as these tests see it: one fake for the window packages.
type (
	fakeBackend = fakeapp.Backend
	fakeConn    = fakeapp.Session
)

func newFakeBackend(t testing.TB) *fakeBackend { return fakeapp.NewBackend(t) }

// appOf is the fake as the settings window sees it: the fake in every
// field, as the app passes itself (app/windows.go); presets may be the fake
// with an optional ability more (tools_test.go's MCP manager).
func appOf(b *fakeBackend, presets Presets) App {
	if presets == nil {
		presets = b
	}
	return App{Presets: presets, Connection: b, Speech: b, Voice: b, AudioServers: b,
		Welcomer: b, DesktopSetup: b, Housekeeping: b, Memory: b}
}
