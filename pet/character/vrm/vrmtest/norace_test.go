//go:build !race

package vrmtest_test

const raceEnabled = false
