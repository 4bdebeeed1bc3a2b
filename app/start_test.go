package app

import (
	"slices"
	"testing"
)

// Run defers its teardown before anything is added to it: what the steps
// add afterwards closes all the same, last added first, as defers do.
func TestTeardownDeferredBeforeAdding(t *testing.T) {
	var closed []int
	func() {
		var down teardown
		defer down.run()
		for i := range 3 {
			down.add(func() { closed = append(closed, i) })
		}
	}()
	if want := []int{2, 1, 0}; !slices.Equal(closed, want) {
		t.Fatalf("closed %v, want %v", closed, want)
	}
}
