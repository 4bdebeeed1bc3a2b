//go:build race

package imagefit

// raceEnabled skips the 4K test: the race detector makes it take minutes.
const raceEnabled = true
