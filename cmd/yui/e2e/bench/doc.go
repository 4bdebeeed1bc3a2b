//go:build e2e

// Package bench is the end-to-end benchmarks (`make bench`): startup,
// idle use beside bare Fyne windows (cmd/barewindow) and ten thousand
// turns, written as JSON for cmd/perfreport.
package bench
