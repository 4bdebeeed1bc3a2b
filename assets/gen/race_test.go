//go:build race

package main

// raceEnabled: the race detector makes rendering the whole pack slow.
const raceEnabled = true
