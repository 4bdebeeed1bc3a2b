//go:build race

package vrmtest_test

// raceEnabled: under the race detector, encoding and decoding 4096² textures
// takes minutes; the Makefile's unit step runs those tests again without it.
const raceEnabled = true
