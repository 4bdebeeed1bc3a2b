package messagewindow

import (
	"testing"

	"yui/windows/internal/fakeapp"
)

// The app as these tests see it: one fake for the window packages.
type (
	fakeBackend = fakeapp.Backend
	fakeConn    = fakeapp.Session
)

var _ App = (*fakeBackend)(nil)

func newFakeBackend(t testing.TB) *fakeBackend { return fakeapp.NewBackend(t) }
