package app

import (
	"testing"

	"yui/pet/character"
)

// TestPacksSharedWhileHeld: pets of one character at one size share one
// scaled pack; once the last lets go, the next pet scales afresh.
func TestPacksSharedWhileHeld(t *testing.T) {
	p, err := character.Select(t.TempDir(), character.DefaultID)
	if err != nil {
		t.Fatal(err)
	}
	var c packCache
	a, ka := c.scaled(p, 96, 128)
	b, kb := c.scaled(p, 96, 128)
	if a != b || ka != kb {
		t.Fatal("two pets of one character scaled it twice")
	}
	if c.running(p.ID) != a {
		t.Fatal("the running pack is not offered to a new pet")
	}
	c.release(ka)
	if c.running(p.ID) != a {
		t.Fatal("released while a pet still holds it")
	}
	c.release(kb)
	if c.running(p.ID) != nil {
		t.Fatal("kept after the last pet let go")
	}
}
