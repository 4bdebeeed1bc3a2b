//go:build race

package raster

// raceEnabled: under the race detector the 100k-triangle scene is too
// slow to draw on every run.
const raceEnabled = true
