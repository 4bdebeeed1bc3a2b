//go:build e2e

// Package mutter is the end-to-end group under GNOME's compositor
// (mutter --headless, XWayland, two virtual monitors of different sizes):
// one compositor for the group. Run with `make e2e-mutter`.
package mutter
