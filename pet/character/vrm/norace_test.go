//go:build !race

package vrm

const raceEnabled = false
