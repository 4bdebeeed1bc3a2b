package desktop

// ErrClosed lets the external tests (package desktop_test, which use
// tools/desktop/desktoptest's fake) make a query fail as a closed layer's does.
var ErrClosed = errClosed
