//go:build e2e

// Package xvfb is the end-to-end group under Xvfb, most tests with
// openbox as the window manager: the real yui against yui-sim or a fake
// model server on loopback, the Linux package, and the chaos tests (short
// here; YUI_SOAK=long makes them `make soak`). Run with `make e2e`.
package xvfb
