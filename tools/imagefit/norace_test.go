//go:build !race

package imagefit

const raceEnabled = false
